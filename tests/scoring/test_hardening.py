"""Every bad input gets a 4xx, never a 500, and under /api/ every error has the one shape.

Found by a tester: JSON nested 100,000 deep, a NUL byte in a name (PostgreSQL), a numbered key
``"²"``, huge numbers in paths, HTML error pages under /api/, 403 for a bad token.
"""

import json

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import selectors
from scoring.api.parsers import nesting_exceeds
from scoring.forms.clubs import PlayerForm
from scoring.forms.games import ReasonForm, StartGameForm
from scoring.models import Game, Player
from tests.clients import api_as
from tests.tournaments.helpers import make_competition
from tournaments.forms import CompetitionForm
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000
HAND = {"dealer": 0, "outcome": "passed_out"}


def errors(response) -> set[tuple]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def assert_error_shape(response, status: int) -> None:
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"errors"} and body["errors"]
    for error in body["errors"]:
        assert set(error) == {"hand", "field", "code", "message"}
        assert isinstance(error["code"], str) and error["message"]


def post_raw(client, url: str, body: str | bytes, **headers):
    return client.post(url, body, content_type="application/json", **headers)


# -- JSON depth and size, before parsing --------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/games/{game}/hands/",
        "/api/v1/games/{game}/corrections/",
        "/api/v1/clubs/uno/games/",
        "/api/v1/clubs/uno/competitions/",
        "/api/v1/schedule/",
        "/api/v1/auth/token/",
    ],
)
def test_json_nested_100000_deep_is_a_400_not_a_recursion_error(api, terziglio, url):
    response = post_raw(api, url.format(game=terziglio.pk), DEEP, HTTP_IDEMPOTENCY_KEY="k1")
    assert_error_shape(response, 400)
    assert errors(response) == {("document", "too_deep")}
    assert str(settings.JSON_MAX_DEPTH) in response.json()["errors"][0]["message"]


def test_nesting_up_to_the_limit_is_read_and_refused_by_the_rules_not_the_parser(api, terziglio):
    depth = settings.JSON_MAX_DEPTH
    nested = "[" * (depth - 1) + "]" * (depth - 1)
    body = '{"dealer": 0, "outcome": "passed_out", "x": ' + nested + "}"
    response = post_raw(
        api, f"/api/v1/games/{terziglio.pk}/hands/", body, HTTP_IDEMPOTENCY_KEY="k2"
    )
    assert response.status_code == 400
    assert errors(response) == {("x", "unknown_key")}


def test_brackets_inside_strings_do_not_count_as_nesting():
    depth = 4
    assert not nesting_exceeds(json.dumps({"reason": "[[[[[[[[{{{{{{"}), depth)
    assert not nesting_exceeds(json.dumps({"a": 'quote \\" [[[[[[[[[[ \\\\'}), depth)
    assert nesting_exceeds("[[[[[]]]]]", depth)
    assert not nesting_exceeds("[[[[]]]]", depth)
    assert nesting_exceeds('{"a": "\\\\", "b": [[[[["x"]]]]]}', depth)


def test_a_body_over_the_limit_is_a_413_in_the_error_shape(api, terziglio):
    body = json.dumps({"dealer": 0, "outcome": "passed_out", "pad": "x" * 300_000})
    response = post_raw(
        api, f"/api/v1/games/{terziglio.pk}/hands/", body, HTTP_IDEMPOTENCY_KEY="k3"
    )
    assert_error_shape(response, 413)
    assert errors(response) == {("document", "too_large")}
    assert not terziglio.hands.exists()


def test_the_form_body_limit_matches_the_api_limit():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.REQUEST_MAX_BYTES


# -- NUL and other control characters ----------------------------------------------------------


def test_a_nul_in_a_player_name_of_an_imported_game_is_a_400_naming_the_player(api, club):
    document = {"ruleset": "terziglio", "players": ["Anna", "Bru\u0000no", "Carla"]}
    response = api.post("/api/v1/clubs/uno/games/", document, format="json")
    assert_error_shape(response, 400)
    assert errors(response) == {("players[1]", "control_character")}
    assert not Game.objects.exists() and not Player.objects.filter(club=club).exists()


