"""The pure pieces of bench/load.py (no server, no timing): the phones' hands, the HTTP framing,
the comparison of the database with the phones, the server's environment, the bare view."""

import json
import random

import pytest

from bench import load
from scoring import services
from scoring.rules import engine


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert load.percentile(values, 0.50) == 50.0
    assert load.percentile(values, 0.95) == 95.0
    assert load.percentile([], 0.95) == 0.0


def test_every_tenth_pair_of_phones_shares_a_game():
    games = load.game_of_phones(200)
    assert len(set(games)) == 190
    assert games[0] == games[1] and games[20] == games[21]
    assert games[2] != games[3]
    shared = [g for g in set(games) if games.count(g) == 2]
    assert len(shared) == 10
    assert load.game_of_phones(1) == [0]


@pytest.mark.parametrize("shared", [False, True], ids=["own-game", "shared-game"])
def test_the_phones_hands_are_valid_and_keep_every_total_far_from_the_target(shared):
    rng = random.Random(7)
    game = load.new_local_game(shared)
    for _ in range(1000):
        game = engine.play(game, load.next_hand(game, rng))  # raises on an invalid hand
    assert not game.finished
    assert max(abs(t) for t in game.totals) < load.TARGET_SCORE // 10


def test_hands_of_two_phones_fit_a_shared_game_in_any_order():
    rng = random.Random(3)
    phones = [load.new_local_game(True), load.new_local_game(True)]
    documents = []
    for turn in range(60):
        phone = turn % 2
        document = load.next_hand(phones[phone], rng)
        phones[phone] = engine.play(phones[phone], document)
        documents.append(document)
    rng.shuffle(documents)
    server = engine.replay(phones[0].ruleset, phones[0].options, 3, documents)
    assert list(server.totals) == [a + b for a, b in zip(*(p.totals for p in phones), strict=True)]


def test_a_request_is_framed_with_its_length_and_a_response_head_is_read():
    body = json.dumps({"dealer": 0}).encode()
    raw = load.http_request("POST", "/x/", port=8123, body=body, headers=("Idempotency-Key: k",))
    head, _, sent = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"POST /x/ HTTP/1.1\r\nHost: 127.0.0.1:8123\r\n")
    assert b"Idempotency-Key: k" in head and f"Content-Length: {len(body)}".encode() in head
    assert sent == body
    status, headers = load.parse_head(
        b"HTTP/1.1 201 Created\r\nContent-Length: 12\r\nX-A: b\r\n\r\n"
    )
    assert status == 201 and headers == {"content-length": "12", "x-a": "b"}
    with pytest.raises(ValueError):
        load.parse_head(b"SSH-2.0-OpenSSH\r\n\r\n")


def stored(typed, hands, records, *, cached=(0, 0, 0), phones=(0, 0, 0), deltas=None):
    return load.StoredGame(
        typed=tuple(typed),
        hands=hands,
        records=records,
        index=0,
        cached_totals=cached,
        replayed_totals=cached,
        summed_deltas=cached if deltas is None else deltas,
        phone_totals=phones,
    )


A, B = {"dealer": 0, "outcome": "passed_out"}, {"dealer": 1, "outcome": "passed_out"}


def test_a_game_that_holds_what_its_phones_typed_reconciles_cleanly():
    typed = [load.Typed("k1", A, acknowledged=True), load.Typed("k2", B)]
    tally = load.reconcile([stored(typed, {1: A, 2: B}, {"k1": (0, 1), "k2": (0, 2)})])
    assert (tally.typed, tally.acknowledged, tally.stored) == (2, 1, 2)
    assert (tally.lost, tally.doubled, tally.wrong_totals) == (0, 0, 0)


def test_a_hand_not_stored_is_lost_acknowledged_or_not():
    typed = [load.Typed("k1", A, acknowledged=True), load.Typed("k2", B)]
    tally = load.reconcile([stored(typed, {}, {})])
    assert (tally.lost_acknowledged, tally.lost_unacknowledged) == (1, 1)


def test_a_record_pointing_at_another_document_or_game_does_not_count_as_stored():
    typed = [load.Typed("k1", A, acknowledged=True), load.Typed("k2", B, acknowledged=True)]
    tally = load.reconcile([stored(typed, {1: B}, {"k1": (0, 1), "k2": (5, 1)})])
    assert tally.lost_acknowledged == 2
    assert tally.doubled == 1  # hand 1 is accounted for by no typed key


