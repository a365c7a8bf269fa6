"""A knockout's bracket as its page shows it: rounds by name, matches with both sides (or who
they will be), the third-place match, the byes and the ranking so far; a double elimination's
winners' and losers' brackets and grand final as sections."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.labels import match_label
from scoring.rules import RULESETS, RuleViolation
from tournaments.labels import bracket_round_label
from tournaments.models import Competition, Entry, Round, RoundStatus
from tournaments.scheduling.double_elimination import (
    DOUBLE,
    GRAND_FINAL,
    LOSERS,
    RESET,
    WINNERS,
    bracket_ranking,
    reset_needed,
    section_rounds,
)
from tournaments.scheduling.knockout import ENTRANT, WINNER, occupant


def match_length(competition: Competition, number: int, *, third_place: bool = False) -> str:
    """How long a match of round ``number`` is, in the club room's words ("best of 3"): its
    stage's own length (``Competition.stage_length``), else the house rule's; empty for a game
    not played to a number of wins."""
    wins = competition.stage_length(number, third_place=third_place)
    if wins is None:
        ruleset = competition.rulesets[0]
        try:
            resolved = RULESETS[ruleset].resolve_options(
                competition.options.get(ruleset) or {}, competition.game_sizes(ruleset)[0]
            )
        except RuleViolation:
            return ""
        wins = resolved.get("hands_to_win")
    return match_label(wins) if wins else ""


class _Bracket:
    """A drawn bracket with the outcomes so far, the entries by id and their seeds: what every
    match of the bracket page is made from."""

    def __init__(
        self, drawn, entries: dict[int, Entry], rounds: list[Round], scores=None, lengths=None
    ):
        self.bracket, self.outcomes = drawn
        #: Each round's match length ("best of 3") by its index in the bracket.
        self.lengths = lengths or {}
        self.entries, self.rounds = entries, rounds
        self.scores = scores or {}
        self.seed_of = {entrant: i for i, entrant in enumerate(self.bracket.entrants, start=1)}

    def name(self, entrant: int) -> str:
        entry = self.entries.get(entrant)
        return entry.name if entry else "?"

    def side(self, slot, match_number: int) -> dict:
        """One side of a match: the entrant (name, seed, won or lost, entered here), or who it
        will be ("Winner of match 3")."""
        entrant = occupant(slot, self.outcomes)
        if entrant is None:
            pending = (
                _("Winner of match %(number)s")
                if slot.kind == WINNER
                else _("Loser of match %(number)s")
            )
            return {"name": pending % {"number": slot.ref}, "known": False}
        result = self.outcomes.get(match_number)
        return {
            "name": self.name(entrant),
            "seed": self.seed_of.get(entrant),
            "known": True,
            "won": result is not None and result[0] == entrant,
            "lost": result is not None and result[1] == entrant,
            "entered": slot.kind == ENTRANT,
        }

    def match(self, m, label=None) -> dict:
        """A match with both sides, and the round it is played in once that round is public."""
        home, away = self.side(m.home, m.number), self.side(m.away, m.number)
        score = self.scores.get(m.number)
        if score is not None:
            games = [
                score["games"].get(occupant(slot, self.outcomes) or 0) for slot in (m.home, m.away)
            ]
            if None not in games:
                score = {"text": f"{games[0]}–{games[1]}", "bella": score["bella"]}
            else:
                score = None
        rounds = self.rounds
        stage = rounds[m.round - 1] if m.round <= len(rounds) else None
        return {
            "number": m.number,
            "label": label,
            "home": home,
            "away": away,
            "sides": (home, away),
            "played": m.number in self.outcomes,
            "score": score,
            "round": stage if stage is not None and stage.status != RoundStatus.DRAFT else None,
        }

    def columns(self) -> list[dict]:
        """A single-elimination bracket's rounds, each by its name with its matches."""
        columns = []
        total = len(self.bracket.rounds)
        for index, matches in enumerate(self.bracket.rounds):
            round_ = self.rounds[index] if index < len(self.rounds) else None
            columns.append(
                {
                    "label": bracket_round_label(index, total),
                    "length": self.lengths.get(index, ""),
                    "round": round_,
                    "public": round_ is not None and round_.status != RoundStatus.DRAFT,
                    "matches": [self.match(m) for m in matches],
                }
            )
        return columns


