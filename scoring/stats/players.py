"""A player's statistics over plain records (:class:`scoring.stats.ratings.PlayedGame`): no Django.

Everything is counted from what the rules engine stored — hand documents, deltas, card points,
the final ranking — and never re-derives a rule:

* **results**: each game with the player's place (``Ruleset.ranking``); a game is *won* when the
  player's place is 1 (a shared first place counts as won);
* **streaks**: over games in the order they finished — the current run of won or not-won games,
  the longest run of wins and the longest run without a win;
* **activity**: games per month (the caller gives the months in the club's time zone);
* **head to head**: over the rated matches of :func:`scoring.stats.ratings.matches_of` (one per game,
  one per played hand in chiamata). An opponent is anyone in another team: the player *beat*
  him when his team's rank was better, *lost* when worse. A partner is anyone in the same team:
  the pair *won* when its team ranked strictly first alone. Best partners: most wins together,
  then fewest matches; toughest opponents: most losses against, then the fewest wins;
* **per game**, by ruleset:

  - Terziglio and Calabrasella (soloist games): hands bid as soloist and made, per contract
    (made: the hand paid the soloist), and sweeps — hands where the player's side took every
    trick (as soloist ``sweep: soloist``, as an opponent holding cards ``sweep: opponents``);
  - Briscola: hands won (the player's total: a seat scores 1 per hand its side won), matches
    won (place 1), average card points of the player's side per hand;
  - Turkish: average penalty per deal, times out first (``went_out``);
  - Briscola chiamata: calls (hands as caller), with a partner and alone, and how many of each
    succeeded (the hand paid the caller).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.stats.ratings import PlayedGame, hand_sides, matches_of, order


@dataclass(frozen=True)
class GameResult:
    game: int
    ruleset: str
    place: int
    n: int
    total: int

    @property
    def won(self) -> bool:
        return self.place == 1


def results(player: int, games: Iterable[PlayedGame]) -> list[GameResult]:
    """The player's result in each game, in the order the games finished."""
    rows = []
    for game in order(games):
        seat = game.seat_of(player)
        rows.append(
            GameResult(game.id, game.ruleset, game.places()[seat], game.n, game.totals[seat])
        )
    return rows


@dataclass(frozen=True)
class Streaks:
    current_won: bool | None
    current: int
    longest_won: int
    longest_without_win: int


def streaks(rows: Sequence[GameResult]) -> Streaks:
    longest = {True: 0, False: 0}
    run, kind = 0, None
    for row in rows:
        run = run + 1 if row.won == kind else 1
        kind = row.won
        longest[kind] = max(longest[kind], run)
    return Streaks(kind, run, longest[True], longest[False])


def activity(months: Iterable[str]) -> list[tuple[str, int]]:
    """Games per month (``YYYY-MM`` keys), oldest first."""
    return sorted(Counter(months).items())


@dataclass(frozen=True)
class Versus:
    other: int
    matches: int
    wins: int
    losses: int

    @property
    def draws(self) -> int:
        return self.matches - self.wins - self.losses


@dataclass(frozen=True)
class HeadToHead:
    partners: list[Versus]
    opponents: list[Versus]

    def best_partners(self, limit: int = 5) -> list[Versus]:
        ranked = sorted(self.partners, key=lambda v: (-v.wins, v.matches, v.other))
        return [v for v in ranked if v.wins][:limit]

    def toughest_opponents(self, limit: int = 5) -> list[Versus]:
        ranked = sorted(self.opponents, key=lambda v: (-v.losses, v.wins, v.other))
        return [v for v in ranked if v.losses][:limit]


def head_to_head(player: int, games: Iterable[PlayedGame]) -> HeadToHead:
    partners: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    opponents: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for game in order(games):
        for match in matches_of(game):
            mine = next((i for i, t in enumerate(match.teams) if player in t), None)
            if mine is None:
                continue
            my_rank = match.ranks[mine]
            alone_first = my_rank == 1 and match.ranks.count(1) == 1
            for index, team in enumerate(match.teams):
                for other in team:
                    if other == player:
                        continue
                    if index == mine:
                        row = partners[other]
                        row[0] += 1
                        row[1] += alone_first
                        row[2] += not alone_first
                    else:
                        row = opponents[other]
                        row[0] += 1
                        row[1] += my_rank < match.ranks[index]
                        row[2] += my_rank > match.ranks[index]
    return HeadToHead(
        [Versus(other, *row) for other, row in partners.items()],
        [Versus(other, *row) for other, row in opponents.items()],
    )


