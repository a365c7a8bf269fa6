"""The hand POST's cost, pinned: its queries (bench/load.py measures its throughput), the cached
API token that saves one of them (and forgets a revoked token at once), and the Redis cache's
one client. A regression here shows as a failing count, not as a slower bench."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.cache import RedisCacheClient
from scoring import services
from scoring.api.authentication import cache_key
from scoring.models import AuditEvent, Game, Hand, IdempotencyRecord
from scoring.services import Actor


def terziglio(club, players, olga) -> Game:
    return services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        options={"target_score": 1000, "free_dealer": True},
        by=Actor.for_user(olga),
    )


def post(client, game, key, dealer=0):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"dealer": dealer, "outcome": "passed_out"},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.fixture
def api(olga):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=olga).key}")
    return client


def prepared_statements() -> list[str]:
    """The statements PostgreSQL holds prepared for this connection ([] elsewhere)."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.parametrize("prepare", [False, True], ids=["text", "prepared"])
def test_a_hand_post_writes_in_few_statements(api, club, players, olga, settings, prepare):
    """Inside the test's transaction the service's BEGIN / COMMIT are a SAVEPOINT / RELEASE
    pair. Then: the game row locked with the caller's role and the key's use; the hand; and the
    game's cache, the audit event and the idempotency record, in one round trip on PostgreSQL
    (one text of three statements, or three prepared statements in a pipeline with
    ``DATABASE_PREPARE``), one by one on SQLite. The token was read by the first request and
    cached."""
    settings.DATABASE_PREPARE = prepare
    postgres = connection.vendor == "postgresql"
    game = terziglio(club, players, olga)
    assert post(api, game, "warm-up").status_code == 201
    with CaptureQueriesContext(connection) as queries:
        response = post(api, game, "measured")
    assert response.status_code == 201
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == (5 if postgres and not prepare else 7), sql
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT")
    assert "FOR NO KEY UPDATE" in sql[1] or not postgres
    assert not any("authtoken_token" in s for s in sql)
    # Prepared: PostgreSQL keeps the five statements of a hand entry for the next one.
    prepared = prepared_statements()
    assert len(prepared) == (5 if postgres and prepare else 0), prepared
    for table in ("scoring_hand", "scoring_auditevent", "scoring_idempotencyrecord"):
        assert any(f'INSERT INTO "{table}"' in p for p in prepared) or not (postgres and prepare)
    # ... and everything was written: the hand, the cache, the audit event, the first answer.
    game.refresh_from_db()
    assert (game.hand_count, game.version) == (2, 3)
    hand = Hand.objects.get(game=game, number=2)
    assert (hand.entered_by, hand.entered_via, hand.document["dealer"]) == (olga, "api", 0)
    event = AuditEvent.objects.get(game=game, hand_number=2)
    assert (event.action, event.actor, event.via, event.before, event.reason) == (
        "record_hand",
        olga,
        "api",
        None,
        "",
    )
    assert event.after == {"document": hand.document, "deltas": hand.deltas}
    record = IdempotencyRecord.objects.get(key="measured")
    assert record.response == response.json() and record.game_id == game.pk


def test_a_resend_takes_the_lock_and_the_first_answer_only(api, club, players, olga):
    game = terziglio(club, players, olga)
    first = post(api, game, "k1")
    with CaptureQueriesContext(connection) as queries:
        again = post(api, game, "k1")
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    # SAVEPOINT, the lock (the key seen), the stored answer, RELEASE.
    assert len(queries) == 4
    assert Hand.objects.filter(game=game).count() == 1


def test_a_deleted_token_is_refused_on_the_next_request(api, club, players, olga):
    game = terziglio(club, players, olga)
    token = Token.objects.get(user=olga)
    key = token.key
    assert post(api, game, "k1").status_code == 201
    assert cache.get(cache_key(key)) is not None
    token.delete()
    assert cache.get(cache_key(key)) is None
    assert post(api, game, "k2", dealer=1).status_code == 401


def test_a_deactivated_user_is_refused_on_the_next_request(api, club, players, olga):
    game = terziglio(club, players, olga)
    assert post(api, game, "k1").status_code == 201
    olga.is_active = False
    olga.save()
    assert post(api, game, "k2", dealer=1).status_code == 401


