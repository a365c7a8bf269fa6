"""Reads for ratings and player statistics: finished games as plain records
(:class:`scoring.stats.ratings.PlayedGame`), a club's leaderboard, a player's page.

Each function states how many queries it makes; tests pin them.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from scoring.labels import game_name
from scoring.models import Club, Game, GameStatus, Hand, Player, Rating, RatingStep, Seat
from scoring.selectors.clubs import public_games
from scoring.stats import players as stats
from scoring.stats import ratings

#: The longest activity filter of a leaderboard, in days.
MAX_DAYS = 3650

GAME_FIELDS = (
    "id",
    "ruleset",
    "options",
    "finished_at",
    "totals",
    "hand_count",
    "last_dealer",
    "card_points",
)


def played_games(
    games: QuerySet[Game], *, hands_of: Iterable[str] | None = None, names: bool = False
) -> tuple[list[ratings.PlayedGame], dict[int, str]]:
    """The finished games of ``games`` as records, in rating order, with their hands for the
    rulesets in ``hands_of`` (every ruleset when None). Also the players' names when ``names``.
    Two queries, three when hands are read (none of them when no game needs them)."""
    games = games.filter(status=GameStatus.FINISHED)
    rows = list(games.order_by().values_list(*GAME_FIELDS))
    if not rows:
        return [], {}
    seat_rows = Seat.objects.filter(game__in=games.order_by().values("pk")).values_list(
        "game_id", "index", "player_id", *(("player__display_name",) if names else ())
    )
    players: dict[int, dict[int, int]] = defaultdict(dict)
    player_names: dict[int, str] = {}
    for game_id, index, player_id, *name in seat_rows:
        players[game_id][index] = player_id
        if name:
            player_names[player_id] = name[0]
    wanted = {r[1] for r in rows} if hands_of is None else set(hands_of) & {r[1] for r in rows}
    hands: dict[int, list[ratings.PlayedHand]] = defaultdict(list)
    if wanted:
        for game_id, document, deltas, side_points in (
            Hand.objects.filter(game__in=games.filter(ruleset__in=wanted).order_by().values("pk"))
            .order_by("game_id", "number")
            .values_list("game_id", "document", "deltas", "side_points")
        ):
            hands[game_id].append(
                ratings.PlayedHand(
                    document, tuple(deltas), None if side_points is None else tuple(side_points)
                )
            )
    records = [
        ratings.PlayedGame(
            id=game_id,
            ruleset=ruleset,
            options=options,
            finished_at=finished_at,
            players=tuple(players[game_id][i] for i in range(len(players[game_id]))),
            totals=tuple(totals),
            hand_count=hand_count,
            last_dealer=last_dealer,
            card_points=None if card_points is None else tuple(card_points),
            hands=tuple(hands.get(game_id, ())),
        )
        for game_id, ruleset, options, finished_at, totals, hand_count, last_dealer, card_points in rows
    ]
    return ratings.order(records), player_names


def provisional_games() -> int:
    return settings.RATING_PROVISIONAL_GAMES


def rating_row(rating: Rating) -> dict[str, Any]:
    return {
        "player": rating.player_id,
        "name": rating.player.display_name,
        "ruleset": rating.ruleset,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "games": rating.games,
        "provisional": rating.games < provisional_games(),
        "last_played_at": rating.last_played_at,
    }


def leaderboard(
    club: Club,
    *,
    ruleset: str | None = None,
    active_days: int | None = None,
    hide_provisional: bool = False,
    now: dt.datetime | None = None,
) -> list[dict[str, Any]]:
    """The club's ratings in one game (or club-wide), best first, numbered; one query."""
    rows = Rating.objects.filter(club=club, ruleset=ruleset).select_related("player")
    if active_days is not None:
        since = (now or timezone.now()) - dt.timedelta(days=active_days)
        rows = rows.filter(last_played_at__gte=since)
    if hide_provisional:
        rows = rows.filter(games__gte=provisional_games())
    board = [rating_row(r) for r in rows.order_by("-ordinal", "-games", "player__display_name")]
    for place, row in enumerate(board, start=1):
        row["place"] = place
    return board


def club_ratings(club: Club, *, ruleset: str | None = None, every: bool = False) -> list[dict]:
    """Stored ratings, best first: of one game, club-wide (``ruleset`` None), or all of them
    (``every``). One query."""
    rows = Rating.objects.filter(club=club).select_related("player")
    if not every:
        rows = rows.filter(ruleset=ruleset)
    return [rating_row(r) for r in rows.order_by("-ordinal", "-games", "player__display_name")]


