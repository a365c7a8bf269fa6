"""The pages for a phone at the table: start a game, enter hands, correct them, table links."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from scoring import services
from scoring.etags import hand_tag
from scoring.models import AuditEvent, Game, Hand, TableLink
from scoring.rules import engine
from scoring.services import Actor
from tests.clients import field_error, login
from tests.scoring.rules.games import hand_documents

G1 = hand_documents("terziglio", "G1")

pytestmark = pytest.mark.django_db


def shown(game, number):
    """The validator a hand's page puts in its forms: that hand, at its version."""
    return str(hand_tag(Hand.objects.get(game=game, number=number)))


def text(response):
    return response.content.decode()


SOLOIST_FORM = {
    "dealer": "0",
    "outcome": "played",
    "soloist": "0",
    "contract": "chiamo",
    "entry": "points",
    "soloist_points": "7",
    "sweep": "none",
}


def test_the_game_page_shows_totals_next_dealer_the_form_and_the_history(olga, terziglio):
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    html = login(olga).get(f"/g/{terziglio.pk}/").content.decode()
    assert 'class="score">2<' in html and 'class="score">-1<' in html
    assert "Next dealer: <strong>Bruno</strong>" in html
    assert 'id="hand-form"' in html and "Anna · Chiamo · 7 points" in html


def test_a_hand_through_the_form_and_through_the_api_stores_identical_rows(
    olga, club, players, api
):
    by = Actor.for_user(olga)
    one = services.start_game(club=club, ruleset="terziglio", players=players[:3], by=by)
    two = services.start_game(club=club, ruleset="terziglio", players=players[:3], by=by)
    response = login(olga).post(f"/g/{one.pk}/hands/", SOLOIST_FORM)
    assert response.status_code == 302
    api.post(f"/api/v1/games/{two.pk}/hands/", G1[0], format="json", HTTP_IDEMPOTENCY_KEY="x")
    a, b = Hand.objects.get(game=one), Hand.objects.get(game=two)
    assert (a.number, a.document, a.deltas, a.side_points, a.version) == (
        b.number,
        b.document,
        b.deltas,
        b.side_points,
        b.version,
    )
    assert Game.objects.get(pk=one.pk).totals == Game.objects.get(pk=two.pk).totals


@pytest.mark.parametrize(
    ("ruleset", "n", "options", "form", "document"),
    [
        (
            "terziglio",
            3,
            {},
            SOLOIST_FORM | {"entry": "cards", "aces": "2", "thirds": "7", "last_trick": "on"},
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 0,
                "contract": "chiamo",
                "soloist_cards": {"aces": 2, "thirds": 7, "last_trick": True},
                "sweep": "none",
            },
        ),
        (
            "terziglio",
            3,
            {},
            {"dealer": "1", "outcome": "passed_out", "soloist": "2"},
            {"dealer": 1, "outcome": "passed_out"},
        ),
        (
            "calabrasella",
            3,
            {},
            {
                "dealer": "0",
                "outcome": "played",
                "soloist": "2",
                "entry": "points",
                "soloist_points": "35",
                "sweep": "soloist",
            },
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 2,
                "soloist_points": 35,
                "sweep": "soloist",
            },
        ),
        ("briscola", 2, {}, {"dealer": "0", "points_0": "67"}, {"dealer": 0, "points": [67, 53]}),
        (
            "briscola",
            4,
            {},
            {"dealer": "3", "points_0": "", "points_1": "75"},
            {"dealer": 3, "points": [45, 75]},
        ),
        (
            "briscola",
            3,
            {},
            {"dealer": "0", "points_0": "52", "points_1": "41", "points_2": "27"},
            {"dealer": 0, "points": [52, 41, 27]},
        ),
        (
            "turkish",
            4,
            {},
            {
                "dealer": "0",
                "went_out": "0",
                "entry": "cards",
                "court_1": "2",
                "tens_1": "1",
                "other_1": "3",
                "other_2": "2",
                "court_3": "1",
                "tens_3": "1",
                "other_3": "4",
            },
            {
                "dealer": 0,
                "went_out": 0,
                "cards_left": [
                    {"seat": 1, "court": 2, "tens": 1, "other": 3},
                    {"seat": 2, "court": 0, "tens": 0, "other": 2},
                    {"seat": 3, "court": 1, "tens": 1, "other": 4},
                ],
            },
        ),
        (
            "turkish",
            3,
            {},
            {"dealer": "2", "went_out": "1", "entry": "quick", "points_0": "35", "points_2": "10"},
            {
                "dealer": 2,
                "went_out": 1,
                "penalties": [{"seat": 0, "points": 35}, {"seat": 2, "points": 10}],
            },
        ),
        (
            "briscola_chiamata",
            5,
            {},
            {
                "dealer": "0",
                "outcome": "played",
                "caller": "1",
                "partner": "4",
                "target": "75",
                "caller_points": "72",
            },
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 1,
                "partner": 4,
                "target": 75,
                "caller_points": 72,
            },
        ),
        (
            "briscola_chiamata",
            5,
            {},
            {
                "dealer": "0",
                "outcome": "played",
                "caller": "3",
                "partner": "3",
                "target": "",
                "caller_points": "80",
            },
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 3,
                "partner": 3,
                "target": 61,
                "caller_points": 80,
            },
        ),
    ],
)
def test_each_rulesets_form_becomes_the_hand_document(
    olga, club, ruleset, n, options, form, document
):
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena"][:n]
    game = services.start_game(
        club=club, ruleset=ruleset, players=names, options=options, by=Actor.for_user(olga)
    )
    response = login(olga).post(f"/g/{game.pk}/hands/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert (
        Hand.objects.get(game=game).document
        == engine.play(game.scored(), document).hands[-1].document
    )