def test_a_cached_user_deactivated_behind_the_cache_is_refused(api, club, players, olga):
    """A bulk update sends no signal: the cached user is still checked, and dropped (by a
    process that does not remember the token itself: another one, or this one seconds later)."""
    from scoring.api.authentication import remembered

    game = terziglio(club, players, olga)
    token = Token.objects.get(user=olga)
    assert post(api, game, "k1").status_code == 201
    user, cached_token = cache.get(cache_key(token.key))
    user.is_active = False
    cache.set(cache_key(token.key), (user, cached_token), 60)
    type(olga).objects.filter(pk=olga.pk).update(is_active=False)  # no signal
    remembered.clear()
    assert post(api, game, "k2", dealer=1).status_code == 401
    assert cache.get(cache_key(token.key)) is None


def test_a_login_keeps_the_cached_token(api, club, players, olga):
    token = Token.objects.get(user=olga)
    game = terziglio(club, players, olga)
    assert post(api, game, "k1").status_code == 201
    olga.save(update_fields=["last_login"])
    assert cache.get(cache_key(token.key)) is not None


def test_the_token_is_read_every_time_when_its_cache_is_off(api, club, players, olga, settings):
    settings.API_TOKEN_CACHE_SECONDS = 0
    game = terziglio(club, players, olga)
    assert post(api, game, "k1").status_code == 201
    with CaptureQueriesContext(connection) as queries:
        assert post(api, game, "k2", dealer=1).status_code == 201
    assert any("authtoken_token" in q["sql"] for q in queries.captured_queries)
    assert cache.get(cache_key(Token.objects.get(user=olga).key)) is None


def test_an_unknown_token_is_refused_and_not_cached(club, players, olga):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    game = terziglio(club, players, olga)
    assert post(client, game, "k1").status_code == 401
    assert cache.get(cache_key("not-a-token")) is None


def test_the_redis_cache_makes_one_client_per_server_not_one_per_operation():
    backend = RedisCacheClient(["redis://127.0.0.1:6379/9"])  # no connection is opened
    client = backend.get_client("a")
    assert backend.get_client("b") is client
    assert backend.get_client("c", write=True) is client
    assert client.connection_pool is backend._get_connection_pool(write=False)


def test_a_token_is_remembered_by_the_process_for_a_few_seconds(api, club, players, olga):
    """The next requests of a phone ask neither the database nor the cache for its token."""
    from scoring.api.authentication import remembered

    game = terziglio(club, players, olga)
    token = Token.objects.get(user=olga)
    assert post(api, game, "k1").status_code == 201
    cache.delete(cache_key(token.key))  # gone from the shared cache, as if it had expired
    assert post(api, game, "k2", dealer=1).status_code == 201
    assert cache.get(cache_key(token.key)) is None  # served from this process's memory
    remembered.clear()
    assert post(api, game, "k3", dealer=2).status_code == 201
    assert cache.get(cache_key(token.key)) is not None


def test_a_remembered_token_expires_after_its_seconds(api, club, players, olga, settings):
    from scoring.api import authentication

    settings.API_TOKEN_LOCAL_SECONDS = 5
    game = terziglio(club, players, olga)
    token = Token.objects.get(user=olga)
    assert post(api, game, "k1").status_code == 201
    # Deleted behind every signal (another process's revocation reached Redis and the database).
    Token.objects.filter(pk=token.pk)._raw_delete(Token.objects.db)
    cache.delete(cache_key(token.key))
    assert post(api, game, "k2", dealer=1).status_code == 201  # within the seconds: remembered
    clock = authentication.time.monotonic
    authentication.time.monotonic = lambda: clock() + 6
    try:
        assert post(api, game, "k3", dealer=1).status_code == 401
    finally:
        authentication.time.monotonic = clock


def test_a_revoked_token_is_forgotten_by_the_process_that_revokes_it(api, club, players, olga):
    game = terziglio(club, players, olga)
    assert post(api, game, "k1").status_code == 201
    Token.objects.get(user=olga).delete()
    assert post(api, game, "k2", dealer=1).status_code == 401


def test_remembering_is_off_with_zero_seconds(api, club, players, olga, settings):
    settings.API_TOKEN_LOCAL_SECONDS = 0
    game = terziglio(club, players, olga)
    token = Token.objects.get(user=olga)
    assert post(api, game, "k1").status_code == 201
    cache.delete(cache_key(token.key))
    assert post(api, game, "k2", dealer=1).status_code == 201
    assert cache.get(cache_key(token.key)) is not None  # asked the cache, and filled it again
