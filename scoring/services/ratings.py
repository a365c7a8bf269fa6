"""The rating writes: a club's ratings recomputed from scratch, or one finished game rated on
top of the stored ones. Ratings are derived data (like a game's cache of totals): nothing but
these two functions writes ``Rating`` and ``RatingStep`` rows, and both can be replayed at any
time, so they write no audit event.

Both run in one transaction under the club row's lock (PostgreSQL ``SELECT … FOR UPDATE``; on
SQLite the IMMEDIATE transaction already serialises writers), so two games finishing at the same
moment are rated one after the other, never both on the same old ratings.

:func:`rate_game` decides, after the lock, what a change of one game means:

* the game is finished, has no rating steps yet and finished after every rated game of the club:
  rated incrementally (the players' stored standings + this game);
* the game was rated before (a correction of a finished game, a game corrected back to
  unfinished, or abandoned after it finished), or it finished before an already rated game:
  the club is recomputed from scratch, because every later rating depends on it; the
  club-wide ratings depend on every game of the club, so the whole club is recomputed;
* otherwise (a hand of a game still in progress) nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from scoring.models import Club, Game, Rating, RatingStep
from scoring.selectors.ratings import played_games
from scoring.stats import ratings

INCREMENTAL, RECOMPUTED, NOTHING = "incremental", "recomputed", "nothing"


@dataclass(frozen=True)
class Rated:
    how: str
    games: int
    ratings: int


def _lock_club(club_id: int) -> None:
    Club.objects.select_for_update().filter(pk=club_id).order_by().values_list("pk").first()


def recompute_club(*, club: Club | int) -> Rated:
    """Every rating and rating step of the club, from its finished games in order."""
    club_id = club.pk if isinstance(club, Club) else club
    with transaction.atomic():
        _lock_club(club_id)
        games, _names = played_games(
            Game.objects.filter(club_id=club_id), hands_of=ratings.RATED_BY_HAND
        )
        result = ratings.rate_games(games)
        RatingStep.objects.filter(club_id=club_id).delete()
        Rating.objects.filter(club_id=club_id).delete()
        now = timezone.now()
        _insert(
            Rating,
            RATING_COLUMNS,
            [_rating_values(club_id, key, s, now) for key, s in result.standings.items()],
        )
        _store_steps(club_id, result.steps)
    return Rated(RECOMPUTED, len(games), len(result.standings))


def rate_game(*, game: Game | int) -> Rated:
    """Bring the club's ratings up to date after ``game`` changed (see the module docstring)."""
    game_id = game.pk if isinstance(game, Game) else game
    club_id = Game.objects.filter(pk=game_id).order_by().values_list("club_id", flat=True).first()
    if club_id is None:
        return Rated(NOTHING, 0, 0)
    with transaction.atomic():
        _lock_club(club_id)
        found, _names = played_games(
            Game.objects.filter(pk=game_id), hands_of=ratings.RATED_BY_HAND
        )
        rated_since = Q(game_id=game_id)
        if found:
            at = found[0].finished_at
            rated_since |= Q(game__finished_at__gt=at) | Q(
                game__finished_at=at, game_id__gt=game_id
            )
        if RatingStep.objects.filter(Q(club_id=club_id) & rated_since).exists():
            return recompute_club(club=club_id)
        if not found:
            return Rated(NOTHING, 0, 0)
        return _rate_one(club_id, found[0])


def _rate_one(club_id: int, game: ratings.PlayedGame) -> Rated:
    stored = {
        (r.player_id, r.ruleset): r
        for r in Rating.objects.filter(
            Q(ruleset=game.ruleset) | Q(ruleset__isnull=True), player_id__in=game.players
        )
    }
    start = {
        key: ratings.Standing(r.mu, r.sigma, r.games, r.last_played_at) for key, r in stored.items()
    }
    result = ratings.rate_games([game], start)
    now = timezone.now()
    changed, new = [], []
    for key in ((p, s) for p in game.players for s in (game.ruleset, None)):
        row = _rating(club_id, key, result.standings[key], now)
        if key in stored:
            row.pk = stored[key].pk
            changed.append(row)
        else:
            new.append(row)
    if changed:
        Rating.objects.bulk_update(
            changed, ["mu", "sigma", "ordinal", "games", "last_played_at", "updated_at"]
        )
    if new:
        Rating.objects.bulk_create(new)
    _store_steps(club_id, result.steps)
    return Rated(INCREMENTAL, 1, len(changed) + len(new))


def _rating(club_id: int, key: ratings.Key, standing: ratings.Standing, now) -> Rating:
    player_id, ruleset = key
    return Rating(
        club_id=club_id,
        player_id=player_id,
        ruleset=ruleset,
        mu=standing.mu,
        sigma=standing.sigma,
        ordinal=standing.ordinal,
        games=standing.games,
        last_played_at=standing.last_played,
        updated_at=now,
    )


RATING_COLUMNS = (
    "club",
    "player",
    "ruleset",
    "mu",
    "sigma",
    "ordinal",
    "games",
    "last_played_at",
    "updated_at",
)
STEP_COLUMNS = ("club", "player", "game", "mu", "sigma", "club_mu", "club_sigma")


def _rating_values(club_id: int, key: ratings.Key, standing: ratings.Standing, now) -> tuple:
    adapt = connection.ops.adapt_datetimefield_value
    player_id, ruleset = key
    return (
        club_id,
        player_id,
        ruleset,
        standing.mu,
        standing.sigma,
        standing.ordinal,
        standing.games,
        adapt(standing.last_played),
        adapt(now),
    )


def _store_steps(club_id: int, steps: list[ratings.Step]) -> None:
    _insert(
        RatingStep,
        STEP_COLUMNS,
        [(club_id, s.player, s.game, s.mu, s.sigma, s.club_mu, s.club_sigma) for s in steps],
    )


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert ``rows`` with one ``executemany`` statement. A full recompute writes a row per
    player and game (thousands in a big club): building a model instance per row and letting
    ``bulk_create`` split them into batches of the SQLite variable limit took most of the
    recompute's time and a query per batch; the values here are plain numbers, ids and
    adapted datetimes, which the database checks against the same constraints."""
    if not rows:
        return
    quote = connection.ops.quote_name
    columns = ", ".join(quote(model._meta.get_field(f).column) for f in fields)
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
        f"VALUES ({', '.join(['%s'] * len(fields))})"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
