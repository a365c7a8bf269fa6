from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        from scoring import signals  # noqa: F401  (connects the ratings to ``game_changed``)
        from scoring.api import authentication  # noqa: F401  (forgets cached API tokens)
