"""Competitions between teams: their rules, the teams and their rosters, the lineups of a match
and the confirmation of a match's result (``docs/team-standings.md``).

Every write locks the competition (``_common.lock``: teams, rosters and lineups are
competition-wide), then the games of the match it touches in id order (a lineup, a result's
confirmation: ``_lock_board_games``), decides on what it reads under the lock and records its
event. The result of a match is never entered: it is derived
from the boards' games (``selectors.teams.match_outcome``); ``confirm_match_result`` only
records an organizer's confirmation, and refuses one that disagrees with the boards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Club, Game, Player
from scoring.services import Actor, NotAllowed, violation
from teams import selectors as team_selectors
from teams.models import (
    Board,
    LineupSlot,
    ResultBy,
    RosterPlayer,
    Side,
    Team,
    TeamKind,
    TeamMatch,
    TeamRules,
)
from teams.services.mixed_tables import check_mixed_tables, enter_members
from teams.services.names import refuse_look_alike_team
from tournaments.models import Competition, Format
from tournaments.services._common import GAME_CONTEXT, lock, record_event, require_manager
from tournaments.services._tables import table_title

#: The formats a competition between teams may have.
TEAM_FORMATS = (Format.ROUND_ROBIN, Format.SWISS, Format.KNOCKOUT)
NAME_MAX = Team._meta.get_field("name").max_length


def _int(value: Any, field_: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise violation(field_, "type", expected="integer")
    if not lo <= value <= hi:
        raise violation(field_, "range", min=lo, max=hi, value=value)
    return value


def set_team_rules(
    *,
    competition: Competition,
    by: Actor,
    boards: int = 3,
    players_per_board: int = 2,
    result_by: str = ResultBy.BOARDS,
    win_points: int = 1,
    draw_points: int = 0,
    loss_points: int = 0,
    lineup_may_change: bool = False,
    lots_seed: str = "",
    kind: str = TeamKind.MATCHES,
) -> TeamRules:
    """Make ``competition`` a competition between teams, or change its team rules (how the
    teams meet, ``kind``: in team matches or at mixed tables; how many boards, players per side
    at a board, how a match is measured and what it is worth). Refused once a match is drawn
    for what the drawn boards depend on, and once a round is published for the kind."""
    require_manager(by, competition.club)
    if kind not in TeamKind.values:
        raise violation("kind", "choice", choices=TeamKind.values, value=kind)
    if kind == TeamKind.MIXED_TABLES:
        check_mixed_tables(competition)
        boards, players_per_board = 1, 1  # no boards: the competition's own tables
    boards = _int(boards, "boards", 1, TeamRules.BOARDS_MAX)
    players_per_board = _int(players_per_board, "players_per_board", 1, 2)
    if result_by not in ResultBy.values:
        raise violation("result_by", "choice", choices=ResultBy.values, value=result_by)
    win, draw, loss = (
        _int(value, name, 0, 100)
        for value, name in (
            (win_points, "win_points"),
            (draw_points, "draw_points"),
            (loss_points, "loss_points"),
        )
    )
    if not win >= draw >= loss:
        raise violation("draw_points", "inconsistent", reason="points_not_ordered")
    if not isinstance(lineup_may_change, bool):
        raise violation("lineup_may_change", "type", expected="boolean")
    if not isinstance(lots_seed, str) or len(lots_seed) > 40:
        raise violation("lots_seed", "too_long", max=40)
    if kind == TeamKind.MATCHES and competition.format not in TEAM_FORMATS:
        raise violation("format", "inconsistent", reason="team_format")
    if players_per_board == 2 and competition.rulesets != ["briscola"]:
        raise violation("players_per_board", "inconsistent", reason="pairs_need_briscola")
    with transaction.atomic():
        lock(competition)
        rules = TeamRules.objects.filter(competition=competition).first()
        if (
            rules is not None
            and competition.team_matches.exists()
            and (rules.boards, rules.players_per_board) != (boards, players_per_board)
        ):
            raise violation("boards", "not_allowed", reason="matches_drawn")
        if rules is not None and rules.kind != kind and _playing(competition):
            raise violation("kind", "not_allowed", reason="teams_playing")
        rules = rules or TeamRules(competition=competition)
        rules.kind = kind
        rules.boards, rules.players_per_board, rules.result_by = (
            boards,
            players_per_board,
            result_by,
        )
        rules.win_points, rules.draw_points, rules.loss_points = win, draw, loss
        rules.lineup_may_change, rules.lots_seed = lineup_may_change, lots_seed.strip()
        rules.save()
        record_event(
            competition,
            by,
            "set_team_rules",
            boards=boards,
            players_per_board=players_per_board,
            result_by=result_by,
            points=[win, draw, loss],
            lineup_may_change=lineup_may_change,
            lots_seed=rules.lots_seed,
            kind=kind,
        )
    return rules


def _playing(competition: Competition) -> bool:
    """Whether the teams have started meeting: a match drawn, or a round published."""
    return (
        competition.team_matches.exists()
        or competition.rounds.filter(published_at__isnull=False).exists()
    )


def _rules(competition: Competition) -> TeamRules:
    rules = TeamRules.objects.filter(competition=competition).first()
    if rules is None:
        raise violation("competition", "not_allowed", reason="not_teams")
    return rules


def _player(competition: Competition, value: Any, field_: str) -> Player:
    """A player of the host club (the one whose games are played): an id or a Player."""
    pk = value.pk if isinstance(value, Player) else value
    if not isinstance(pk, int) or isinstance(pk, bool):
        raise violation(field_, "type", expected="player")
    player = Player.objects.filter(club_id=competition.club_id, pk=pk).first()
    if player is None:
        raise violation(field_, "not_found", value=pk)
    return player


def add_team(
    *,
    competition: Competition,
    name: Any,
    by: Actor,
    club: Club | None = None,
    captain: Any = None,
    seed: int | None = None,
    players: Sequence[Any] = (),
) -> Team:
    """A team of ``club`` (the host club when None; a visiting club otherwise), named ``name``
        (unique in the competition, whatever the case), with its ``captain`` (a player of the host
        club, who may then set the team's lineups), its ``seed`` (knockout order) and its roster
    (``players``: a player on another team refuses the whole team, ``players.<i>``)."""
    require_manager(by, competition.club)
    if not isinstance(name, str) or not name.strip():
        raise violation("name", "required")
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise violation("name", "too_long", max=NAME_MAX)
    if seed is not None:
        seed = _int(seed, "seed", 1, 32_767)
    with transaction.atomic():
        lock(competition)
        rules = _rules(competition)
        chosen = _player(competition, captain, "captain") if captain is not None else None
        if Team.objects.filter(competition=competition, name__iexact=name).exists():
            raise violation("name", "duplicate", reason="team_name_taken", value=name)
        refuse_look_alike_team(competition, name)
        try:
            with transaction.atomic():
                team = Team.objects.create(
                    competition=competition,
                    name=name,
                    club=club or competition.club,
                    captain=chosen,
                    seed=seed,
                )
        except IntegrityError:
            raise violation("name", "duplicate", reason="team_name_taken", value=name) from None
        members = [
            _put_on_roster(competition, team, player, f"players.{i}")
            for i, player in enumerate(players)
        ]
        if rules.kind == TeamKind.MIXED_TABLES:
            enter_members(competition, members, by)
        roster = [p.pk for p in members]
        record_event(
            competition,
            by,
            "add_team",
            team=team.pk,
            name=name,
            club=team.club_id,
            roster=roster,
        )
    return team


def _put_on_roster(competition: Competition, team: Team, player: Any, field_: str) -> Player:
    """Under the competition's lock: ``player`` on ``team``'s roster, unless on a team of the
    competition already (this one or another: the database refuses it too)."""
    chosen = _player(competition, player, field_)
    other = (
        RosterPlayer.objects.filter(competition=competition, player=chosen)
        .select_related("team")
        .first()
    )
    if other is not None:
        raise violation(
            field_,
            "duplicate",
            reason="on_another_team",
            value=chosen.display_name,
            team=other.team.name,
        )
    try:
        with transaction.atomic():
            RosterPlayer.objects.create(team=team, competition=competition, player=chosen)
    except IntegrityError:
        raise violation(
            field_, "duplicate", reason="on_another_team", value=chosen.display_name, team=""
        ) from None
    return chosen


def add_to_roster(*, team: Team, player: Any, by: Actor) -> RosterPlayer:
    """Put ``player`` on ``team``'s roster; refused when the player is already on a team of
    the competition."""
    competition = team.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        chosen = _put_on_roster(competition, team, player, "player")
        if _rules(competition).kind == TeamKind.MIXED_TABLES:
            enter_members(competition, [chosen], by)
        record_event(
            competition,
            by,
            "add_to_roster",
            team=team.pk,
            player=chosen.pk,
            name=chosen.display_name,
        )
    return RosterPlayer.objects.get(team=team, player=chosen)


def remove_from_roster(*, team: Team, player: Any, by: Actor) -> None:
    """Take ``player`` off ``team``'s roster; refused while a lineup names them."""
    competition = team.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        chosen = _player(competition, player, "player")
        row = RosterPlayer.objects.filter(team=team, player=chosen).first()
        if row is None:
            raise violation("player", "not_found", value=chosen.pk)
        if LineupSlot.objects.filter(match__competition=competition, player=chosen).exists():
            raise violation("player", "not_allowed", reason="in_a_lineup")
        row.delete()
        record_event(competition, by, "remove_from_roster", team=team.pk, player=chosen.pk)


def authorize_lineup(by: Actor, team: Team) -> None:
    """Raise ``NotAllowed`` unless ``by`` organizes the competition's club or captains
    ``team`` (the API asks before it reads a lineup's body)."""
    captain = team.captain
    if by.user is not None and captain is not None and captain.user_id == by.user.pk:
        return
    try:
        require_manager(by, team.competition.club)
    except NotAllowed:
        raise NotAllowed("only an organizer or the team's captain sets its lineup") from None


def _read_lineup(
    lineup: Any, rules: TeamRules, roster: Mapping[int, Player]
) -> dict[int, list[Player]]:
    """``{board number: [player ids]}`` checked: every board, the right number of players,
    all on the roster, none at two boards."""
    if not isinstance(lineup, Mapping):
        raise violation("lineup", "type", expected="object")
    chosen: dict[int, list[Player]] = {}
    seen: dict[int, int] = {}
    for number in range(1, rules.boards + 1):
        given = lineup.get(number, lineup.get(str(number)))
        field_ = f"lineup.{number}"
        if not isinstance(given, list | tuple):
            raise violation(field_, "required")
        if len(given) != rules.players_per_board:
            raise violation(field_, "length", expected=rules.players_per_board, value=len(given))
        players = []
        for index, value in enumerate(given):
            where = f"{field_}.{index}"
            pk = value.pk if isinstance(value, Player) else value
            if not isinstance(pk, int) or isinstance(pk, bool):
                raise violation(where, "type", expected="player")
            if pk not in roster:
                raise violation(where, "not_allowed", reason="not_on_roster", value=pk)
            if pk in seen:
                raise violation(
                    where,
                    "duplicate",
                    reason="two_boards",
                    value=roster[pk].display_name,
                    board=seen[pk],
                )
            seen[pk] = number
            players.append(roster[pk])
        chosen[number] = players
    unknown = sorted(str(k) for k in lineup if str(k) not in {str(n) for n in chosen})
    if unknown:
        raise violation(f"lineup.{unknown[0]}", "not_found", value=unknown[0])
    return chosen


def _lock_board_games(boards: Sequence[Board]) -> dict[int, Game]:
    """Lock the games of ``boards`` (after the competition), in id order, for the rest of the
    transaction; return them by id as read under the lock."""
    return {
        g.pk: g
        for g in Game.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk__in=[b.game_id for b in boards if b.game_id])
        .order_by("pk")
    }


