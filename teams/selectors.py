"""Reads of competitions between teams: the teams and their rosters, a match's lineups and
boards, the result a match's boards give, the team standings and a player's boards.

The result of a match is derived, never stored: each board's game gives the games (Briscola's
*partite*: the game's totals, hands won) and card points of each side; the pure
``tournaments.standings.teams`` turns the boards into the match's result and the standings.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import time
from itertools import combinations
from typing import Any

from scoring.models import GameStatus
from scoring.rules import RULESETS
from teams.models import Board, LineupSlot, RosterPlayer, Side, Team, TeamKind, TeamMatch, TeamRules
from teams.standings import mixed
from teams.standings import teams as pure
from teams.standings.team_outlook import team_outlook
from tournaments import standings as individual_standings
from tournaments.models import Competition, Entry, Format
from tournaments.selectors import standings as tournament_standings


def rules_of(competition: Competition) -> TeamRules | None:
    """The competition's team rules, None when it is not between teams (1 query)."""
    return TeamRules.objects.filter(competition=competition).first()


def points_of(rules: TeamRules) -> pure.MatchPoints:
    return pure.MatchPoints(rules.win_points, rules.draw_points, rules.loss_points)


def teams_of(competition: Competition) -> list[Team]:
    """The teams, their club, captain and roster loaded (2 queries)."""
    return list(
        competition.teams.select_related("club", "captain").prefetch_related("roster__player")
    )


def lineup_of(match: TeamMatch) -> dict[tuple[int, str], list[int]]:
    """``{(board number, side): [player ids in seat order]}`` (1 query)."""
    lineup: dict[tuple[int, str], list[int]] = defaultdict(list)
    for board, side, player in (
        LineupSlot.objects.filter(match=match)
        .order_by("board__number", "side", "position")
        .values_list("board__number", "side", "player_id")
    ):
        lineup[(board, side)].append(player)
    return dict(lineup)


def board_score(board: Board) -> pure.BoardScore | None:
    """The board's figures once its game is finished, else None. Seats alternate home, away
    (pairs crosswise): the home side is side 0."""
    game = board.game
    if game is None or game.status != GameStatus.FINISHED:
        return None
    totals = game.totals
    cards = game.card_points or (0, 0)
    return pure.BoardScore(totals[0], totals[1], cards[0], cards[1])


def match_record(match: TeamMatch, boards: list[Board]) -> pure.MatchRecord | None:
    scores = [board_score(b) for b in boards]
    if not scores or any(s is None for s in scores):
        return None
    return pure.MatchRecord(match.pk, match.home_id, match.away_id, tuple(scores))  # type: ignore[arg-type]


def match_outcome(match: TeamMatch, rules: TeamRules) -> pure.MatchOutcome | None:
    """The match's result from its boards, None until every board's game is finished (1
    query)."""
    record = match_record(match, list(match.boards.select_related("game").order_by("number")))
    if record is None:
        return None
    return pure.match_outcome(record, result_by=rules.result_by, points=points_of(rules))


def matches_of(competition: Competition) -> list[TeamMatch]:
    """Every match, its teams, boards, games and lineups loaded (3 queries)."""
    return list(
        competition.team_matches.select_related("home", "away", "venue")
        .prefetch_related("boards__game", "boards__lineup__player")
        .order_by("round_number", "number")
    )


def _listed(competition: Competition) -> list[tuple[TeamMatch, bool]]:
    """Every match with whether it is played: its result confirmed, or every board's game
    finished (2 queries)."""
    matches = (
        competition.team_matches.select_related("home", "away", "venue")
        .prefetch_related("boards__game")
        .order_by("round_number", "number")
    )
    return [
        (m, m.confirmed_at is not None or match_record(m, list(m.boards.all())) is not None)
        for m in matches
    ]


