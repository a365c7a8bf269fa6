"""Team events at mixed tables (``docs/team-standings.md``, "Teams at mixed tables"): for games
of three players or more, the competition is played as any other (rotation, Swiss or club
nights, its own rounds and tables), every member of a team being an entry of it; the draw keeps
team-mates apart where it can (``selectors.team_mates``, through the competitions'
``DRAW_AVOIDANCES``) and the team standings add up the members' results
(``standings.mixed``).

What these services check is what a mixed-tables event needs of its competition: a format that
seats individual players at tables of the game's size, and no table of two (a game of two is
played between teams as team matches, the palio).
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.models import Player
from scoring.services import Actor, violation
from tournaments.models import Competition, Entry, Format
from tournaments.services.entries import add_entry

#: The formats of a competition whose teams meet at mixed tables.
MIXED_FORMATS = (Format.ROTATION, Format.SWISS, Format.CLUB_NIGHT)


def check_mixed_tables(competition: Competition) -> None:
    """Refuse, naming the field, a competition whose teams cannot meet at mixed tables: a format
    that seats two sides (``format``), a table of two players for one of its games (``kind``)."""
    if competition.format not in MIXED_FORMATS:
        raise violation("format", "inconsistent", reason="mixed_tables_format")
    for ruleset in competition.rulesets:
        sizes, _ideal, _sitting_out = competition.table_policy(ruleset)
        if min(sizes) < 3:
            raise violation("kind", "inconsistent", reason="mixed_tables_need_three")


def enter_members(competition: Competition, players: Iterable[Player], by: Actor) -> None:
    """Under the competition's lock: enter every team member not entered yet, so that the
    competition's draw seats them (an entry of the player already there is kept)."""
    entered = set(Entry.objects.filter(competition=competition).values_list("player_id", flat=True))
    for player in players:
        if player.pk not in entered:
            add_entry(competition=competition, player=player, by=by)