def month_of(moment: dt.datetime, tz: zoneinfo.ZoneInfo) -> str:
    return moment.astimezone(tz).strftime("%Y-%m")


def player_profile(
    player: Player, *, recent: int = 50, public_only: bool = False
) -> dict[str, Any]:
    """Everything the player page and the statistics endpoint show. Five queries: ratings,
    finished games, their seats (with names), their hands, the rating steps. ``public_only``
    (a reader outside the club): only the games anyone may read are listed and counted
    (``public_games``: a private competition's are not), the ratings themselves stay whole."""
    tz = zoneinfo.ZoneInfo(player.club.time_zone)
    own_ratings = {
        r.ruleset: r for r in Rating.objects.filter(player=player).select_related("player")
    }
    mine = Game.objects.filter(Q(seats__player=player), club_id=player.club_id)
    if public_only:
        mine = mine.filter(public_games())
    games, names = played_games(mine, names=True)
    steps_of = RatingStep.objects.filter(player=player)
    if public_only:
        steps_of = steps_of.filter(game__in=mine.order_by().values("pk"))
    steps = list(
        steps_of.order_by("game__finished_at", "game_id").values_list(
            "game_id", "game__ruleset", "game__finished_at", "mu", "sigma", "club_mu", "club_sigma"
        )
    )
    results = stats.results(player.pk, games)
    game_rows = _game_rows(player, games, names, results, steps)
    versus = stats.head_to_head(player.pk, games)
    streaks = stats.streaks(results)
    ordered_ratings = sorted(
        own_ratings.values(), key=lambda r: (r.ruleset is not None, r.ruleset or "")
    )
    return {
        "player": {"id": player.pk, "name": player.display_name},
        "ratings": [rating_row(r) for r in ordered_ratings],
        "games": list(reversed(game_rows))[:recent],
        "games_played": len(game_rows),
        "games_won": sum(1 for r in results if r.won),
        "per_game": stats.per_game(player.pk, games),
        "best_partners": _named(versus.best_partners(), names),
        "toughest_opponents": _named(versus.toughest_opponents(), names),
        "streaks": {
            "current": streaks.current,
            "current_won": streaks.current_won,
            "longest_won": streaks.longest_won,
            "longest_without_win": streaks.longest_without_win,
        },
        "activity": [
            {"month": month, "games": count}
            for month, count in stats.activity(month_of(g.finished_at, tz) for g in games)
        ],
        "history": [
            {
                "game": game_id,
                "ruleset": ruleset,
                "at": at,
                "ordinal": ratings.ordinal(mu, sigma),
                "club_ordinal": ratings.ordinal(club_mu, club_sigma),
            }
            for game_id, ruleset, at, mu, sigma, club_mu, club_sigma in steps
        ],
    }


def _game_rows(player: Player, games, names: dict[int, str], results, steps) -> list[dict]:
    """One row per finished game of the player, oldest first: place, total, the others, and
    the rating after it with its change since the player's previous game of that ruleset."""
    step_of = {s[0]: s for s in steps}
    before: dict[str | None, float | None] = {}
    rows = []
    by_id = {g.id: g for g in games}
    for result in results:
        game = by_id[result.game]
        step = step_of.get(game.id)
        ordinal = club_ordinal = change = None
        if step is not None:
            ordinal = ratings.ordinal(step[3], step[4])
            club_ordinal = ratings.ordinal(step[5], step[6])
            previous = before.get(game.ruleset)
            change = None if previous is None else ordinal - previous
            before[game.ruleset] = ordinal
        rows.append(
            {
                "game": game.id,
                "ruleset": game.ruleset,
                "ruleset_name": game_name(game.ruleset),
                "finished_at": game.finished_at,
                "place": result.place,
                "seats": result.n,
                "won": result.won,
                "total": result.total,
                "others": [
                    {"id": p, "name": names.get(p, "")} for p in game.players if p != player.pk
                ],
                "ordinal": ordinal,
                "change": change,
                "club_ordinal": club_ordinal,
            }
        )
    return rows


def _named(rows, names: dict[int, str]) -> list[dict]:
    return [
        {
            "player": v.other,
            "name": names.get(v.other, ""),
            "matches": v.matches,
            "wins": v.wins,
            "losses": v.losses,
            "draws": v.draws,
        }
        for v in rows
    ]