def matches_to_come(competition: Competition) -> list[TeamMatch]:
    """The matches not played yet (``_listed``), teams and venue loaded, the dated ones first
    in date and time order, then the others in round order (2 queries)."""
    return sorted((m for m, played in _listed(competition) if not played), key=_when_key)


def matches_played(competition: Competition) -> list[TeamMatch]:
    """The matches played (``_listed``), confirmed or not, in round order (2 queries)."""
    return [m for m, played in _listed(competition) if played]


def _when_key(match: TeamMatch) -> tuple:
    if match.date is None:
        return (1, match.round_number, match.number)
    return (0, match.date, match.start_time or time.max, match.round_number, match.number)


def played_records(matches: list[TeamMatch]) -> tuple[list, list[tuple[int, int]]]:
    """The record of every match played (``pure.MatchRecord``), and the (home, away) teams of
    every match left."""
    records, left = [], []
    for match in matches:
        record = match_record(match, sorted(match.boards.all(), key=lambda b: b.number))
        if record is None:
            left.append((match.home_id, match.away_id))
        else:
            records.append(record)
    return records, left


def compute_standings(competition: Competition, rules: TeamRules, teams: dict, records: list):
    """``pure.compute`` of ``records`` with the competition's rules (``pure.Standings``)."""
    return pure.compute(
        records,
        teams=teams,
        result_by=rules.result_by,
        points=points_of(rules),
        # What survives a club's export and import: the order the teams were added in, and
        # the competition's creation time (its id changes).
        seed=rules.lots_seed or competition.created_at.isoformat(),
        tickets={pk: number for number, pk in enumerate(sorted(teams), start=1)},
    )


def team_standings(competition: Competition) -> dict[str, Any] | None:
    """The team standings as plain values, with each row's team name and the mini-tables of
    the classifica avulsa; None when the competition is not between teams (5 queries)."""
    rules = rules_of(competition)
    if rules is None:
        return None
    teams = {t.pk: t for t in competition.teams.all()}
    records, left = played_records(matches_of(competition))
    standings = compute_standings(competition, rules, teams, records)
    name = {pk: t.name for pk, t in teams.items()}
    return {
        "rules": rules,
        "standings": standings,
        "rows": [{"row": row, "name": name[row.team]} for row in standings.rows],
        "mini_tables": [
            {
                "level": m.level,
                "matches": m.matches,
                "points": [(name[t], p) for t, p in m.points],
            }
            for m in standings.mini_tables
        ],
        "seed": standings.seed,
        "outlook": _outlook(competition, rules, standings, left),
    }


def _outlook(competition: Competition, rules: TeamRules, standings, left) -> dict[int, dict]:
    """Who can still win (issue 25, point 5), for a round robin, every match of which is drawn
    from the start, with matches left and its results not declared final: team -> its outlook
    (``Outlook.as_json``); empty otherwise."""
    if competition.format != Format.ROUND_ROBIN or competition.finalized_at or not left:
        return {}
    points = points_of(rules)
    found = team_outlook(
        {row.team: row.match_points for row in standings.rows},
        left,
        win=points.win,
        draw=points.draw,
        loss=points.loss,
    )
    return {team: o.as_json() for team, o in found.items()}


def player_boards(player_id: int) -> list[dict[str, Any]]:
    """A player's boards in team competitions: per competition, boards played and won (2
    queries)."""
    slots = (
        LineupSlot.objects.filter(player_id=player_id)
        .select_related("board__game", "match__competition", "match__home", "match__away")
        .order_by("match__competition_id", "match__round_number")
    )
    per: dict[int, dict[str, Any]] = {}
    for slot in slots:
        competition = slot.match.competition
        row = per.setdefault(
            competition.pk,
            {"competition": competition, "team": None, "played": 0, "won": 0},
        )
        row["team"] = slot.match.home if slot.side == Side.HOME else slot.match.away
        score = board_score(slot.board)
        if score is None:
            continue
        row["played"] += 1
        row["won"] += score.winner == slot.side
    return list(per.values())


