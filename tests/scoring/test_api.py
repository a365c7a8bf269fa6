"""The scoring API: game documents in, scored games out, hands with idempotency and versions."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from scoring.models import AuditEvent, Game, Hand
from scoring.services import Actor
from tests.builders import new_club
from tests.clients import api_as
from tests.scoring.rules.games import hand_documents

G1 = hand_documents("terziglio", "G1")

pytestmark = pytest.mark.django_db


def post_hand(client, game, document, key="k1", **headers):
    return client.post(
        f"/api/v1/games/{game.pk}/hands/",
        document,
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
        **headers,
    )


def fields(response):
    return {(e["hand"], e["field"], e["code"]) for e in response.json()["errors"]}


def test_clubs_lists_the_callers_clubs_with_roles_then_public_ones(api, club, other_club, sara):
    assert api.get("/api/v1/clubs/").json()["results"] == [
        {"slug": "uno", "name": "Circolo Uno", "role": "owner"},
        {"slug": "due", "name": "Circolo Due", "role": None},
    ]
    assert APIClient().get("/api/v1/clubs/").json()["results"] == [
        {"slug": "due", "name": "Circolo Due", "role": None}
    ]


def test_rulesets_describe_player_counts_options_and_presets(api):
    data = {r["key"]: r for r in api.get("/api/v1/rulesets/").json()["results"]}
    assert list(data) == ["terziglio", "calabrasella", "turkish", "briscola", "briscola_chiamata"]
    assert (data["turkish"]["min_players"], data["turkish"]["max_players"]) == (3, 8)
    target = next(o for o in data["terziglio"]["options"] if o["key"] == "target_score")
    assert target == {
        "key": "target_score",
        "type": "integer",
        "default": 21,
        "nullable": False,
        "min": 1,
        "max": 1000,
    }
    assert data["terziglio"]["presets"]["traditional"]["all_points_multiplier"] == 2
    variant = next(o for o in data["briscola"]["options"] if o["key"] == "variant")
    assert variant["choices"] == ["classic", "famiglia_prini"]


def test_post_a_game_document_returns_the_scored_game(api, club, players):
    document = {
        "ruleset": "terziglio",
        "options": {"target_score": 31},
        "players": [players[0].pk, "Bruno", "Zoe"],
        "hands": G1[:2],
    }
    response = api.post("/api/v1/clubs/uno/games/", document, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    game = Game.objects.get()
    assert data["id"] == game.pk and data["club"] == "uno" and data["version"] == game.version
    assert data["players"] == ["Anna", "Bruno", "Zoe"]
    assert data["options"]["target_score"] == 31 and data["options"]["tie_at_target"] == "play_on"
    assert [h["totals"] for h in data["hands"]] == [[2, -1, -1], [2, -1, -1]]
    assert (data["totals"], data["status"], data["next_dealer"]) == ([2, -1, -1], "in_progress", 2)
    assert data["ranking"] == [
        {"seat": 0, "place": 1},
        {"seat": 1, "place": 2},
        {"seat": 2, "place": 2},
    ]
    assert response["Location"] == f"/api/v1/games/{game.pk}/"
    assert set(game.hands.values_list("entered_via", flat=True)) == {"api"}


def test_a_bad_game_document_is_a_400_naming_every_field(api, club):
    response = api.post(
        "/api/v1/clubs/uno/games/",
        {"ruleset": "terziglio", "players": ["A"], "options": {"x": 1}},
        format="json",
    )
    assert response.status_code == 400
    assert fields(response) == {(None, "players", "range"), (None, "options.x", "unknown_key")}
    assert all(e["message"] for e in response.json()["errors"])
    assert not Game.objects.exists()


def test_a_bad_hand_in_an_import_names_the_hand(api, club):
    response = api.post(
        "/api/v1/clubs/uno/games/",
        {"ruleset": "terziglio", "players": ["A", "B", "C"], "hands": [G1[0], G1[0]]},
        format="json",
    )
    assert response.status_code == 400
    assert fields(response) == {(2, "dealer", "wrong_dealer")}


def test_get_game_and_export(api, terziglio):
    post_hand(api, terziglio, G1[0])
    data = api.get(f"/api/v1/games/{terziglio.pk}/").json()
    assert data["hands"][0]["deltas"] == [2, -1, -1] and data["hands"][0]["version"] == 1
    export = api.get(f"/api/v1/games/{terziglio.pk}/export/").json()
    assert export == {
        "ruleset": "terziglio",
        "options": terziglio.options,
        "players": ["Anna", "Bruno", "Carla"],
        "hands": [{**G1[0], "sweep": "none"}],
        "title": "",
        "status": "in_progress",
    }


def test_polling_with_if_none_match_gets_304_until_the_game_changes(api, terziglio):
    first = api.get(f"/api/v1/games/{terziglio.pk}/")
    etag = first["ETag"]
    assert api.get(f"/api/v1/games/{terziglio.pk}/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    post_hand(api, terziglio, G1[0])
    assert api.get(f"/api/v1/games/{terziglio.pk}/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_post_a_hand_returns_201_with_totals_version_etag_and_status(api, terziglio):
    response = post_hand(api, terziglio, G1[0])
    assert response.status_code == 201
    data = response.json()
    assert (data["number"], data["deltas"], data["totals"], data["version"]) == (
        1,
        [2, -1, -1],
        [2, -1, -1],
        1,
    )
    assert data["document"] == {**G1[0], "sweep": "none"}
    assert data["status"] == "in_progress" and data["game"]["next_dealer"] == 1
    hand = Hand.objects.get(game=terziglio, number=1)
    assert response["ETag"] == data["etag"] == f'"h{hand.pk}.1"'


def test_a_resend_gets_the_first_answer_and_a_different_body_with_the_same_key_is_422(
    api, terziglio
):
    first = post_hand(api, terziglio, G1[0], key="same")
    again = post_hand(api, terziglio, G1[0], key="same")
    assert again.status_code == 201 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(game=terziglio).count() == 1
    other = post_hand(api, terziglio, G1[1], key="same")
    assert other.status_code == 422
    assert fields(other) == {(None, "Idempotency-Key", "reused")}
    assert Hand.objects.filter(game=terziglio).count() == 1


def test_a_hand_without_an_idempotency_key_is_refused(api, terziglio):
    response = api.post(f"/api/v1/games/{terziglio.pk}/hands/", G1[0], format="json")
    assert response.status_code == 400
    assert fields(response) == {(None, "Idempotency-Key", "required")}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({**G1[0], "soloist_points": 12}, {(1, "soloist_points", "range")}),
        ({**G1[0], "deltas": [1, 1, -2]}, {(1, "deltas", "unknown_key")}),
        ([1, 2], {(1, "document", "type")}),
        ("hand", {(1, "document", "type")}),
    ],
)
def test_an_invalid_hand_is_a_400_naming_the_field_and_changes_nothing(
    api, terziglio, body, expected
):
    response = post_hand(api, terziglio, body)
    assert response.status_code == 400
    assert fields(response) == expected
    assert not Hand.objects.filter(game=terziglio).exists()


def test_malformed_json_is_a_400_not_a_500(api, terziglio):
    response = api.generic(
        "POST",
        f"/api/v1/games/{terziglio.pk}/hands/",
        "{nope",
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="x",
    )
    assert response.status_code == 400
    assert fields(response) == {(None, "document", "parse_error")}


def test_a_hand_after_the_end_is_refused(api, terziglio):
    for i, document in enumerate(G1):
        assert post_hand(api, terziglio, document, key=f"k{i}").status_code == 201
    response = post_hand(api, terziglio, {"dealer": 1, "outcome": "passed_out"}, key="late")
    assert response.status_code == 400
    assert fields(response) == {(8, "game", "game_finished")}


def test_correcting_a_hand_needs_if_match_and_a_fresh_version(api, terziglio):
    post_hand(api, terziglio, G1[0])
    url = f"/api/v1/games/{terziglio.pk}/hands/1/"
    read = api.get(url)["ETag"]
    new = {**G1[0], "soloist_points": 5}
    assert api.put(url, new, format="json").status_code == 428
    assert api.put(url, new, format="json", HTTP_IF_MATCH="*").status_code == 428
    assert api.put(url, new, format="json", HTTP_IF_MATCH='"1"').status_code == 412
    assert api.put(url, new, format="json", HTTP_IF_MATCH=f"W/{read}").status_code == 412
    response = api.put(
        url, {"document": new, "reason": "miscounted"}, format="json", HTTP_IF_MATCH=read
    )
    assert response.status_code == 200
    hand = Hand.objects.get(game=terziglio, number=1)
    assert (response.json()["deltas"], response.json()["version"], response["ETag"]) == (
        [-2, 1, 1],
        2,
        f'"h{hand.pk}.2"',
    )
    assert AuditEvent.objects.get(action="correct_hand").reason == "miscounted"
    stale = api.put(url, new, format="json", HTTP_IF_MATCH=read)
    assert stale.status_code == 412
    assert stale.json()["errors"][0]["current_version"] == 2


def test_a_correction_the_replay_rejects_is_a_400_naming_the_hand_that_failed(api, terziglio):
    for i, document in enumerate(G1):
        post_hand(api, terziglio, document, key=f"k{i}")
    new = {
        "dealer": 1,
        "outcome": "played",
        "soloist": 0,
        "contract": "scegliete",
        "soloist_points": 6,
    }
    url = f"/api/v1/games/{terziglio.pk}/hands/5/"
    response = api.put(url, new, format="json", HTTP_IF_MATCH=api.get(url)["ETag"])
    assert response.status_code == 400
    assert fields(response) == {(6, "game", "game_finished")}


def test_correcting_several_hands_at_once(api, terziglio):
    for i, document in enumerate(G1[:2]):
        post_hand(api, terziglio, document, key=f"k{i}")
    hands = api.get(f"/api/v1/games/{terziglio.pk}/").json()["hands"]
    body = {
        "hands": {"1": {**G1[0], "dealer": 2}, "2": {**G1[1], "dealer": 0}},
        "versions": {"1": hands[0]["etag"], "2": hands[1]["etag"].strip('"')},
    }
    response = api.post(f"/api/v1/games/{terziglio.pk}/corrections/", body, format="json")
    assert response.status_code == 200
    assert response.json()["next_dealer"] == 1
    assert (
        api.post(
            f"/api/v1/games/{terziglio.pk}/corrections/", {"hands": []}, format="json"
        ).status_code
        == 400
    )


def test_deleting_a_hand_needs_a_reason(api, terziglio):
    post_hand(api, terziglio, G1[0])
    url = f"/api/v1/games/{terziglio.pk}/hands/1/"
    read = api.get(url)["ETag"]
    response = api.delete(url, format="json", HTTP_IF_MATCH=read)
    assert response.status_code == 400 and fields(response) == {(None, "reason", "required")}
    response = api.delete(url, {"reason": "wrong table"}, format="json", HTTP_IF_MATCH=read)
    assert response.status_code == 200 and response.json()["hand_count"] == 0
    assert AuditEvent.objects.get(action="remove_hand").before["deltas"] == [2, -1, -1]
    assert api.delete(url + "?reason=again", HTTP_IF_MATCH=read).status_code == 404


def test_abandon_and_audit(api, terziglio):
    assert (
        api.post(
            f"/api/v1/games/{terziglio.pk}/abandon/", {"reason": "power cut"}, format="json"
        ).status_code
        == 200
    )
    trail = api.get(f"/api/v1/games/{terziglio.pk}/audit/").json()["results"]
    assert [e["action"] for e in trail] == ["start_game", "abandon_game"]
    assert trail[1]["reason"] == "power cut" and trail[1]["actor"] == "Olga"


def test_token_authentication_for_other_clients(olga, terziglio):
    token = Token.objects.create(user=olga)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert post_hand(client, terziglio, G1[0]).status_code == 201
    obtained = APIClient().post(
        "/api/v1/auth/token/", {"username": "olga", "password": "pw-olga"}, format="json"
    )
    assert obtained.json()["token"] == token.key


def test_an_organizer_of_club_a_gets_403_or_404_on_every_club_b_url(oscar, other_club, bea):
    game = services.start_game(
        club=other_club, ruleset="briscola", players=["Elena", "Franco"], by=Actor.for_user(bea)
    )
    services.record_hand(
        game=game, document={"dealer": 0, "points": [70, 50]}, by=Actor.for_user(bea)
    )
    private = new_club(bea, name="Privato", slug="privato")
    hidden = services.start_game(
        club=private, ruleset="briscola", players=["X", "Y"], by=Actor.for_user(bea)
    )
    services.record_hand(
        game=hidden, document={"dealer": 0, "points": [70, 50]}, by=Actor.for_user(bea)
    )
    client = api_as(oscar)
    for g in (game, hidden):
        base = f"/api/v1/games/{g.pk}"
        calls = [
            client.get(f"{base}/"),
            client.get(f"{base}/export/"),
            client.get(f"{base}/audit/"),
            client.get(f"{base}/hands/1/"),
            post_hand(client, g, {"dealer": 1, "points": [70, 50]}),
            client.put(
                f"{base}/hands/1/",
                {"dealer": 0, "points": [60, 60]},
                format="json",
                HTTP_IF_MATCH=f'"g{g.pk}.2"',
            ),
            client.delete(f"{base}/hands/1/?reason=x"),
            client.delete(f"{base}/hands/1/?reason=x", HTTP_IF_MATCH=f'"g{g.pk}.2"'),
            client.post(
                f"{base}/corrections/",
                {"hands": {"1": {"dealer": 0, "points": [60, 60]}}},
                format="json",
            ),
            client.post(
                f"{base}/corrections/",
                {"hands": {"1": {"dealer": 0, "points": [60, 60]}}},
                format="json",
                HTTP_IF_MATCH=f'"g{g.pk}.2"',
            ),
            client.post(f"{base}/abandon/", {"reason": "x"}, format="json"),
        ]
        assert all(r.status_code in (403, 404) for r in calls), [r.status_code for r in calls]
    for slug in ("due", "privato"):
        assert client.post(
            f"/api/v1/clubs/{slug}/games/",
            {"ruleset": "briscola", "players": ["A", "B"]},
            format="json",
        ).status_code in (403, 404)
    assert client.get("/api/v1/clubs/privato/games/").status_code == 404
    assert Hand.objects.filter(game__club__in=[other_club, private]).count() == 2
    assert not AuditEvent.objects.filter(actor=oscar).exists()


def test_public_clubs_finished_games_are_readable_anonymously(other_club, bea):
    by = Actor.for_user(bea)
    game = services.start_game(
        club=other_club,
        ruleset="briscola",
        players=["Elena", "Franco"],
        options={"hands_to_win": 1},
        by=by,
    )
    anonymous = APIClient()
    assert anonymous.get(f"/api/v1/games/{game.pk}/").status_code == 404
    services.record_hand(game=game, document={"dealer": 0, "points": [70, 50]}, by=by)
    assert anonymous.get(f"/api/v1/games/{game.pk}/").json()["status"] == "finished"
    assert [g["id"] for g in anonymous.get("/api/v1/clubs/due/games/").json()["results"]] == [
        game.pk
    ]
    assert post_hand(anonymous, game, {"dealer": 1, "points": [70, 50]}).status_code == 403


def test_the_openapi_schema_describes_the_api(api):
    response = api.get("/api/schema/?format=json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    assert "/api/v1/games/{game_id}/hands/" in paths
    assert "/api/v1/rulesets/" in paths
    docs = api.get("/api/docs/")
    assert docs.status_code == 200 and b"cdn" not in docs.content.lower()


def test_a_hand_post_takes_a_fixed_number_of_queries_whatever_the_game_length(olga, club, players):
    game = services.start_game(
        club=club,
        ruleset="turkish",
        players=players,
        options={"deals": 200},
        by=Actor.for_user(olga),
    )
    token = Token.objects.create(user=olga)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    counts = []
    for number in range(1, 41):
        document = {
            "dealer": (number - 1) % 4,
            "went_out": 0,
            "penalties": [{"seat": s, "points": 5} for s in (1, 2, 3)],
        }
        with CaptureQueriesContext(connection) as queries:
            assert post_hand(client, game, document, key=f"k{number}").status_code == 201
        counts.append(len(queries))
    # Inside the test's transaction the service's atomic block is a SAVEPOINT / RELEASE pair,
    # where a real request has BEGIN / COMMIT: the same count. The first request also reads
    # the token (then cached: scoring/api/authentication.py).
    assert counts[0] == counts[1] + 1
    assert set(counts[1:]) == {counts[1]}
    assert counts[1] <= 7, [q["sql"] for q in queries.captured_queries]


@pytest.mark.parametrize(
    ("path", "body", "expected"),
    [
        ("corrections/", {"hands": {"1": G1[0]}, "colour": 1}, {(None, "colour", "unknown_key")}),
        ("corrections/", {"hands": {"1": [1]}}, {(None, "hands.1", "type")}),
        ("corrections/", {"hands": {"one": G1[0]}}, {(None, "hands.one", "type")}),
        ("corrections/", {"hands": {"1": G1[0]}, "versions": {"1": 1}}, {
            (None, "versions.1", "type")}),
        ("corrections/", {"hands": {"1": G1[0]}, "reason": 3}, {(None, "reason", "type")}),
        ("abandon/", {"reason": 5}, {(None, "reason", "type")}),
        ("abandon/", {"reason": "x", "why": "power"}, {(None, "why", "unknown_key")}),
    ],
)  # fmt: skip
def test_a_body_with_an_unknown_key_or_a_wrong_type_is_a_400_naming_it(
    api, terziglio, path, body, expected
):
    post_hand(api, terziglio, G1[0])
    response = api.post(f"/api/v1/games/{terziglio.pk}/{path}", body, format="json")
    assert response.status_code == 400
    assert fields(response) == expected
    assert all(e["message"] for e in response.json()["errors"])
    terziglio.refresh_from_db()
    assert terziglio.status == "in_progress" and terziglio.hand_count == 1


def test_removing_a_hand_refuses_an_unknown_key(api, terziglio):
    post_hand(api, terziglio, G1[0])
    url = f"/api/v1/games/{terziglio.pk}/hands/1/"
    response = api.delete(
        url, {"reason": "x", "hand": 1}, format="json", HTTP_IF_MATCH=api.get(url)["ETag"]
    )
    assert response.status_code == 400 and fields(response) == {(None, "hand", "unknown_key")}
    assert Hand.objects.filter(game=terziglio).count() == 1
