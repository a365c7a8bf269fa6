"""Competitions between teams (``docs/team-standings.md``): the team rules of a competition,
its teams and their rosters, the team matches, their boards and the lineups at each board.

A competition is between teams when it has ``TeamRules``. A team belongs to a club (the host's
own or a visiting one) and has a roster of players; the players are recorded in the host club
(the one whose games are played), as for any entry. Each match is played at ``boards`` boards;
each board is one game of the scoring app (``Board.game``), created once both sides' lineups for
that board are complete, and entered from the phones as any other game. The match's result is
always derived from its boards' games (``tournaments.standings.teams.match_outcome``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, Game, Player
from scoring.validators import plain_text
from tournaments.models.competitions import Competition


class ResultBy(models.TextChoices):
    BOARDS = "boards", _("boards won")
    GAMES = "games", _("games won")
    CARD_POINTS = "card_points", _("card points")


class TeamKind(models.TextChoices):
    """How the teams meet: in team matches (a board against a board, the Briscola palio), or
    with their members seated at mixed tables of the game's size, their results added up."""

    MATCHES = "matches", _("team matches (board against board)")
    MIXED_TABLES = "mixed_tables", _("mixed tables (members' results added up)")


class Side(models.TextChoices):
    HOME = "home", _("home")
    AWAY = "away", _("away")


class TeamRules(models.Model):
    """How a competition between teams is played and scored."""

    BOARDS_MAX = 8

    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="team_rules"
    )
    kind = models.CharField(
        _("how the teams meet"), max_length=12, choices=TeamKind.choices, default=TeamKind.MATCHES
    )
    boards = models.PositiveSmallIntegerField(_("boards per match"), default=3)
    #: Players of each side at a board: 1 (a player against a player) or 2 (a pair against a
    #: pair, Briscola pairs).
    players_per_board = models.PositiveSmallIntegerField(
        _("players per side at a board"), default=2
    )
    result_by = models.CharField(
        _("match result by"), max_length=12, choices=ResultBy.choices, default=ResultBy.BOARDS
    )
    win_points = models.PositiveSmallIntegerField(_("points for a won match"), default=1)
    draw_points = models.PositiveSmallIntegerField(_("points for a drawn match"), default=0)
    loss_points = models.PositiveSmallIntegerField(_("points for a lost match"), default=0)
    lineup_may_change = models.BooleanField(
        _("the lineup may change between games of a match"), default=False
    )
    #: The seed of the drawing of lots, the standings' last tie-break (shown with it).
    lots_seed = models.CharField(_("seed of the drawing of lots"), max_length=40, blank=True)

    class Meta:
        db_table = "tournaments_teamrules"  # the table kept when the model moved here
        verbose_name = _("team rules")
        verbose_name_plural = _("team rules")
        constraints = [
            models.CheckConstraint(
                condition=Q(boards__gte=1, boards__lte=8), name="team_rules_boards_range"
            ),
            models.CheckConstraint(
                condition=Q(players_per_board__in=(1, 2)), name="team_rules_players_per_board"
            ),
            models.CheckConstraint(
                condition=Q(result_by__in=ResultBy.values), name="team_rules_result_by_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=TeamKind.values), name="team_rules_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(win_points__gte=F("draw_points"), draw_points__gte=F("loss_points")),
                name="team_rules_points_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition} · teams"


class Team(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80, validators=[plain_text])
    #: The club the team comes from: the host club or a visiting one.
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="teams")
    captain = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "tournaments_team"  # the table kept when the model moved here
        ordering = ["competition", F("seed").asc(nulls_last=True), "id"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(
                "competition", models.functions.Lower("name"), name="team_name_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RosterPlayer(models.Model):
    """A player on a team's roster. The competition is repeated here so that the database
    itself refuses a player on two teams of one competition."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster")
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="rosters")

    class Meta:
        db_table = "tournaments_rosterplayer"  # the table kept when the model moved here
        ordering = ["team", "player__display_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "player"], name="roster_player_one_team_per_competition"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team})"


class TeamMatch(models.Model):
    """A match between two teams, in round ``round_number``; ``leg`` 2 is the return match of a
    double round robin (the home and away teams swapped)."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="team_matches"
    )
    round_number = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    home = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="away_matches")
    leg = models.PositiveSmallIntegerField(default=1)
    #: Where it is played: the home team's club.
    venue = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="+")
    #: When it is played, in the host club's wall-clock time (as a round's date and start
    #: time); set by ``services.team_schedule``, None until an organizer dates it.
    date = models.DateField(_("date"), null=True, blank=True)
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    #: Knockout: the slot of the bracket this match fills (None elsewhere).
    bracket_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The result an organizer confirmed (always equal to the one derived from the boards).
    home_score = models.PositiveIntegerField(null=True, blank=True)
    away_score = models.PositiveIntegerField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_teammatch"  # the table kept when the model moved here
        ordering = ["competition", "round_number", "number"]
        verbose_name = _("team match")
        verbose_name_plural = _("team matches")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round_number", "number"], name="team_match_number_unique"
            ),
            models.CheckConstraint(condition=~Q(home=F("away")), name="team_match_two_teams"),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="team_match_round"),
        ]

    def __str__(self) -> str:
        return f"{self.home} – {self.away}"


class Board(models.Model):
    """One table of a team match: a game of the scoring app once both lineups are set."""

    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="team_board"
    )

    class Meta:
        db_table = "tournaments_board"  # the table kept when the model moved here
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="board_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · board {self.number}"


class LineupSlot(models.Model):
    """A player of one side at one board. The match is repeated here so that the database
    itself refuses a player at two boards of one match."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="lineup")
    match = models.ForeignKey(TeamMatch, on_delete=models.CASCADE, related_name="+")
    side = models.CharField(max_length=4, choices=Side.choices)
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="lineup_slots")

    class Meta:
        db_table = "tournaments_lineupslot"  # the table kept when the model moved here
        ordering = ["board", "side", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["board", "side", "position"], name="lineup_slot_unique"
            ),
            models.UniqueConstraint(
                fields=["match", "player"], name="lineup_player_one_board_per_match"
            ),
            models.CheckConstraint(condition=Q(side__in=Side.values), name="lineup_side_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.board} {self.side} {self.position}: {self.player}"
