"""Competitions between teams: the team rules, the teams and their rosters, the matches (drawn
by the format), a side's lineup, the confirmation of a match's result and the team standings.

Anyone who may read the competition reads these; writes need an organizer, except a lineup,
which the team's captain may set too (the service decides: 403 otherwise)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS
from scoring.api.pagination import Pages, page_of_rows
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from scoring.services import NotAllowed, violation
from teams import presenters, selectors, services
from teams.api import team_outputs as out
from teams.head_to_head import team_head_to_head
from teams.mixed_presenters import mixed_standings_payload
from teams.models import ResultBy, Side, Team, TeamKind, TeamMatch, TeamRules
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    managed_competition,
    read_body,
    readable_competition,
)


def _rules_or_404(competition) -> TeamRules:
    rules = selectors.rules_of(competition)
    if rules is None:
        raise NotFound()
    return rules


def _team(competition, team_id: int) -> Team:
    team = (
        Team.objects.select_related("club", "competition__club", "captain")
        .prefetch_related("roster__player")
        .filter(competition=competition, pk=team_id)
        .first()
    )
    if team is None:
        raise NotFound()
    return team


def _match(competition, match_id: int) -> TeamMatch:
    match = (
        TeamMatch.objects.select_related(
            "home__captain", "away__captain", "venue", "competition__club"
        )
        .prefetch_related("boards__game", "boards__lineup__player")
        .filter(competition=competition, pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound()
    return match


def _may_set_a_lineup(request, match: TeamMatch) -> None:
    """A caller who may set neither side's lineup is refused before the body is read."""
    by = actor(request)
    for team in (match.home, match.away):
        try:
            services.authorize_lineup(by, team)
        except NotAllowed:
            continue
        return
    raise NotAllowed()


@extend_schema_field(
    {
        "type": "object",
        "description": 'By board number (`"1"`, `"2"`...): the side\'s players there.',
        "additionalProperties": {"type": "array", "items": {"type": "integer"}},
    }
)
class Lineup(inputs.Value):
    """A side's lineup, read by the service (``set_lineup``)."""


