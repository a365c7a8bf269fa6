from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = _("Teams")

    def ready(self) -> None:
        # Imported here, once the models are loaded (AppConfig.ready): the team competitions
        # plug into the extension points of scoring and of the competitions, which never import
        # them.
        from scoring.extensions import DEMO_LOADERS, PLAYER_PAGE_SECTIONS
        from teams import (
            demo,
            messages,  # noqa: F401  (registers its sentences, once the apps are loaded)
        )
        from teams.calendar import team_match_entries
        from teams.sections import teams_button
        from teams.views import player_section
        from tournaments import extensions as hooks
        from tournaments.services.club_data import Table

        hooks.add(DEMO_LOADERS, demo.load)
        hooks.add(PLAYER_PAGE_SECTIONS, player_section)
        hooks.add(hooks.COMPETITION_BUTTONS, teams_button)
        hooks.add(hooks.CALENDAR_ENTRIES, team_match_entries)
        # Team-mates at mixed tables are kept apart by the competition's own draw.
        from teams.selectors import team_groups, team_mates

        hooks.add(hooks.DRAW_AVOIDANCES, team_mates)
        hooks.add(hooks.DRAW_GROUPS, team_groups)
        # Competitions between teams travel whole in a club's document, parents first. The
        # document names these tables as it did before they moved here (a club exported then
        # imports now, and the document still reads the same).
        for name, model, club_path in (
            ("teamrules", "teamrules", "competition__club"),
            ("team", "team", "competition__club"),
            ("rosterplayer", "rosterplayer", "team__competition__club"),
            ("teammatch", "teammatch", "competition__club"),
            ("board", "board", "match__competition__club"),
            ("lineupslot", "lineupslot", "match__competition__club"),
        ):
            table = Table(f"tournaments.{name}", club_path, f"teams.{model}")
            hooks.add(hooks.CLUB_DATA_TABLES, table)
