"""The team competitions' answers, typed for the schema: the team rules, a team, a match with its
boards, the team standings (``presenters.teams``). The views answer the presenters' dicts; these
serializers only describe them."""

from __future__ import annotations

from rest_framework import serializers

from scoring.api.common import Output
from teams.models import ResultBy, Side, TeamKind
from tournaments.api.standings import OutlookOutput

SIDES = Side.values


def _winner(**kwargs) -> serializers.ChoiceField:
    return serializers.ChoiceField(SIDES, allow_null=True, **kwargs)


class TeamRulesOutput(Output):
    """How a competition between teams is played and counted."""

    kind = serializers.ChoiceField(TeamKind.values)
    boards = serializers.IntegerField()
    players_per_board = serializers.IntegerField()
    result_by = serializers.ChoiceField(ResultBy.values)
    win_points = serializers.IntegerField()
    draw_points = serializers.IntegerField()
    loss_points = serializers.IntegerField()
    lineup_may_change = serializers.BooleanField()
    lots_seed = serializers.CharField(allow_blank=True)


class NamedPlayer(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()


class TeamOutput(Output):
    """A team and its roster."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(help_text="The team's club's address.")
    captain = serializers.IntegerField(allow_null=True, help_text="The captain's player id.")
    seed = serializers.IntegerField(allow_null=True)
    roster = NamedPlayer(many=True)


class MatchTeam(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()


class BoardOutput(Output):
    """A board of a match: its lineups, its game, its figures once finished (else null)."""

    number = serializers.IntegerField()
    game = serializers.IntegerField(
        allow_null=True, help_text="The board's game id; null until both lineups are set."
    )
    home = NamedPlayer(many=True)
    away = NamedPlayer(many=True)
    finished = serializers.BooleanField()
    home_games = serializers.IntegerField(allow_null=True)
    away_games = serializers.IntegerField(allow_null=True)
    home_card_points = serializers.IntegerField(allow_null=True)
    away_card_points = serializers.IntegerField(allow_null=True)
    winner = _winner(help_text="Null while not finished, or for a drawn board.")


class MatchResultOutput(Output):
    home_score = serializers.IntegerField()
    away_score = serializers.IntegerField()
    winner = _winner(help_text="Null for a draw.")
    home_points = serializers.IntegerField(help_text="Match points.")
    away_points = serializers.IntegerField(help_text="Match points.")


class TeamMatchOutput(Output):
    """A match between two teams, with its boards."""

    id = serializers.IntegerField()
    round = serializers.IntegerField()
    number = serializers.IntegerField()
    leg = serializers.IntegerField()
    home = MatchTeam()
    away = MatchTeam()
    venue = serializers.CharField(help_text="The host club's name.")
    date = serializers.DateField(allow_null=True, help_text="The host club's date.")
    start_time = serializers.CharField(allow_null=True, help_text="HH:MM, the host club's time.")
    boards = BoardOutput(many=True)
    result = MatchResultOutput(
        allow_null=True, help_text="Null until every board's game is finished."
    )
    confirmed = serializers.BooleanField()


class TeamStandingsRow(Output):
    team = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared with another team.")
    match_points = serializers.IntegerField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    boards_won = serializers.IntegerField()
    boards_lost = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_lost = serializers.IntegerField()
    card_points_for = serializers.IntegerField()
    card_points_against = serializers.IntegerField()
    card_points_difference = serializers.IntegerField()
    decided_by = serializers.CharField(
        allow_null=True, help_text="The tie-break that placed the team; null: match points."
    )
    decided_by_label = serializers.CharField(allow_null=True)
    tie_break_values = serializers.DictField(
        child=serializers.IntegerField(), help_text="The team's figure for each tie-break."
    )
    explanation = serializers.CharField(help_text="Why the team stands there, in a sentence.")
    outlook = OutlookOutput(
        allow_null=True,
        help_text="Who can still win, for a round robin with matches left (docs/outlook.md); "
        "null once nothing is left to play or the results are declared final.",
    )


class TieBreakOutput(Output):
    key = serializers.CharField()
    label = serializers.CharField()
    help = serializers.CharField()


class MiniTableRow(Output):
    name = serializers.CharField()
    points = serializers.IntegerField()


class MiniTableOutput(Output):
    """A mini-table of the classifica avulsa: the matches among the tied teams only."""

    level = serializers.IntegerField()
    matches = serializers.IntegerField()
    rows = MiniTableRow(many=True)


class TeamStandingsOutput(Output):
    """The team standings, their tie-breaks and mini-tables."""

    rows = TeamStandingsRow(many=True)
    tie_breaks = TieBreakOutput(many=True)
    mini_tables = MiniTableOutput(many=True)
    seed = serializers.CharField(help_text="The seed of the drawing of lots.")


class MixedMember(Output):
    entry = serializers.IntegerField(help_text="The member's entry in the competition.")
    name = serializers.CharField()
    result = serializers.FloatField(help_text="The member's own result (the scheme's).")


class MixedTeamRow(Output):
    team = serializers.IntegerField()
    name = serializers.CharField()
    rank = serializers.IntegerField()
    shared = serializers.BooleanField(help_text="The rank is shared with another team.")
    total = serializers.FloatField(help_text="The members' results added up.")
    games = serializers.IntegerField(help_text="Games played by the team's members.")
    wins = serializers.IntegerField(help_text="Tables won by the team's members.")
    members = MixedMember(many=True)
    decided_by = serializers.ChoiceField(
        ("avulsa", "wins", "lots"),
        allow_null=True,
        help_text="The tie-break that placed the team; null: its total.",
    )
    decided_by_label = serializers.CharField(allow_null=True)
    tie_break_values = serializers.DictField(child=serializers.IntegerField())
    explanation = serializers.CharField(help_text="Why the team stands there, in a sentence.")
    level = serializers.BooleanField(help_text="Level on its total with another team.")


class MixedMiniTable(Output):
    """A mini-table of the classifica avulsa: the duels at the tables the tied teams shared."""

    level = serializers.IntegerField()
    duels = serializers.IntegerField()
    rows = MiniTableRow(many=True)


class MixedTeamStandingsOutput(Output):
    """The standings of teams at mixed tables."""

    lowest_wins = serializers.BooleanField(help_text="The lowest total ranks first.")
    rows = MixedTeamRow(many=True)
    any_level = serializers.BooleanField()
    tie_breaks = TieBreakOutput(many=True)
    mini_tables = MixedMiniTable(many=True)
    seed = serializers.CharField(help_text="The seed of the drawing of lots.")


class TeamMeetingOutput(Output):
    match = serializers.IntegerField(help_text="The team match.")
    round = serializers.IntegerField()
    score = serializers.IntegerField(help_text="The team's score (boards, games or points).")
    opponent_score = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["won", "lost", "drawn"])
    confirmed = serializers.BooleanField(help_text="Whether the result is confirmed.")
    games = serializers.ListField(
        child=serializers.IntegerField(), help_text="The games of its boards, board 1 first."
    )


class TeamPairOutput(Output):
    team = serializers.IntegerField()
    opponent = serializers.IntegerField()
    meetings = TeamMeetingOutput(many=True)


class TeamOrderOutput(Output):
    team = serializers.IntegerField()
    name = serializers.CharField()


class TeamHeadToHeadOutput(Output):
    teams = TeamOrderOutput(many=True, help_text="The teams in standings order.")
    pairs = TeamPairOutput(many=True, help_text="Every pair of teams that played, both ways round.")
