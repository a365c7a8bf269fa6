from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # Imported here, once the models are loaded (AppConfig.ready), for what importing them
        # connects: the ratings to ``game_changed``, the forgetting of cached API tokens, the
        # end of a logout's or a revoked token's live streams.
        from scoring import tasks  # noqa: F401
        from scoring.api import authentication  # noqa: F401
        from scoring.live import endings  # noqa: F401
        from scoring.services import table_links

        table_links.check_budget()
