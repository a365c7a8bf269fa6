from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        # Imported here, once the models are loaded (AppConfig.ready): the competitions plug
        # into scoring's extension points, so that scoring never imports them.
        from scoring.extensions import (
            CLUB_PAGE_SECTIONS,
            DEMO_LOADERS,
            GAME_AUDIENCES,
            GAME_CHECKS,
            GAME_PAGE_SECTIONS,
            UNFINISHING_GUARDS,
        )
        from scoring.signals import game_changed
        from tournaments import demo, messages, tasks  # noqa: F401  (messages: its sentences; tasks)
        from tournaments.selectors import public_games
        from tournaments.services import GAME_CONTEXT
        from tournaments.services.housekeeping import (
            check_competitions,
            keep_closed_rounds_finished,
        )
        from tournaments.signals import on_game_changed
        from tournaments.views import club_section
        from tournaments.views.calls import table_section

        game_changed.connect(on_game_changed, dispatch_uid="tournaments-standings")
        if club_section not in CLUB_PAGE_SECTIONS:
            CLUB_PAGE_SECTIONS.append(club_section)
        if table_section not in GAME_PAGE_SECTIONS:
            GAME_PAGE_SECTIONS.append(table_section)
        if demo.load not in DEMO_LOADERS:
            DEMO_LOADERS.append(demo.load)
        for hooks, hook in (
            (UNFINISHING_GUARDS, keep_closed_rounds_finished),
            (GAME_CHECKS, check_competitions),
        ):
            if hook not in hooks:
                hooks.append(hook)
        # Who may read a table's game follows its competition as it is now.
        GAME_AUDIENCES[GAME_CONTEXT] = public_games