class TeamRulesView(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        kind = inputs.Choice(
            TeamKind.values,
            required=False,
            help_text="`matches`: team matches, board against board (the palio); "
            "`mixed_tables`: the members play at the competition's own tables, team-mates "
            "apart, their results added up (games of three players or more).",
        )
        boards = inputs.Integer(required=False, min_value=1, max_value=TeamRules.BOARDS_MAX)
        players_per_board = inputs.Integer(required=False, min_value=1, max_value=2)
        result_by = inputs.Choice(ResultBy.values, required=False)
        win_points = inputs.Integer(required=False, min_value=0, max_value=100)
        draw_points = inputs.Integer(required=False, min_value=0, max_value=100)
        loss_points = inputs.Integer(required=False, min_value=0, max_value=100)
        lineup_may_change = inputs.Boolean(required=False)
        lots_seed = inputs.Text(required=False, max_length=40, allow_blank=True)

    @extend_schema(
        summary="Team rules of a competition",
        responses={200: out.TeamRulesOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        return Response(presenters.rules_payload(_rules_or_404(competition)))

    @extend_schema(
        summary="Make a competition between teams, or change its team rules",
        description="Boards per match, players per side at a board (1, or 2: Briscola pairs), "
        "how a match's result is measured (`boards`, `games` or `card_points`), the match "
        "points of a win, a draw and a loss, whether the lineup may change between games of a "
        "match, and the seed of the drawing of lots. The competition's format must be "
        "`round_robin`, `swiss` or `knockout`; with `kind` `mixed_tables` (games of three "
        "players or more, tables of three or more) it is `rotation`, `swiss` or `club_night` "
        "and the boards are not used.",
        request=InputSerializer,
        responses={200: out.TeamRulesOutput, **WRITE_ERRORS},
        examples=[
            request_example("A palio", value={"boards": 3, "players_per_board": 2}),
            request_example("A Terziglio palio at mixed tables", value={"kind": "mixed_tables"}),
        ],
    )
    def put(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        current = selectors.rules_of(competition)
        given = (presenters.rules_payload(current) if current else {}) | body
        rules = services.set_team_rules(competition=competition, by=actor(request), **given)
        return Response(presenters.rules_payload(rules))


class Teams(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    class InputSerializer(inputs.StrictInput):
        name = inputs.Text(max_length=services.NAME_MAX)
        captain = inputs.Integer(required=False, allow_null=True, help_text="A player's id.")
        seed = inputs.Integer(required=False, allow_null=True, min_value=1, max_value=32_767)
        players = inputs.ListOf(
            child=inputs.Integer(), required=False, help_text="The roster: players' ids."
        )

    @extend_schema(
        summary="Teams of a competition", responses={200: out.TeamOutput(many=True), 404: ERRORS}
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        _rules_or_404(competition)
        return page_of_rows(
            request,
            selectors.teams_of(competition),
            key=lambda team: (team.seed is None, team.seed or 0, team.pk),
            serialize=lambda page: [presenters.team_payload(t) for t in page],
        )

    @extend_schema(
        summary="Add a team (with its roster)",
        description="A player on another team of the competition is refused (`players[i]`: "
        "`duplicate`), and nothing is stored.",
        request=InputSerializer,
        responses={201: out.TeamOutput, **WRITE_ERRORS},
        examples=[request_example("A district", value={"name": "Borgo", "players": [3, 4, 5, 6]})],
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        team = services.add_team(
            competition=competition,
            name=body["name"],
            captain=body.get("captain"),
            seed=body.get("seed"),
            players=body.get("players", []),
            by=actor(request),
        )
        return Response(
            presenters.team_payload(_team(competition, team.pk)), status=status.HTTP_201_CREATED
        )


class TeamRoster(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        player = inputs.Integer(help_text="A player's id.")

    @extend_schema(
        summary="Put a player on a team's roster",
        request=InputSerializer,
        responses={200: out.TeamOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, team_id: int):
        competition, _role = managed_competition(request, competition_id)
        team = _team(competition, team_id)
        body = read_body(self.InputSerializer, request)
        services.add_to_roster(team=team, player=body["player"], by=actor(request))
        return Response(presenters.team_payload(_team(competition, team_id)))

    @extend_schema(
        summary="Take a player off a team's roster",
        request=InputSerializer,
        responses={200: out.TeamOutput, **WRITE_ERRORS},
    )
    def delete(self, request, competition_id: int, team_id: int):
        competition, _role = managed_competition(request, competition_id)
        team = _team(competition, team_id)
        body = read_body(self.InputSerializer, request)
        services.remove_from_roster(team=team, player=body["player"], by=actor(request))
        return Response(presenters.team_payload(_team(competition, team_id)))


class TeamMatches(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]
    pagination_class = Pages

    @extend_schema(
        summary="Matches of a competition between teams",
        operation_id="v1_competitions_team_matches_list",
        responses={200: out.TeamMatchOutput(many=True), 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        rules = _rules_or_404(competition)
        return page_of_rows(
            request,
            selectors.matches_of(competition),
            key=lambda match: (match.round_number, match.number, match.pk),
            serialize=lambda page: [presenters.match_payload(m, rules) for m in page],
        )

    @extend_schema(
        summary="Draw the matches to come",
        description="A round robin draws its whole schedule (double: a return leg with home and "
        "away swapped); a Swiss or a knockout draws its next round once every match of the last "
        "one has its result. Each match gets its boards; a board's game is created once both "
        "lineups of it are set.",
        request=None,
        responses={201: out.TeamMatchOutput(many=True), **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        rules = _rules_or_404(competition)
        drawn = services.draw_team_round(competition=competition, by=actor(request))
        matches = [_match(competition, m.pk) for m in drawn]
        return Response(
            [presenters.match_payload(m, rules) for m in matches], status=status.HTTP_201_CREATED
        )


class TeamMatchDetail(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="A team match: lineups, boards and result",
        responses={200: out.TeamMatchOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int, match_id: int):
        competition, _role = readable_competition(request, competition_id)
        rules = _rules_or_404(competition)
        return Response(presenters.match_payload(_match(competition, match_id), rules))


class TeamMatchLineup(CompetitionView):
    parser_classes = [JSONParser]
    not_allowed_message = presenters.LINEUP_NOT_ALLOWED

    class InputSerializer(inputs.StrictInput):
        side = inputs.Choice(Side.values)
        lineup = Lineup(
            help_text='`{"<board>": [player ids]}`: every board, the players of that side.'
        )

    @extend_schema(
        summary="Set a side's lineup",
        description="An organizer or the team's captain. Refused by name, with nothing stored: a "
        "player off the roster (`lineup.<board>.<i>`), a player at two boards, a board whose "
        "game started, and any change once a game of the match started when the rules fix "
        "the lineup (`lineup`).",
        request=InputSerializer,
        responses={200: out.TeamMatchOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "Two boards", value={"side": "home", "lineup": {"1": [3, 4], "2": [5, 6]}}
            )
        ],
    )
    def put(self, request, competition_id: int, match_id: int):
        competition, _role = readable_competition(request, competition_id)
        rules = _rules_or_404(competition)
        match = _match(competition, match_id)
        _may_set_a_lineup(request, match)
        body = read_body(self.InputSerializer, request)
        services.set_lineup(
            match=match, side=body["side"], lineup=body["lineup"], by=actor(request)
        )
        return Response(presenters.match_payload(_match(competition, match_id), rules))


class TeamMatchConfirm(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        home_score = inputs.Integer(
            min_value=0,
            help_text="The home side's score as the confirmer reads it on the boards' score "
            "sheets; checked against the boards' result (`inconsistent` when it differs).",
        )
        away_score = inputs.Integer(
            min_value=0,
            help_text="The away side's score as the confirmer reads it on the boards' score "
            "sheets; checked against the boards' result (`inconsistent` when it differs).",
        )

    @extend_schema(
        summary="Confirm a match's result",
        description="The server derives the result from the boards' games (the match's "
        "`result`); `home_score` and `away_score` are the confirmer's own reading of the "
        "boards' score sheets, sent so that a confirmation is a second count, not a click. "
        "When the two agree the result is confirmed (`confirmed`: true) and no longer "
        "changes; when they differ it is refused, 400 naming `home_score` or `away_score` "
        "(`inconsistent`, the boards' figure in `expected_score`), nothing stored: look at "
        "the boards again. Every board must be finished (`match`: `not_allowed`).",
        request=InputSerializer,
        responses={200: out.TeamMatchOutput, **WRITE_ERRORS},
    )
    def post(self, request, competition_id: int, match_id: int):
        competition, _role = managed_competition(request, competition_id)
        rules = _rules_or_404(competition)
        match = _match(competition, match_id)
        body = read_body(self.InputSerializer, request)
        services.confirm_match_result(match=match, by=actor(request), **body)
        return Response(presenters.match_payload(_match(competition, match_id), rules))


class ScheduleInput(inputs.StrictInput):
    """When a round or a match is played: the host club's wall-clock date and start time."""

    date = inputs.Date(allow_null=True, help_text="`YYYY-MM-DD`; `null` takes the date away.")
    start_time = inputs.Time(
        required=False, allow_null=True, help_text="`HH:MM`; `null` or left out: not known yet."
    )


SCHEDULE_REFUSALS = (
    "Refused by name, with nothing stored: a date before the competition's first day or after "
    "its last (`date`: `range`), a time without a date (`start_time`)"
)


class TeamRoundSchedule(CompetitionView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Date a round of team matches",
        description="Every match of the round still to play gets the date and start time (the "
        "host club's wall-clock time; the calendar feed lists them); a played match (its "
        f"result confirmed) keeps its own. {SCHEDULE_REFUSALS}, a round with no match or "
        "whose every match was played (`round_number`).",
        request=ScheduleInput,
        responses={200: out.TeamMatchOutput(many=True), **WRITE_ERRORS},
        examples=[
            request_example("Giornata 3", value={"date": "2027-01-14", "start_time": "21:00"})
        ],
    )
    def put(self, request, competition_id: int, round_number: int):
        competition, _role = managed_competition(request, competition_id)
        rules = _rules_or_404(competition)
        body = read_body(ScheduleInput, request)
        dated = services.schedule_team_matches(
            competition=competition,
            by=actor(request),
            round_number=round_number,
            date=body["date"],
            start_time=body.get("start_time"),
        )
        matches = [_match(competition, m.pk) for m in dated]
        return Response([presenters.match_payload(m, rules) for m in matches])


class TeamMatchSchedule(CompetitionView):
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Date one team match",
        description="The match's date and start time (the host club's wall-clock time), e.g. "
        f"a match of the round played on another day. {SCHEDULE_REFUSALS}, a match already "
        "played (`match`).",
        request=ScheduleInput,
        responses={200: out.TeamMatchOutput, **WRITE_ERRORS},
        examples=[request_example("Put off", value={"date": "2027-01-16", "start_time": None})],
    )
    def put(self, request, competition_id: int, match_id: int):
        competition, _role = managed_competition(request, competition_id)
        rules = _rules_or_404(competition)
        match = _match(competition, match_id)
        body = read_body(ScheduleInput, request)
        services.schedule_team_matches(
            competition=competition,
            by=actor(request),
            round_number=None,
            match=match,
            date=body["date"],
            start_time=body.get("start_time"),
        )
        return Response(presenters.match_payload(_match(competition, match_id), rules))


class TeamStandings(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="Team standings, with each team's tie-break explained",
        description="Match points, then head to head, classifica avulsa (with its mini-tables), "
        "boards won, games won, card points difference and a seeded drawing of lots; for a "
        "round robin with matches left, each row's `outlook` says who can still win.",
        responses={200: out.TeamStandingsOutput, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        if selectors.mixed_team_standings(competition) is not None:
            raise violation("competition", "not_allowed", reason="mixed_tables_standings")
        data = selectors.team_standings(competition)
        if data is None:
            raise NotFound()
        return Response(presenters.standings_payload(data))


class TeamHeadToHead(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="Who beat whom between the teams of a palio",
        description="Every pair of teams that played a match, both ways round, each match "
        "with its score (the team's first, as the list of matches played gives it) and the "
        "games of its boards; the teams in standings order. 404 when the competition's teams "
        "play no team matches (at mixed tables: the competition's own head-to-head).",
        responses={200: out.TeamHeadToHeadOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        data = team_head_to_head(competition)
        if data is None:
            raise NotFound()
        return Response(data)


class MixedTeamStandings(CompetitionView):
    anyone_may = ("GET",)

    @extend_schema(
        summary="Standings of teams at mixed tables",
        description="Each team's total (its members' results added up, as the competition's "
        "own standings count them; `lowest_wins` for Turkish by game points), then the "
        "classifica avulsa of the duels at shared tables (with its mini-tables), the tables "
        "won and a seeded drawing of lots (docs/team-standings.md). 404 when the "
        "competition's teams do not meet at mixed tables.",
        responses={200: out.MixedTeamStandingsOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        data = selectors.mixed_team_standings(competition)
        if data is None:
            raise NotFound()
        return Response(mixed_standings_payload(data))