def test_a_rule_error_is_shown_next_to_its_field_and_nothing_is_saved(olga, terziglio):
    response = login(olga).post(
        f"/g/{terziglio.pk}/hands/", SOLOIST_FORM | {"soloist_points": "12"}
    )
    assert response.status_code == 400
    assert (
        field_error(response.content.decode(), "soloist_points")
        == "Soloist&#x27;s points: enter a number from 0 to 11, not 12."
    )
    assert 'value="12"' in response.content.decode()  # what was typed is still there
    assert not Hand.objects.exists()


def test_a_missing_choice_is_named(olga, terziglio):
    response = login(olga).post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM | {"soloist": ""})
    assert field_error(response.content.decode(), "soloist") == "Soloist: fill this in."


def test_the_outbox_gets_201_and_a_resend_stores_nothing_more(olga, terziglio):
    client = login(olga)
    form = SOLOIST_FORM | {"idempotency_key": "phone-abc"}
    first = client.post(f"/g/{terziglio.pk}/hands/", form, HTTP_X_OUTBOX="1")
    again = client.post(f"/g/{terziglio.pk}/hands/", form, HTTP_X_OUTBOX="1")
    hand = Hand.objects.get(game=terziglio, number=1)
    undo = {"url": f"/g/{terziglio.pk}/hands/1/undo/", "etag": f'"h{hand.pk}.1"', "seconds": 10}
    assert (first.status_code, first.json()) == (
        201,
        {"number": 1, "replayed": False, "undo": undo},
    )
    assert (again.status_code, again.json()) == (201, {"number": 1, "replayed": True})
    assert Hand.objects.count() == 1


def test_the_outbox_gets_the_form_back_with_its_errors(olga, terziglio):
    response = login(olga).post(
        f"/g/{terziglio.pk}/hands/",
        SOLOIST_FORM | {"soloist_points": "12", "idempotency_key": "k"},
        HTTP_X_OUTBOX="1",
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert html.lstrip().startswith("<form") and field_error(html, "soloist_points")


def test_starting_a_game_from_the_page(olga, club, players):
    client = login(olga)
    assert client.get("/c/uno/games/new/").status_code == 200
    data = {
        "ruleset": "terziglio",
        "terziglio__preset": "traditional",
        "seat_0": str(players[2].pk),
        "seat_1": str(players[0].pk),
        "new_2": "Zoe",
        "terziglio__target_score": "31",
        "terziglio__stack_multipliers": "on",
        "terziglio__tie_at_target": "play_on",
    }
    response = client.post("/c/uno/games/new/", data)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    assert list(game.seats.order_by("index").values_list("player__display_name", flat=True)) == [
        "Carla",
        "Anna",
        "Zoe",
    ]
    assert game.options["target_score"] == 31
    assert game.options["contract_values"]["solissimo"] == 3  # the preset


def test_start_game_errors_are_shown_next_to_the_fields(olga, club, players):
    data = {
        "ruleset": "terziglio",
        "seat_0": str(players[0].pk),
        "seat_1": str(players[0].pk),
        "terziglio__target_score": "0",
    }
    response = login(olga).post("/c/uno/games/new/", data)
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        field_error(html, "terziglio__target_score")
        == "Target score: enter a number from 1 to 1000, not 0."
    )
    assert "is already listed" in html and "This game is played by 3 to 4 players, not 2." in html
    assert not Game.objects.exists()