def set_lineup(*, match: TeamMatch, side: str, lineup: Any, by: Actor) -> list[LineupSlot]:
    """Set ``side``'s players at every board of ``match`` (``{board: [player ids]}``). Once
    both sides of a board are set, its game is created (or seated again when it changed).

    Refused, with nothing stored: a player not on the team's roster, a player at two boards, a
    board's game finished or started, and any change once a game of the match has started when
    the competition's rules fix the lineup for the whole match."""
    if side not in Side.values:
        raise violation("side", "choice", choices=Side.values, value=side)
    competition = match.competition
    team = match.home if side == Side.HOME else match.away
    authorize_lineup(by, team)
    with transaction.atomic():
        lock(competition)
        rules = _rules(competition)
        roster = {r.player_id: r.player for r in team.roster.select_related("player")}
        chosen = _read_lineup(lineup, rules, roster)
        boards = list(match.boards.order_by("number"))
        games = _lock_board_games(boards)
        current = team_selectors.lineup_of(match)
        started = [b for b in boards if b.game_id and games[b.game_id].hand_count > 0]
        changed = [
            b for b in boards if current.get((b.number, side)) != [p.pk for p in chosen[b.number]]
        ]
        if changed and started and not rules.lineup_may_change:
            raise violation("lineup", "not_allowed", reason="lineup_fixed")
        for board in changed:
            if board.game_id and games[board.game_id].hand_count > 0:
                raise violation(f"lineup.{board.number}", "not_allowed", reason="board_started")
        for board in changed:
            LineupSlot.objects.filter(board=board, side=side).delete()
        try:
            with transaction.atomic():
                LineupSlot.objects.bulk_create(
                    LineupSlot(board=board, match=match, side=side, position=i, player=player)
                    for board in changed
                    for i, player in enumerate(chosen[board.number])
                )
        except IntegrityError:
            raise violation(
                "lineup", "duplicate", reason="two_boards", value="", board=""
            ) from None
        for board in changed:
            _seat_board(competition, rules, match, board, by)
        record_event(
            competition,
            by,
            "set_lineup",
            match=match.pk,
            side=side,
            team=team.pk,
            lineup={str(n): [p.pk for p in players] for n, players in chosen.items()},
            changed=[b.number for b in changed],
        )
    return list(
        LineupSlot.objects.filter(match=match, side=side).order_by("board__number", "position")
    )


