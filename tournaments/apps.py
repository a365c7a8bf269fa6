from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        from scoring.extensions import CLUB_PAGE_SECTIONS, DEMO_LOADERS
        from scoring.signals import game_changed
        from tournaments import demo
        from tournaments.views import club_section

        game_changed.connect(_on_game_changed, dispatch_uid="tournaments-standings")
        if club_section not in CLUB_PAGE_SECTIONS:
            CLUB_PAGE_SECTIONS.append(club_section)
        if demo.load not in DEMO_LOADERS:
            DEMO_LOADERS.append(demo.load)


def _on_game_changed(
    sender, game_id: int, context: str = "", finished: bool = True, **kwargs
) -> None:
    """A competition's game changed (after commit): its standings follow when the change
    touches a finished game (standings count nothing else). Other games and hands of games still
    in progress are skipped without a query; without a broker the task simply runs here."""
    from django.conf import settings

    from tournaments.services import GAME_CONTEXT
    from tournaments.tasks import recompute_standings_for_game

    if context != GAME_CONTEXT or not finished:
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        recompute_standings_for_game(game_id)
    else:
        recompute_standings_for_game.delay(game_id)