def test_a_hand_stored_twice_is_doubled():
    typed = [load.Typed("k1", A, acknowledged=True)]
    tally = load.reconcile([stored(typed, {1: A, 2: A}, {"k1": (0, 1)})])
    assert (tally.lost, tally.doubled) == (0, 1)


def test_totals_that_differ_from_the_phones_or_the_deltas_are_wrong():
    typed = [load.Typed("k1", A, acknowledged=True)]
    records = {"k1": (0, 1)}
    assert load.reconcile([stored(typed, {1: A}, records, phones=(2, -1, -1))]).wrong_totals == 1
    assert load.reconcile([stored(typed, {1: A}, records, deltas=(1, 0, -1))]).wrong_totals == 1


def test_the_server_runs_the_deploy_environment_with_only_the_site_replaced(tmp_path):
    args = load.parse_args(["--workers", "3"])
    env = load.server_environment(
        database_url="postgres://u@h:1/scratch", port=8123, static_root=str(tmp_path), args=args
    )
    assert env["DEBUG"] == "false"
    assert env["DATABASE_CONN_MAX_AGE"] == "60"  # as deploy/env.example says
    assert env["DATABASE_URL"] == "postgres://u@h:1/scratch"
    assert env["SECURE_SSL_REDIRECT"] == "false"
    assert env["CELERY_BROKER_URL"] == ""
    assert env["GUNICORN_BIND"] == "127.0.0.1:8123" and env["GUNICORN_WORKERS"] == "3"
    assert env["DJANGO_SETTINGS_MODULE"] == "bench.load_settings"
    assert len(env["SECRET_KEY"]) >= 50 and "change-me" not in env["SECRET_KEY"]


def test_the_bare_view_exists_only_under_the_bench_urls(client, settings):
    assert client.get("/bench/bare").status_code == 404
    settings.ROOT_URLCONF = "bench.load_urls"
    response = client.get("/bench/bare")
    assert response.status_code == 200 and response.json() == {"ok": True}


@pytest.mark.parametrize("prepare", [False, True], ids=["text", "prepared"])
def test_the_floor_view_writes_what_a_hand_writes_and_nothing_else(
    client, settings, club, players, olga, prepare
):
    """The floor phase's view: the game's lock and a hand's four writes, as a hand POST makes
    them (so its throughput bounds a hand POST's), with no token and no rules."""
    from scoring.models import AuditEvent, Hand, IdempotencyRecord
    from scoring.services import Actor

    settings.DATABASE_PREPARE = prepare
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=players[:3],
        options={"target_score": 1000},
        by=Actor.for_user(olga),
    )
    url = f"{load.FLOOR_PATH}{game.pk}/"
    assert client.post(url, HTTP_IDEMPOTENCY_KEY="a").status_code == 404  # not on the site
    settings.ROOT_URLCONF = "bench.load_urls"
    for number, key in enumerate(("a", "b"), start=1):
        response = client.post(url, HTTP_IDEMPOTENCY_KEY=key)
        assert response.status_code == 201 and response.json()["number"] == number
    game.refresh_from_db()
    assert (game.hand_count, game.version, game.totals) == (2, 3, [0, 0, 0])
    hands = Hand.objects.filter(game=game).order_by("number")
    assert [h.document["dealer"] for h in hands] == [0, 1]
    assert AuditEvent.objects.filter(game=game, action="record_hand").count() == 2
    assert set(IdempotencyRecord.objects.filter(game=game).values_list("key", flat=True)) == {
        "a",
        "b",
    }


def test_the_steady_rate_leaves_out_ramp_up_stragglers_and_the_restart():
    steady = [float(t) for t in range(100)]  # one answer a second
    assert load.steady_rate(steady) == 1.0
    late = [*steady, 1000.0]  # one straggler does not stretch the span
    assert load.steady_rate(late) == pytest.approx(1.0, abs=0.02)
    paused = [t if t < 50 else t + 30 for t in steady]  # the server was down 30 s
    assert load.steady_rate(paused, (49.5, 79.5)) == pytest.approx(1.0, abs=0.02)
    assert load.steady_rate([1.0]) == 0.0