def _seat_board(
    competition: Competition, rules: TeamRules, match: TeamMatch, board: Board, by: Actor
) -> None:
    """Create the board's game once both sides are set (seats: home, away, home, away: the
    pairs sit crosswise), or seat its not yet started game again."""
    slots = {(s.side, s.position): s.player for s in board.lineup.select_related("player")}
    if len(slots) < 2 * rules.players_per_board:
        return
    players = [
        slots[(side, position)]
        for position in range(rules.players_per_board)
        for side in (Side.HOME, Side.AWAY)
    ]
    ruleset = competition.rulesets[0]
    options = dict(competition.options.get(ruleset) or {})
    if ruleset == "briscola":
        options["format"] = "pairs" if rules.players_per_board == 2 else "singles"
    # The lineup was authorized above (a captain may set it without being the club's scorer):
    # the board's game is started or seated again on trust, in the name of who set the lineup,
    # so that the game's audit trail says who.
    system = dataclasses.replace(by, trusted=True)
    if board.game_id is None:
        board.game = scoring.start_game(
            club=competition.club,
            ruleset=ruleset,
            players=players,
            options=options,
            title=table_title(competition.name, match.round_number, match.number)
            + f"/{board.number}",
            context=GAME_CONTEXT,
            first_dealer=0,
            hands_need_acceptance=competition.hands_must_be_accepted,
            by=system,
        )
        board.save(update_fields=["game"])
    else:
        scoring.reseat_game(
            game=board.game_id, players=players, options=options, by=system, reason="lineup"
        )