@pytest.mark.parametrize("bad", ["\u0007", "\u202e", "\u009b", "\u2066"])
def test_control_and_bidi_characters_in_imported_names_and_titles_are_refused(api, club, bad):
    document = {"ruleset": "terziglio", "players": ["Anna", f"Bru{bad}no", "Carla"]}
    document["title"] = f"Sera{bad}"
    response = api.post("/api/v1/clubs/uno/games/", document, format="json")
    assert response.status_code == 400
    assert errors(response) == {
        ("players[1]", "control_character"),
        ("title", "control_character"),
    }


def test_a_nul_anywhere_in_a_body_is_refused_by_path_before_the_database(api, terziglio):
    body = {"hands": {"1": {"dealer": 0, "contract": "x\u0000"}}, "reason": "ok"}
    response = api.post(f"/api/v1/games/{terziglio.pk}/corrections/", body, format="json")
    assert_error_shape(response, 400)
    assert errors(response) == {("hands.1.contract", "control_character")}
    key = api.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        {"dealer": 0, "outcome": "passed_out", "a\u0000": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k4",
    )
    assert errors(key) == {("a\u0000", "control_character")}


def test_a_lone_surrogate_is_refused_not_a_500(api, terziglio):
    body = '{"dealer": 0, "outcome": "passed_out", "note": "\\ud800"}'
    response = post_raw(
        api, f"/api/v1/games/{terziglio.pk}/hands/", body, HTTP_IDEMPOTENCY_KEY="k5"
    )
    assert_error_shape(response, 400)
    assert errors(response) == {("note", "control_character")}


def test_a_control_character_in_a_competition_name_is_a_400_naming_the_name(club, olga):
    for name in ("Coppa\u0000", "Coppa\u0007", "Coppa\u202ed", "Cop\npa"):
        response = api_as(olga).post(
            "/api/v1/clubs/uno/competitions/",
            {"name": name, "rulesets": ["briscola"]},
            format="json",
        )
        assert_error_shape(response, 400)
        assert errors(response) == {("name", "control_character")}
    assert not Competition.objects.exists()


def test_a_reason_may_span_lines_but_not_hold_control_characters(api, terziglio):
    refused = api.post(
        f"/api/v1/games/{terziglio.pk}/abandon/", {"reason": "gone\u0008"}, format="json"
    )
    assert errors(refused) == {("reason", "control_character")}
    accepted = api.post(
        f"/api/v1/games/{terziglio.pk}/abandon/", {"reason": "gone\nhome"}, format="json"
    )
    assert accepted.status_code == 200


def test_pages_show_the_control_character_error_next_to_the_field(club):
    player = PlayerForm(data={"display_name": "An\u0007na"})
    assert "U+0007" in player.errors["display_name"][0]
    competition = CompetitionForm(data={"name": "Coppa\u202e"})
    assert "U+202E" in competition.errors["name"][0]
    start = StartGameForm(data={"ruleset": "terziglio", "new_0": "Bea\u0000"}, club=club)
    assert "new_0" in start.errors
    assert ReasonForm(data={"reason": "perché\u0001"}).errors["reason"]
    assert ReasonForm(data={"reason": "per\tché"}).is_valid()


def test_the_models_refuse_control_characters_for_the_admin(club):
    player = Player(club=club, display_name="Anna\u0000")
    with pytest.raises(Exception) as caught:
        player.full_clean()
    assert "display_name" in caught.value.message_dict


# -- keys and paths ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["²", "٣", "1e3", "-1", "0x1", "9999999999"])
def test_a_numbered_key_that_is_not_ascii_digits_is_a_400_naming_the_key(api, terziglio, key):
    body = {"hands": {key: HAND}, "versions": {key: 1}}
    response = api.post(f"/api/v1/games/{terziglio.pk}/corrections/", body, format="json")
    assert_error_shape(response, 400)
    assert errors(response) == {(f"hands.{key}", "type"), (f"versions.{key}", "type")}


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/99999999999999999999/",
        "/api/v1/games/99999999999999999999/hands/1/",
        "/api/v1/games/1/hands/99999999999999999999/",
        "/api/v1/competitions/99999999999999999999/",
        "/api/v1/competitions/99999999999999999999/rounds/99999999999999999999/",
        "/api/v1/games/٣/",
        "/api/v1/games/²/",
    ],
)
def test_huge_or_non_ascii_numbers_in_paths_are_404(api, terziglio, path):
    response = api.get(path)
    assert_error_shape(response, 404)


