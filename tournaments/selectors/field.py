"""Who a round of a bracket can still seat: the check-in of a quarter-final lists the entries
still in the bracket, not every entrant of the competition."""

from __future__ import annotations

from typing import Any

from tournaments.models import Competition, EntryStatus, Format, Round
from tournaments.selectors.bracket import bracket_json, match_outcomes
from tournaments.selectors.standings import standings_of


def still_in_bracket(competition: Competition, round_: Round) -> set[int] | None:
    """A round of a bracket: the entries its matches can still seat (the winners so far, and
    both sides of a match not yet settled); before the bracket is drawn, a Swiss cut's top
    ``cut_to`` active entries. ``None`` for a round that is not part of a bracket, or a plain
    knockout not drawn yet (every active entry is in it)."""
    if not competition.bracket_round(round_.number):
        return None
    stored = bracket_json(competition)
    if not stored:
        if competition.format != Format.SWISS:
            return None
        active = set(
            competition.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True)
        )
        rows = standings_of(competition)["tables"][0]["rows"]
        ranked = [row["entry"] for row in rows if row["entry"] in active]
        return set(ranked[: competition.cut_to])
    numbers = list(
        competition.rounds.filter(number__gte=competition.knockout_from)
        .order_by("number")
        .values_list("number", flat=True)
    )
    index = numbers.index(round_.number)
    if index >= len(stored["rounds"]):
        return set()
    if index == 0:
        return set(stored["entrants"])
    outcome = match_outcomes(competition)
    matches = {m["number"]: m for r in stored["rounds"] for m in r}
    if stored.get("third_place"):
        matches[stored["third_place"]["number"]] = stored["third_place"]

    def candidates(slot: list[Any]) -> set[int]:
        kind, ref = slot
        if kind == "entrant":
            return {ref}
        if ref in outcome:
            return {outcome[ref][0] if kind == "winner" else outcome[ref][1]}
        match = matches[ref]
        return candidates(match["home"]) | candidates(match["away"])

    specs = list(stored["rounds"][index])
    if index == len(stored["rounds"]) - 1 and stored.get("third_place"):
        specs.append(stored["third_place"])
    return set().union(*(candidates(m["home"]) | candidates(m["away"]) for m in specs))
