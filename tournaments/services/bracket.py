"""Drawing the rounds of a bracket: a knockout, a double elimination, or the knockout of the top
of a Swiss (the cut). The bracket's first round draws the whole bracket by seed and keeps it on
that round; every later round seats the winners (and losers) of the matches before it, as the
bracket says. Called by the draw (``draw.generate_round``) under its lock."""

from __future__ import annotations

from typing import Any

from scoring.services import violation
from tournaments import scheduling, selectors
from tournaments.models import Competition, Format, Round, RoundStatus
from tournaments.scheduling.double_elimination import RESET, double_elimination, reset_needed
from tournaments.scheduling.knockout import Bracket
from tournaments.services._tables import metrics_dict, store_tables


def draw_bracket_round(
    competition: Competition, round_: Round, participants: list[int], seed: int
) -> None:
    """The bracket's first round draws it by seed (a Swiss cut: the top of the Swiss standings);
    later rounds seat the winners of the round before."""
    start = competition.knockout_from
    first = competition.rounds.filter(number__gte=start).order_by("number").first()
    if round_.pk == first.pk:
        swiss = None
        if competition.format == Format.SWISS:
            participants, swiss = _cut(competition, participants)
        if competition.format == Format.DOUBLE:
            if len(participants) < 2:
                raise violation("entries", "range", min=2, max=10_000, value=len(participants))
            bracket = double_elimination(participants, reset=competition.bracket_reset)
        else:
            if competition.third_place and len(participants) < 4:
                raise violation("entries", "range", min=4, max=10_000, value=len(participants))
            bracket = scheduling.knockout(participants, third_place=competition.third_place)
        round_.bracket = _bracket_dict(bracket)
        if swiss is not None:
            round_.bracket["swiss"] = swiss  # the Swiss standings at the cut, kept as they were
        round_.save(update_fields=["bracket"])
    else:
        round_.bracket = first.bracket
    bracket = first.bracket if round_.pk != first.pk else round_.bracket
    index = list(
        competition.rounds.filter(number__gte=start).order_by("number").values_list("pk", flat=True)
    ).index(round_.pk)
    if index >= len(bracket["rounds"]):
        raise violation("round", "not_allowed", reason="bracket_complete")
    outcome = selectors.match_outcomes(competition)
    tables, matches = [], []
    specs = list(bracket["rounds"][index])
    if index == len(bracket["rounds"]) - 1 and bracket.get("third_place"):
        specs.append(bracket["third_place"])
    reset = {n for n, section, _ in bracket.get("labels") or () if section == RESET}
    for match in specs:
        if match["number"] in reset:  # played only if the losers' champion won the final
            needed = reset_needed(Bracket.from_json(bracket), outcome)
            if needed is None:
                raise violation("round", "not_allowed", reason="previous_round_open")
            if not needed:
                raise violation("round", "not_allowed", reason="bracket_complete")
        home, away = _slot(match["home"], outcome), _slot(match["away"], outcome)
        if home is None or away is None:
            raise violation("round", "not_allowed", reason="previous_round_open")
        tables.append((home, away))
        matches.append(match["number"])
    # The seeds with a bye in the bracket sit out its first round.
    byes = list(bracket.get("byes") or ()) if index == 0 else []
    metrics = metrics_dict(
        scheduling.measure(
            [scheduling.Round(tuple(tables), tuple(byes))],
            [e for t in tables for e in t] + byes,
        )
    )
    store_tables(round_, tables, byes, metrics | {"matches": matches}, "knockout", seed)


def _cut(competition: Competition, participants: list[int]) -> tuple[list[int], list[list[int]]]:
    """The top ``cut_to`` active entries of the Swiss standings, best first (their seeds in the
    knockout), once every Swiss round is closed; and the Swiss standings at the cut, as
    ``[entry, rank]`` pairs (those below the cut keep that order in the final ranking)."""
    if (
        competition.rounds.filter(number__lt=competition.knockout_from)
        .exclude(status=RoundStatus.CLOSED)
        .exists()
    ):
        raise violation("round", "not_allowed", reason="previous_round_open")
    active = set(participants)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    ranked = [row["entry"] for row in rows if row["entry"] in active]
    if len(ranked) < competition.cut_to:
        raise violation("cut_to", "range", min=2, max=len(ranked), value=competition.cut_to)
    return ranked[: competition.cut_to], [[row["entry"], row["rank"]] for row in rows]


def _bracket_dict(bracket: scheduling.Bracket) -> dict[str, Any]:
    def match(m):
        return {
            "number": m.number,
            "home": [m.home.kind, m.home.ref],
            "away": [m.away.kind, m.away.ref],
        }

    return {
        "entrants": list(bracket.entrants),
        "rounds": [[match(m) for m in r] for r in bracket.rounds],
        "third_place": match(bracket.third_place) if bracket.third_place else None,
        "byes": list(bracket.byes),
        "kind": bracket.kind,
        "labels": [list(label) for label in bracket.labels],
    }


def _slot(slot: list, outcome: dict[int, tuple[int, int]]) -> int | None:
    kind, ref = slot
    if kind == "entrant":
        return ref
    result = outcome.get(ref)
    if result is None:
        return None
    return result[0] if kind == "winner" else result[1]