def test_a_bad_status_filter_is_a_400_not_a_database_error(api, terziglio):
    response = api.get("/api/v1/clubs/uno/games/?status=fin%00ished")
    assert_error_shape(response, 400)
    assert errors(response) == {("status", "choice")}
    assert api.get("/api/v1/clubs/uno/games/?status=in_progress").status_code == 200


def test_an_empty_status_filter_is_refused_as_the_schema_says(api, terziglio):
    # The schema's enum has no "": Schemathesis sent ``?status=`` and was answered every game.
    response = api.get("/api/v1/clubs/uno/games/?status=")
    assert_error_shape(response, 400)
    assert errors(response) == {("status", "choice")}
    assert api.get("/api/v1/clubs/uno/games/").status_code == 200


# -- every error under /api/ in the one shape --------------------------------------------------


def test_an_unknown_api_url_is_a_json_404(api):
    assert_error_shape(api.get("/api/v1/nothing-here/"), 404)
    assert_error_shape(Client().get("/api/nothing"), 404)


def test_pages_keep_their_html_404():
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_crash_under_api_is_a_json_500(api, monkeypatch):
    def crash():
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "rulesets_description", crash)
    client = APIClient(raise_request_exception=False)
    response = client.get("/api/v1/rulesets/")
    assert_error_shape(response, 500)
    assert "a bug" not in response.content.decode()


def test_a_wrong_method_and_a_wrong_media_type_are_json(api, terziglio):
    response = api.patch(f"/api/v1/games/{terziglio.pk}/", {}, format="json")
    assert_error_shape(response, 405)
    assert "GET" in response["Allow"]
    response = api.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        "dealer=0",
        content_type="text/plain",
        HTTP_IDEMPOTENCY_KEY="k6",
    )
    assert_error_shape(response, 415)


def test_a_bad_token_is_401_with_www_authenticate(terziglio):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.get("/api/v1/clubs/")
    assert_error_shape(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_a_missing_token_where_one_is_required_is_401(terziglio):
    response = APIClient().post(
        f"/api/v1/games/{terziglio.pk}/abandon/", {"reason": "x"}, format="json"
    )
    assert_error_shape(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_a_good_token_still_works_and_a_session_still_needs_its_csrf_token(olga, terziglio):
    token = Token.objects.create(user=olga)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(olga)
    assert browser.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200
    response = browser.post(
        f"/api/v1/games/{terziglio.pk}/abandon/",
        json.dumps({"reason": "x"}),
        content_type="application/json",
    )
    assert_error_shape(response, 403)
    assert "CSRF" in response.json()["errors"][0]["message"]


# -- the schema says what the answers are (schemathesis runs it in CI: .ci/schemathesis) --------


def _operation(api, path: str, method: str) -> dict:
    schema = json.loads(api.get("/api/schema/?format=json").content)
    return schema["paths"][path][method]


def _answer_schema(operation: dict, status: str) -> dict:
    return operation["responses"][status]["content"]["application/json"]["schema"]


@pytest.mark.parametrize(
    ("path", "url"),
    [
        ("/api/v1/rulesets/", "/api/v1/rulesets/"),
        ("/api/v1/competitions/{competition_id}/rounds/", "/api/v1/competitions/{id}/rounds/"),
    ],
)
def test_answers_that_are_lists_are_documented_as_pages_of_lists(api, club, olga, path, url):
    competition = make_competition(club, olga)
    answer = api.get(url.format(id=competition.pk))
    assert answer.status_code == 200 and isinstance(answer.json()["results"], list)
    page = _answer_schema(_operation(api, path, "get"), "200")
    name = page["$ref"].rsplit("/", 1)[-1]
    component = json.loads(api.get("/api/schema/?format=json").content)["components"]["schemas"]
    assert component[name]["properties"]["results"]["type"] == "array"


def test_the_token_endpoint_documents_its_refusals(api, olga):
    operation = _operation(api, "/api/v1/auth/token/", "post")
    assert {"200", "400", "401"} <= set(operation["responses"])
    refused = APIClient().post("/api/v1/auth/token/", {}, format="json")
    assert_error_shape(refused, 400)


def test_an_idempotency_key_with_a_nul_is_refused_before_the_database(api, terziglio):
    response = api.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        HAND,
        format="json",
        HTTP_IDEMPOTENCY_KEY="k\x00ey",
    )
    assert_error_shape(response, 400)
    assert errors(response) == {("Idempotency-Key", "required")}
    assert not terziglio.hands.exists()
