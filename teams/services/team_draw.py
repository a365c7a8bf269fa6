"""Drawing the matches of a competition between teams, with the pairing constructions of
``tournaments.scheduling``:

- round robin (``round_robin``, Berger tables): every round at once, single or double
  (``Competition.double_round``: the return leg swaps home and away, so each team hosts each
  other team once); the home team's club is the venue;
- Swiss (``swiss_round``): one round at a time, teams of similar match points against each
  other, no repeats while avoidable; a team left over has a bye;
- knockout (``knockout``): a seeded bracket (teams by seed, then by when they were added), one
  round at a time: each round takes the winners of the previous one.

Each drawn match gets its boards; each board's game is created once its two lineups are set
(``services.teams.set_lineup``). The draw locks the competition and decides on the matches as
read under the lock.
"""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from scoring.services import Actor, violation
from teams import selectors as team_selectors
from teams.models import Team, TeamKind, TeamMatch, TeamRules
from teams.services.teams import _rules, create_board_rows
from tournaments.models import Competition, Format
from tournaments.scheduling.knockout import knockout, occupant
from tournaments.scheduling.round_robin import round_robin
from tournaments.scheduling.swiss import swiss_round
from tournaments.services._common import lock, record_event, require_manager


def _create(
    competition: Competition,
    rules: TeamRules,
    round_number: int,
    pairs: list[tuple[Team, Team]],
    *,
    leg: int = 1,
    slots: list[int | None] | None = None,
) -> list[TeamMatch]:
    matches = []
    for number, (home, away) in enumerate(pairs, start=1):
        match = TeamMatch.objects.create(
            competition=competition,
            round_number=round_number,
            number=number,
            home=home,
            away=away,
            leg=leg,
            venue=home.club,
            bracket_slot=slots[number - 1] if slots else None,
        )
        create_board_rows(match, rules)
        matches.append(match)
    return matches


def _round_robin(competition: Competition, rules: TeamRules, teams: dict[int, Team]):
    if competition.team_matches.exists():
        raise violation("competition", "not_allowed", reason="schedule_drawn")
    schedule = round_robin(list(teams), double=competition.double_round)
    half = len(schedule.rounds) // 2 if competition.double_round else len(schedule.rounds)
    drawn = []
    for index, round_ in enumerate(schedule.rounds, start=1):
        pairs = [(teams[a], teams[b]) for a, b in round_.tables]
        drawn += _create(competition, rules, index, pairs, leg=1 if index <= half else 2)
    return drawn


def _next_round(competition: Competition) -> int:
    """The next round's number; refused while a match of the last round has no result."""
    matches = list(competition.team_matches.filter(round_number=_last(competition)))
    if any(team_selectors.match_outcome(m, _rules(competition)) is None for m in matches):
        raise violation("competition", "not_allowed", reason="team_round_unfinished")
    return _last(competition) + 1


def _last(competition: Competition) -> int:
    numbers = competition.team_matches.values_list("round_number", flat=True)
    return max(numbers, default=0)


def _swiss(competition: Competition, rules: TeamRules, teams: dict[int, Team]):
    number = _next_round(competition)
    if competition.planned_rounds and number > competition.planned_rounds:
        raise violation("competition", "not_allowed", reason="all_rounds_drawn")
    standings = team_selectors.team_standings(competition)["standings"]
    met = Counter(
        (m.home_id, m.away_id) for m in competition.team_matches.only("home_id", "away_id")
    )
    played = Counter(t for pair in met.elements() for t in pair)
    byes = {t: number - 1 - played[t] for t in teams if number - 1 > played[t]}
    drawn = swiss_round(
        [(row.team, row.match_points) for row in standings.rows],
        sizes=(2,),
        ideal=2,
        history=met,
        seed=competition.pk * 1000 + number,
        byes=byes,
    )
    pairs = [(teams[a], teams[b]) for a, b in drawn.tables]
    return _create(competition, rules, number, pairs)


def _knockout(competition: Competition, rules: TeamRules, teams: dict[int, Team]):
    bracket = knockout(list(teams), third_place=competition.third_place)
    number = _next_round(competition)
    if number > len(bracket.rounds):
        raise violation("competition", "not_allowed", reason="bracket_complete")
    outcomes: dict[int, tuple[int, int]] = {}
    for match in competition.team_matches.exclude(bracket_slot=None):
        outcome = team_selectors.match_outcome(match, rules)
        if outcome is None:
            continue
        if outcome.winner is None:
            raise violation("competition", "not_allowed", reason="knockout_drawn_match")
        home_won = outcome.winner == "home"
        outcomes[match.bracket_slot] = (
            (match.home_id, match.away_id) if home_won else (match.away_id, match.home_id)
        )
    planned = list(bracket.rounds[number - 1])
    if number == len(bracket.rounds) and bracket.third_place is not None:
        planned.append(bracket.third_place)
    pairs, slots = [], []
    for planned_match in planned:
        home = occupant(planned_match.home, outcomes)
        away = occupant(planned_match.away, outcomes)
        pairs.append((teams[home], teams[away]))  # type: ignore[index]
        slots.append(planned_match.number)
    return _create(competition, rules, number, pairs, slots=slots)


def draw_team_round(*, competition: Competition, by: Actor) -> list[TeamMatch]:
    """Draw the matches to come: a round robin's whole schedule, or a Swiss or knockout's next
    round. Refused with fewer than two teams, while the last round is unfinished, or when
    nothing is left to draw."""
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        rules = _rules(competition)
        if rules.kind == TeamKind.MIXED_TABLES:
            raise violation("competition", "not_allowed", reason="mixed_tables_draw")
        teams = {t.pk: t for t in competition.teams.select_related("club")}
        if len(teams) < 2:
            raise violation("teams", "range", min=2, value=len(teams))
        draw = {
            Format.ROUND_ROBIN: _round_robin,
            Format.SWISS: _swiss,
            Format.KNOCKOUT: _knockout,
        }.get(competition.format)
        if draw is None:
            raise violation("format", "inconsistent", reason="team_format")
        drawn = draw(competition, rules, teams)
        record_event(
            competition,
            by,
            "draw_team_round",
            rounds=sorted({m.round_number for m in drawn}),
            matches=[m.pk for m in drawn],
        )
    return drawn