def test_correcting_and_removing_a_hand_from_its_page(olga, terziglio):
    by = Actor.for_user(olga)
    for document in G1[:3]:
        services.record_hand(game=terziglio, document=document, by=by)
    client = login(olga)
    page = client.get(f"/g/{terziglio.pk}/hands/1/").content.decode()
    assert "History of this hand" in page and 'value="7"' in page
    read = shown(terziglio, 1)
    assert f'name="etag" value="{escape(read)}"' in page
    response = client.post(
        f"/g/{terziglio.pk}/hands/1/",
        SOLOIST_FORM | {"soloist_points": "4", "etag": read, "reason": "recount"},
    )
    assert response.status_code == 302
    assert Hand.objects.get(game=terziglio, number=1).deltas == [-2, 1, 1]
    page = client.get(f"/g/{terziglio.pk}/hands/1/").content.decode()
    assert "recount" in page and "hand corrected" in page.lower()
    assert "✎" in client.get(f"/g/{terziglio.pk}/").content.decode()
    stale = client.post(
        f"/g/{terziglio.pk}/hands/1/", SOLOIST_FORM | {"soloist_points": "9", "etag": read}
    )
    assert stale.status_code == 400 and "This hand changed since you opened it" in text(stale)
    refused = client.post(
        f"/g/{terziglio.pk}/hands/2/",
        {"action": "remove", "reason": "wrong", "etag": shown(terziglio, 2)},
    )
    # Removed alone, hand 2 would leave hand 3 dealt out of turn: a dialog asks what was meant.
    assert refused.status_code == 409 and 'role="alertdialog"' in refused.content.decode()
    assert "Remove this hand and the one after it" in refused.content.decode()
    removed = client.post(
        f"/g/{terziglio.pk}/hands/3/",
        {"action": "remove", "reason": "not played", "etag": shown(terziglio, 3)},
    )
    assert removed.status_code == 302 and Hand.objects.filter(game=terziglio).count() == 2


def test_a_correction_that_breaks_a_later_hand_says_which(olga, terziglio):
    by = Actor.for_user(olga)
    for document in G1:
        services.record_hand(game=terziglio, document=document, by=by)
    form = {
        "dealer": "1",
        "outcome": "played",
        "soloist": "0",
        "contract": "scegliete",
        "entry": "points",
        "soloist_points": "6",
        "sweep": "none",
        "etag": shown(terziglio, 5),
    }
    response = login(olga).post(f"/g/{terziglio.pk}/hands/5/", form)
    assert response.status_code == 400
    assert "Hand 6: The game is finished" in response.content.decode()


def test_the_table_link_opens_only_its_game_after_the_right_pin(olga, club, players, terziglio):
    other = services.start_game(
        club=club, ruleset="briscola", players=players[:2], by=Actor.for_user(olga)
    )
    link = TableLink.objects.get(game=terziglio)
    phone = Client()
    assert phone.get(f"/g/{terziglio.pk}/").status_code == 404
    page = phone.get(f"/t/{link.token}/")
    assert page.status_code == 200 and "Anna · Bruno · Carla" in page.content.decode()
    wrong = "0000" if link.pin != "0000" else "1111"
    assert "Wrong PIN" in phone.post(f"/t/{link.token}/", {"pin": wrong}).content.decode()
    assert phone.post(f"/t/{link.token}/", {"pin": link.pin})["Location"] == f"/g/{terziglio.pk}/"
    assert 'id="hand-form"' in phone.get(f"/g/{terziglio.pk}/").content.decode()
    assert phone.post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM).status_code == 302
    hand = Hand.objects.get(game=terziglio)
    assert (hand.entered_via, hand.entered_by) == ("table", None)
    assert AuditEvent.objects.get(action="record_hand").via == "table"
    assert phone.get(f"/g/{other.pk}/").status_code == 404
    assert phone.post(f"/g/{other.pk}/hands/", {"dealer": "0", "points_0": "70"}).status_code == 404
    # The seated phone sees its table's card, to let the next phone in (issue 22, point 9),
    # but only organizers give the table a new link.
    assert phone.get(f"/g/{terziglio.pk}/table/").status_code == 200
    assert phone.post(f"/g/{terziglio.pk}/table/").status_code == 403