def bracket_view(
    competition: Competition, drawn, rounds: list[Round], entries, scores=None
) -> dict:
    """The bracket page's columns: each round by its name, its matches with both sides (name,
    seed, who won), a side not known yet as "Winner of match 3"; the third-place match; the
    byes; and the ranking the bracket gives so far. ``drawn`` is ``selectors.bracket_of``,
    ``entries`` the competition's, ``scores`` each match's score in games
    (``selectors.match_scores``), shown as "2–1"."""
    rounds = [r for r in rounds if r.number >= (competition.knockout_from or 1)]
    start = competition.knockout_from or 1
    lengths = {
        index: match_length(competition, start + index) for index in range(len(drawn[0].rounds))
    }
    view = _Bracket(drawn, {e.pk: e for e in entries}, rounds, scores, lengths)
    bracket, outcomes, seed_of = view.bracket, view.outcomes, view.seed_of
    double = bracket.kind == DOUBLE
    sections = _double_sections(bracket, outcomes, view.match) if double else []
    columns = [] if sections else view.columns()
    third = None
    if bracket.third_place is not None:
        third = view.match(bracket.third_place, _("Third-place match"))
        last = start + len(bracket.rounds) - 1
        third["length"] = match_length(competition, last, third_place=True)
        columns[-1]["matches"].append(third)
    placings = [
        {
            "place": p.place,
            "decided": p.decided,
            "name": view.name(p.entrant),
            "seed": seed_of[p.entrant],
        }
        for p in bracket_ranking(bracket, outcomes)
    ]
    return {
        "double": double,
        "sections": sections,
        "columns": columns,
        "third": third,
        "byes": [{"name": view.name(e), "seed": seed_of[e]} for e in bracket.byes],
        "ranking": placings,
        "finished": all(p["decided"] for p in placings),
    }


def _double_sections(bracket, outcomes, match) -> list[dict]:
    """A double elimination's winners' bracket, losers' bracket and grand final, each as columns
    of matches by its own rounds ("Winners round 1" … "Losers final", "Grand final (reset)")."""
    totals = section_rounds(bracket)
    by_number = {m.number: m for stage in bracket.rounds for m in stage}

    def label(section: str, r: int) -> str:
        if section == WINNERS:
            return (
                _("Winners final") if r == totals[section] else _("Winners round %(n)s") % {"n": r}
            )
        if section == LOSERS:
            return _("Losers final") if r == totals[section] else _("Losers round %(n)s") % {"n": r}
        return _("Grand final") if section == GRAND_FINAL else _("Grand final (reset)")

    titles = {
        WINNERS: _("Winners' bracket"),
        LOSERS: _("Losers' bracket"),
        GRAND_FINAL: _("Grand final"),
    }
    not_needed = reset_needed(bracket, outcomes) is False
    sections: dict[str, dict] = {}
    for number, section, r in bracket.labels:
        key = RESET if section == RESET else section
        home = sections.setdefault(
            GRAND_FINAL if key == RESET else key,
            {"key": GRAND_FINAL if key == RESET else key, "columns": {}},
        )
        column = home["columns"].setdefault(
            (section, r), {"label": label(section, r), "matches": [], "not_needed": False}
        )
        if section == RESET and not_needed:
            column["not_needed"] = True  # shown as a note, without its two would-be sides
        else:
            column["matches"].append(match(by_number[number]))
    for key in (WINNERS, LOSERS):
        # Byes can leave a losers' round without a match: the rounds shown count from 1.
        columns = list(sections.get(key, {}).get("columns", {}).values())
        for position, column in enumerate(columns, start=1):
            column["label"] = label(key, totals[key] if position == len(columns) else position)
    return [
        {"key": key, "title": titles[key], "columns": list(sections[key]["columns"].values())}
        for key in (WINNERS, LOSERS, GRAND_FINAL)
        if key in sections
    ]