# -- per game --------------------------------------------------------------------------------


def soloist_stats(player: int, games: Sequence[PlayedGame]) -> dict[str, Any]:
    contracts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sweeps = 0
    for game in games:
        seat = game.seat_of(player)
        for hand in game.hands:
            doc = hand.document
            if doc.get("outcome") != "played":
                continue
            if doc["soloist"] == seat:
                row = contracts[doc.get("contract", "")]
                row[0] += 1
                row[1] += hand.deltas[seat] > 0
                sweeps += doc["sweep"] == "soloist"
            elif seat != game.rules.sitting_out(doc["dealer"], game.n):
                sweeps += doc["sweep"] == "opponents"
    return {
        "bids": sum(row[0] for row in contracts.values()),
        "made": sum(row[1] for row in contracts.values()),
        "contracts": [
            {"contract": key, "bid": row[0], "made": row[1]}
            for key, row in sorted(contracts.items(), key=_contract_order(games))
        ],
        "sweeps": sweeps,
    }


def _contract_order(games: Sequence[PlayedGame]) -> Callable[[tuple[str, Any]], int]:
    known = getattr(games[0].rules, "contracts", ()) if games else ()
    return lambda item: known.index(item[0]) if item[0] in known else len(known)


def briscola_stats(player: int, games: Sequence[PlayedGame]) -> dict[str, Any]:
    hands = won = points = counted = 0
    for game in games:
        seat = game.seat_of(player)
        sides = game.rules.sides(game.options, game.n)
        side = next(i for i, s in enumerate(sides) if seat in s)
        hands += game.totals[seat]
        won += game.places()[seat] == 1
        for hand in game.hands:
            if hand.side_points is not None:
                points += hand.side_points[side]
                counted += 1
    return {
        "hands_won": hands,
        "matches": len(games),
        "matches_won": won,
        "average_card_points": _average(points, counted),
    }


def turkish_stats(player: int, games: Sequence[PlayedGame]) -> dict[str, Any]:
    penalty = deals = out_first = 0
    for game in games:
        seat = game.seat_of(player)
        for hand in game.hands:
            penalty += hand.deltas[seat]
            deals += 1
            out_first += hand.document["went_out"] == seat
    return {
        "deals": deals,
        "average_penalty": _average(penalty, deals),
        "out_first": out_first,
    }


def chiamata_stats(player: int, games: Sequence[PlayedGame]) -> dict[str, Any]:
    calls = {"partner": [0, 0], "alone": [0, 0]}
    for game in games:
        seat = game.seat_of(player)
        for hand in game.hands:
            sides = hand_sides(game.rules, game.n, hand)
            if sides is None or sides[0][0] != seat:
                continue
            row = calls["alone" if len(sides[0]) == 1 else "partner"]
            row[0] += 1
            row[1] += sides[2] > 0
    return {
        "calls": calls["partner"][0] + calls["alone"][0],
        "with_partner": calls["partner"][0],
        "with_partner_made": calls["partner"][1],
        "alone": calls["alone"][0],
        "alone_made": calls["alone"][1],
    }


PER_GAME: dict[str, Callable[[int, Sequence[PlayedGame]], dict[str, Any]]] = {
    "terziglio": soloist_stats,
    "calabrasella": soloist_stats,
    "briscola": briscola_stats,
    "turkish": turkish_stats,
    "briscola_chiamata": chiamata_stats,
}


def per_game(player: int, games: Iterable[PlayedGame]) -> dict[str, dict[str, Any]]:
    """Statistics of each ruleset the player played, with the number of games."""
    by_ruleset: dict[str, list[PlayedGame]] = defaultdict(list)
    for game in order(games):
        by_ruleset[game.ruleset].append(game)
    return {
        key: {"games": len(rows)} | PER_GAME[key](player, rows) for key, rows in by_ruleset.items()
    }


def _average(total: int, count: int) -> float | None:
    return round(total / count, 1) if count else None