def confirm_match_result(
    *, match: TeamMatch, home_score: Any, away_score: Any, by: Actor
) -> TeamMatch:
    """Record the organizer's confirmation of ``match``'s result: it must be the result its
    boards give (measured as the competition says), every board finished."""
    competition = match.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        # Then the boards' games: a hand being corrected or removed holds its game's row, so the
        # confirmation waits for it and measures the boards as they are after it.
        _lock_board_games(list(match.boards.all()))
        rules = _rules(competition)
        outcome = team_selectors.match_outcome(match, rules)
        if outcome is None:
            raise violation("match", "not_allowed", reason="boards_unfinished")
        for value, field_, derived in (
            (home_score, "home_score", outcome.home_score),
            (away_score, "away_score", outcome.away_score),
        ):
            _int(value, field_, 0, 100_000)
            if value != derived:
                raise violation(
                    field_,
                    "inconsistent",
                    reason="contradicts_boards",
                    value=value,
                    expected_score=derived,
                )
        match.home_score, match.away_score = home_score, away_score
        match.confirmed_at = timezone.now()
        match.save(update_fields=["home_score", "away_score", "confirmed_at"])
        record_event(
            competition,
            by,
            "confirm_match",
            match=match.pk,
            home_score=home_score,
            away_score=away_score,
        )
    return match


def create_board_rows(match: TeamMatch, rules: TeamRules) -> None:
    """The boards of a newly drawn match (their games come with the lineups)."""
    Board.objects.bulk_create(Board(match=match, number=n) for n in range(1, rules.boards + 1))