#: Team-mates at one table count, for the draw, as this many earlier meetings: more than any
#: repeat a rotation of a club's evening would make, so a draw seats team-mates together only
#: where the tables leave it no other way.
TEAM_MATE_WEIGHT = 10


def team_mates(competition: Competition) -> dict[tuple[int, int], int]:
    """The draw's ``DRAW_AVOIDANCES`` hook: every two entries of members of one team, for a
    competition whose teams meet at mixed tables; empty otherwise (2 queries)."""
    rules = rules_of(competition)
    if rules is None or rules.kind != TeamKind.MIXED_TABLES:
        return {}
    pairs: dict[tuple[int, int], int] = {}
    for entries in member_entries(competition).values():
        for a, b in combinations(sorted(entries), 2):
            pairs[(a, b)] = TEAM_MATE_WEIGHT
    return pairs


def team_groups(competition: Competition) -> list[tuple[str, list[int]]]:
    """The draw's ``DRAW_GROUPS`` hook: each team by name with its members' entries, for a
    competition whose teams meet at mixed tables; empty otherwise."""
    rules = rules_of(competition)
    if rules is None or rules.kind != TeamKind.MIXED_TABLES:
        return []
    names = dict(competition.teams.values_list("pk", "name"))
    return [(names[team], entries) for team, entries in member_entries(competition).items()]


def member_entries(competition: Competition) -> dict[int, list[int]]:
    """Each team's members as entries of the competition (members not entered are left out)."""
    entry_of = dict(Entry.objects.filter(competition=competition).values_list("player_id", "pk"))
    members: dict[int, list[int]] = {t: [] for t in competition.teams.values_list("pk", flat=True)}
    for team, player in RosterPlayer.objects.filter(competition=competition).values_list(
        "team_id", "player_id"
    ):
        if player in entry_of:
            members[team].append(entry_of[player])
    return members


def mixed_team_standings(competition: Competition) -> dict[str, Any] | None:
    """The standings of teams at mixed tables (``standings.mixed``) as plain values: each
    team's total from its members' own standings (the competition's scheme, adjustments
    included), the mini-tables of the classifica avulsa, each member's name and result; None
    when the competition's teams do not meet at mixed tables."""
    rules = rules_of(competition)
    if rules is None or rules.kind != TeamKind.MIXED_TABLES:
        return None
    results = tournament_standings.results_of(competition)
    placement = {int(k): tuple(v) for k, v in (competition.placement_points or {}).items()}
    individual = individual_standings.compute(
        results,
        scheme=competition.scheme,
        tie_breaks=(),
        placement_points=placement or None,
        best_of=competition.best_of,
        min_groups=competition.min_rounds,
        adjustments=tournament_standings.adjustments_of(competition),
    )
    lowest = competition.scheme == "game_score" and any(
        RULESETS[key].lowest_wins for key in competition.rulesets
    )
    # Game points where the lowest wins are negated in the competition's standings (the higher
    # always ranks first there): a team's total shows them as played, the lowest first.
    scores = {row.entrant: -row.points if lowest else row.points for row in individual.rows}
    teams = {t.pk: t for t in competition.teams.all()}
    members = member_entries(competition)
    standings = mixed.compute(
        members,
        scores,
        [mixed.Seat(r.game, r.entrant, r.place) for r in results],
        lowest_wins=lowest,
        seed=rules.lots_seed or competition.created_at.isoformat(),
        tickets={pk: number for number, pk in enumerate(sorted(teams), start=1)},
    )
    entry_names = {
        e.pk: e.name
        for e in Entry.objects.filter(competition=competition).select_related("player", "partner")
    }
    team_name = {pk: t.name for pk, t in teams.items()}
    return {
        "rules": rules,
        "standings": standings,
        "team_name": team_name,
        "entry_name": entry_names,
        "seed": standings.seed,
    }
