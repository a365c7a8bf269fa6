from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CircuitsConfig(AppConfig):
    name = "circuits"
    verbose_name = _("Circuits")

    def ready(self) -> None:
        # Imported here, once the models are loaded (AppConfig.ready): circuits plug into the
        # competitions' extension points, so that they never import circuits.
        from circuits import (
            demo,
            messages,  # noqa: F401  (registers its sentences, once the apps are loaded)
        )
        from circuits.live import announce_standings
        from circuits.sections import club_link
        from scoring.extensions import DEMO_LOADERS
        from tournaments import extensions as hooks

        hooks.add(DEMO_LOADERS, demo.load)
        hooks.add(hooks.STANDINGS_LISTENERS, announce_standings)
        hooks.add(hooks.CLUB_LINKS, club_link)
        why = "several clubs': a circuit is not one club's to export"
        hooks.CLUB_DATA_LEFT_OUT.update(
            {
                f"circuits.{name}": why
                for name in ("circuit", "circuitclub", "circuitcompetition", "circuitevent")
            }
            | {"circuits.circuitlink": why}
        )
