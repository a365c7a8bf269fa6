from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationConfig(AppConfig):
    name = "registration"
    verbose_name = _("Registration")

    def ready(self) -> None:
        # Imported here, once the models are loaded (AppConfig.ready): registration plugs into
        # the competitions' extension points, so that they never import it.
        from registration import (  # noqa: F401  (tasks: its Celery task)
            demo,
            live,
            messages,
            selectors,
            tasks,
        )
        from registration.sections import public_button, round_section, settings_button
        from scoring.extensions import DEMO_LOADERS
        from tournaments import extensions as hooks

        hooks.add(DEMO_LOADERS, demo.load)
        hooks.add(hooks.COMPETITION_RELATED, "registration_settings")
        hooks.add(hooks.PUBLIC_BUTTONS, public_button)
        hooks.add(hooks.COMPETITION_BUTTONS, settings_button)
        hooks.add(hooks.ROUND_PAGE_SECTIONS, round_section)
        hooks.add(hooks.SEAT_CHANNELS, live.seat_channels)
        hooks.add(hooks.COMPETITION_PLACES, selectors.places_of)
        hooks.CLUB_DATA_LEFT_OUT.update(
            {
                "registration.registrationsettings": "the desk's: registration reopens on the "
                "new site",
                "registration.registration": "personal: registrants' addresses (the entries "
                "they became travel)",
                "registration.registrationlink": "secret: registration links carry tokens",
                "registration.checkinwindow": "transient: a check-in window of an evening",
                "registration.registrationrefusals": "transient: the throttled registrations "
                "of a desk's hour",
            }
        )