def test_the_table_card_shows_a_qr_code_and_the_pin(olga, terziglio):
    html = login(olga).get(f"/g/{terziglio.pk}/table/").content.decode()
    link = TableLink.objects.get(game=terziglio)
    assert "<svg" in html and link.pin in html and f"/t/{link.token}/" in html


def test_a_member_of_another_club_gets_404(bea, terziglio):
    client = login(bea)
    for url in (
        f"/g/{terziglio.pk}/",
        f"/g/{terziglio.pk}/hands/1/",
        f"/g/{terziglio.pk}/live/",
        f"/g/{terziglio.pk}/export/",
        "/c/uno/",
        "/c/uno/players/",
    ):
        assert client.get(url).status_code == 404, url
    assert client.post(f"/g/{terziglio.pk}/hands/", SOLOIST_FORM).status_code == 404
    assert not Hand.objects.exists()


def test_the_live_view_answers_304_while_the_game_is_unchanged(olga, terziglio):
    client = login(olga)
    first = client.get(f"/g/{terziglio.pk}/live/")
    assert first.status_code == 200
    assert (
        client.get(f"/g/{terziglio.pk}/live/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    )
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    assert (
        client.get(f"/g/{terziglio.pk}/live/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    )


def test_the_scoreboard_answers_304_without_rendering_while_the_game_is_unchanged(
    olga, terziglio, django_assert_num_queries
):
    """A scoreboard fetches its totals at each event of the game's stream, and again after each
    reconnection (``hello``) and poll: the unchanged game costs the reader's lookups only (the
    game, the session, its user, the membership), not the hands nor a render."""
    client = login(olga)
    url = f"/g/{terziglio.pk}/board/live/"
    services.record_hand(game=terziglio, document=G1[0], by=Actor.for_user(olga))
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert first["ETag"] != client.get(f"/g/{terziglio.pk}/live/")["ETag"]
    with django_assert_num_queries(4):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    services.record_hand(game=terziglio, document=G1[1], by=Actor.for_user(olga))
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_game_page_with_100_hands_takes_a_fixed_number_of_queries(olga, club, players):
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="turkish", players=players, options={"deals": 200}, by=by
    )
    client = login(olga)

    def count():
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/g/{game.pk}/").status_code == 200
        return len(queries)

    for number in range(1, 101):
        services.record_hand(
            game=game,
            document={
                "dealer": (number - 1) % 4,
                "went_out": number % 4,
                "penalties": [{"seat": s, "points": 5} for s in range(4) if s != number % 4],
            },
            by=by,
        )
        if number == 1:
            one = count()
    assert count() == one <= 8


def test_players_page_adds_a_player_and_reports_a_duplicate(olga, club, players):
    client = login(olga)
    assert client.post("/c/uno/players/", {"display_name": "Zoe"}).status_code == 302
    response = client.post("/c/uno/players/", {"display_name": "zoe"})
    assert field_error(response.content.decode(), "display_name") == "zoe is already listed."


def test_abandoning_needs_a_reason(olga, terziglio):
    client = login(olga)
    client.post(f"/g/{terziglio.pk}/abandon/", {"reason": ""})
    assert Game.objects.get(pk=terziglio.pk).status == "in_progress"
    client.post(f"/g/{terziglio.pk}/abandon/", {"reason": "rain"})
    assert Game.objects.get(pk=terziglio.pk).status == "abandoned"
    assert "Abandoned: rain" in client.get(f"/g/{terziglio.pk}/").content.decode()


def test_htmx_and_its_debug_helper_are_loaded_once_with_debug_on(olga, terziglio, settings):
    """Issue 21, point 14: ``{% htmx_script %}`` already adds django-htmx's debug script when
    DEBUG is on; the page must not load it a second time."""
    settings.DEBUG = True
    page = login(olga).get(f"/g/{terziglio.pk}/").content.decode()
    assert page.count("django_htmx/django-htmx.js") == 1
    assert page.count("django_htmx/htmx-2.min.js") == 1
