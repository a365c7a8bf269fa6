"""Ratings of players with OpenSkill (Plackett–Luce), over plain records: no Django, no database.

Vocabulary:

* a **scope** is what a rating is about: a ruleset's key (one rating per player per game) or
  ``None``, the club-wide rating over every game of the club;
* a **match** is one rated result: teams of players (each a tuple of player ids) and their ranks
  (1 is best; equal ranks are a draw). Most games are one match at their end; a game whose sides
  change every hand is a match per hand;
* a **standing** is a player's rating in one scope: ``mu`` (the skill estimate), ``sigma`` (its
  uncertainty) and ``ordinal = mu - 3 sigma``, the conservative figure shown and ranked by.

Which match a game is comes from the rules engine, never re-decided here:

* fixed sides (``Ruleset.sides``: Briscola pairs, and every seat alone in singles, so 2-player
  Briscola is one against one) are the teams, ranked by the game's final ``Ruleset.ranking``;
* games of individual players (Terziglio, Calabrasella, Turkish) are one team per seat, ranked by
  the same final ranking (lowest total first in Turkish: the ruleset knows);
* Briscola chiamata (``RATED_BY_HAND``) changes sides every hand: each played hand is a match of
  the seats its document names as active (the caller and his partner, the caller alone when he
  called his own card) against the other seats holding cards; the caller's side wins when the
  engine's deltas pay him, loses when they charge him, and a hand that pays nobody is a draw.

The computation is deterministic: games in the order of their finish, ties by id
(:func:`order`). :func:`rate_games` starts from given standings, so one game just finished is
rated on top of the stored ones, and a full recompute starts from nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from scoring.rules import RULESETS, GameState, Ruleset

MODEL = PlackettLuce()
#: Rulesets rated hand by hand: their sides are named in each hand's document.
RATED_BY_HAND = frozenset({"briscola_chiamata"})

Scope = str | None
Key = tuple[int, Scope]


@dataclass(frozen=True)
class PlayedHand:
    document: Mapping[str, Any]
    deltas: tuple[int, ...]
    side_points: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PlayedGame:
    """A finished game as the ratings and statistics read it. ``hands`` are only needed for the
    games rated by hand and for statistics of hands."""

    id: int
    ruleset: str
    options: Mapping[str, Any]
    finished_at: datetime
    players: tuple[int, ...]
    totals: tuple[int, ...]
    hand_count: int
    last_dealer: int | None = None
    card_points: tuple[int, ...] | None = None
    hands: tuple[PlayedHand, ...] = ()

    @property
    def rules(self) -> Ruleset:
        return RULESETS[self.ruleset]

    @property
    def n(self) -> int:
        return len(self.players)

    def state(self) -> GameState:
        return GameState(
            n=self.n,
            options=self.options,
            hands_played=self.hand_count,
            totals=self.totals,
            last_dealer=self.last_dealer,
            card_points=self.card_points,
        )

    def places(self) -> tuple[int, ...]:
        """The final place of each seat (1 is first; equal places are shared)."""
        place_of = [0] * self.n
        for placing in self.rules.ranking(self.state()):
            place_of[placing.seat] = placing.place
        return tuple(place_of)

    def seat_of(self, player: int) -> int:
        return self.players.index(player)


@dataclass(frozen=True)
class Match:
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class Standing:
    mu: float
    sigma: float
    games: int = 0
    last_played: datetime | None = None

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


@dataclass(frozen=True)
class Step:
    """A player's ratings right after one game: in the game's ruleset and club-wide."""

    player: int
    game: int
    ruleset: str
    at: datetime
    mu: float
    sigma: float
    club_mu: float
    club_sigma: float


def order(games: Iterable[PlayedGame]) -> list[PlayedGame]:
    """Games in the order they are rated: by finish, ties by id."""
    return sorted(games, key=lambda g: (g.finished_at, g.id))


def hand_sides(
    rules: Ruleset, n: int, hand: PlayedHand
) -> tuple[tuple[int, ...], tuple[int, ...], int] | None:
    """The active side of a hand (the seats its document names), the other seats holding cards,
    and the sign of what the hand paid the first active seat; None for a hand nobody played."""
    document = hand.document
    named = [document[key] for key in rules.active_seat_keys if key in document]
    if not named:
        return None
    active = tuple(dict.fromkeys(named))
    idle = rules.sitting_out(document["dealer"], n)
    others = tuple(s for s in range(n) if s not in active and s != idle)
    paid = hand.deltas[active[0]]
    return active, others, (paid > 0) - (paid < 0)


def matches_of(game: PlayedGame) -> tuple[Match, ...]:
    """The rated results of a game, with player ids (see the module docstring)."""
    rules, players = game.rules, game.players
    if game.ruleset in RATED_BY_HAND:
        matches = []
        for hand in game.hands:
            sides = hand_sides(rules, game.n, hand)
            if sides is None:
                continue
            active, others, sign = sides
            ranks = (1, 1) if sign == 0 else ((1, 2) if sign > 0 else (2, 1))
            teams = (tuple(players[s] for s in active), tuple(players[s] for s in others))
            matches.append(Match(teams, ranks))
        return tuple(matches)
    places = game.places()
    seat_sides = rules.sides(game.options, game.n) or tuple((s,) for s in range(game.n))
    teams = tuple(tuple(players[s] for s in side) for side in seat_sides)
    ranks = tuple(places[side[0]] for side in seat_sides)
    return (Match(teams, ranks),)


class _Working:
    """A standing while games are rated: the library's rating object kept as it comes back
    from ``rate`` (making new ones costs more than the arithmetic), and the games counted."""

    __slots__ = ("games", "last_played", "rating")

    def __init__(self, rating: Any, games: int = 0, last_played: datetime | None = None):
        self.rating, self.games, self.last_played = rating, games, last_played

    @classmethod
    def of(cls, standing: Standing) -> _Working:
        return cls(MODEL.rating(standing.mu, standing.sigma), standing.games, standing.last_played)

    def standing(self) -> Standing:
        return Standing(self.rating.mu, self.rating.sigma, self.games, self.last_played)


def _rate(work: dict[Key, _Working], match: Match, scope: Scope) -> None:
    rows = [[_row(work, (p, scope)) for p in team] for team in match.teams]
    rated = MODEL.rate([[row.rating for row in team] for team in rows], ranks=list(match.ranks))
    for team, new in zip(rows, rated, strict=True):
        for row, rating in zip(team, new, strict=True):
            row.rating = rating


def _row(work: dict[Key, _Working], key: Key) -> _Working:
    row = work.get(key)
    if row is None:
        row = work[key] = _Working(MODEL.rating())
    return row


@dataclass
class Result:
    standings: dict[Key, Standing] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)


def rate_games(games: Iterable[PlayedGame], start: Mapping[Key, Standing] | None = None) -> Result:
    """Rate ``games`` (in :func:`order`) on top of ``start``: every player's standing in the
    game's ruleset and club-wide, and a step per player and game. A player who played no match
    of a game (a chiamata game whose hands were all passed out) still counts the game."""
    work = {key: _Working.of(standing) for key, standing in (start or {}).items()}
    steps = []
    for game in order(games):
        matches = matches_of(game)
        for scope in (game.ruleset, None):
            for match in matches:
                _rate(work, match, scope)
            for player in game.players:
                row = _row(work, (player, scope))
                row.games += 1
                row.last_played = game.finished_at
        for player in game.players:
            own, club = work[(player, game.ruleset)].rating, work[(player, None)].rating
            steps.append(
                Step(
                    player,
                    game.id,
                    game.ruleset,
                    game.finished_at,
                    own.mu,
                    own.sigma,
                    club.mu,
                    club.sigma,
                )
            )
    return Result({key: row.standing() for key, row in work.items()}, steps)
