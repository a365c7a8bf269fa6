"""Undoing the hand just saved, and the two removals a player means when removing a middle hand
breaks the deal order (issue 10, points 4 and 5): services, and the pages that call them."""

import json
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring import services
from scoring.etags import game_tag, hand_tag
from scoring.models import AuditEvent, Game, Hand
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.scoring.test_services import G1, codes, play, snapshot

pytestmark = pytest.mark.django_db


def dealers(game):
    return list(game.hands.order_by("number").values_list("number", "document__dealer"))


# -- remove this hand and the ones after it -----------------------------------------------------


def test_removing_a_hand_and_the_ones_after_it_keeps_the_earlier_hands(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:4], by)
    seated = [s.player for s in terziglio.seats.order_by("index")]
    alone = services.start_game(club=terziglio.club, ruleset="terziglio", players=seated, by=by)
    kept = snapshot(play(alone, G1[:1], by))
    stored = list(game.hands.order_by("number").values_list("document", flat=True))
    read = [hand_tag(Hand.objects.get(game=game, number=2))]
    game = services.remove_hands_from(
        game=game, number=2, by=by, reason="hand 2 was a misdeal", expected=read
    )
    assert dealers(game) == [(1, G1[0]["dealer"])]
    assert snapshot(game)[:3] == kept[:3]
    removed = AuditEvent.objects.filter(game=game, action="remove_hand").order_by("hand_number")
    assert [(e.hand_number, e.reason, e.before["document"]) for e in removed] == [
        (n, "hand 2 was a misdeal", stored[n - 1]) for n in (2, 3, 4)
    ]


def test_removing_the_ones_after_needs_a_reason_and_the_hand_the_client_saw(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:3], by)
    before = snapshot(game)
    with pytest.raises(RuleViolation) as caught:
        services.remove_hands_from(game=game, number=2, by=by, reason=" ")
    assert codes(caught.value) == {(None, "reason", "required")}
    stale = [hand_tag(Hand.objects.get(game=game, number=3))]
    with pytest.raises(services.VersionConflict):
        services.remove_hands_from(game=game, number=2, by=by, reason="x", expected=stale)
    with pytest.raises(services.HandNotFound):
        services.remove_hands_from(game=game, number=9, by=by, reason="x")
    assert snapshot(game) == before


# -- remove only this hand and fix the dealers ---------------------------------------------------


def test_fixing_the_dealers_gives_each_later_hand_the_dealer_in_turn(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:4], by)
    assert services.dealers_fixable(game=game, number=2)
    stored = [h.document for h in Hand.objects.filter(game=game).order_by("number")]
    game = services.remove_hand_fixing_dealers(
        game=game, number=2, by=by, reason="entered twice", expected=[game_tag(game)]
    )
    first = G1[0]["dealer"]
    assert dealers(game) == [(1, first), (2, (first + 1) % 3), (3, (first + 2) % 3)]
    # Everything but the dealer is kept, and the figures are those of a replay.
    for hand, original in zip(game.hands.order_by("number")[1:], stored[2:4], strict=True):
        assert {k: v for k, v in hand.document.items() if k != "dealer"} == {
            k: v for k, v in original.items() if k != "dealer"
        }
        assert hand.version == 2
    game.refresh_from_db()
    assert game.hand_count == 3
    assert sum(game.totals) == 0
    events = AuditEvent.objects.filter(game=game, at__isnull=False).exclude(
        action__in=["record_hand", "start_game"]
    )
    assert sorted((e.action, e.hand_number, e.reason) for e in events) == [
        ("correct_hand", 2, "entered twice"),
        ("correct_hand", 3, "entered twice"),
        ("remove_hand", 2, "entered twice"),
    ]


def test_fixing_the_dealers_is_refused_when_a_later_hand_no_longer_fits(club, players, olga):
    """Four at a Terziglio table: the dealer sits out. Hand 3's soloist (Bruno) would become its
    dealer, who gets no cards: the replay refuses, nothing changes."""
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="terziglio", players=players, by=by)
    documents = [
        {"dealer": 0, "outcome": "passed_out"},
        {"dealer": 1, "outcome": "played", "soloist": 2, "contract": "solo", "soloist_points": 7},
        {"dealer": 2, "outcome": "played", "soloist": 1, "contract": "solo", "soloist_points": 7},
    ]
    game = play(game, documents, by)
    before = snapshot(game)
    assert not services.dealers_fixable(game=game, number=2)
    with pytest.raises(RuleViolation) as caught:
        services.remove_hand_fixing_dealers(game=game, number=2, by=by, reason="x")
    assert {p.hand for p in caught.value.problems} == {3}
    assert snapshot(game) == before


# -- undo -------------------------------------------------------------------------------------


def test_the_hand_just_saved_is_undone_by_who_saved_it_and_audited(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    hand = Hand.objects.get(game=game, number=2)
    game = services.undo_hand(
        game=game, number=2, by=by, expected=[hand_tag(hand)], within_seconds=10
    )
    assert game.hand_count == 1
    assert list(game.hands.values_list("number", flat=True)) == [1]
    event = AuditEvent.objects.get(game=game, action="undo_hand")
    assert (event.hand_number, event.actor, event.before["document"]) == (2, olga, G1[1])


def test_a_retried_undo_never_removes_a_second_hand(terziglio, olga):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:2], by)
    read = [hand_tag(Hand.objects.get(game=game, number=2))]
    services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    with pytest.raises(services.HandNotFound):
        services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    play(Game.objects.get(pk=game.pk), [G1[1]], by)  # hand 2 entered again: a new row
    with pytest.raises(services.VersionConflict):
        services.undo_hand(game=game, number=2, by=by, expected=read, within_seconds=10)
    assert Game.objects.get(pk=game.pk).hand_count == 2


@pytest.mark.parametrize("why", ["too_late", "not_the_last", "corrected", "someone_else"])
def test_undo_is_refused_after_the_window_or_from_another_client(terziglio, olga, oscar, why):
    by = Actor.for_user(olga)
    game = play(terziglio, G1[:3], by)
    number = 3
    if why == "too_late":
        Hand.objects.filter(game=game, number=3).update(
            created_at=timezone.now() - timedelta(seconds=11)
        )
    elif why == "not_the_last":
        number = 2
    elif why == "corrected":
        services.correct_hand(game=game, number=3, document=G1[2] | {"soloist_points": 5}, by=by)
    else:
        by = Actor.for_user(oscar)
    before = snapshot(game)
    read = [hand_tag(Hand.objects.get(game=game, number=number))]
    with pytest.raises(services.UndoExpired):
        services.undo_hand(game=game, number=number, by=by, expected=read, within_seconds=10)
    assert snapshot(game) == before


# -- the pages ----------------------------------------------------------------------------------


def test_the_undo_url_takes_back_the_hand_this_session_saved_and_only_once(olga, terziglio):
    from tests.scoring.test_pages import SOLOIST_FORM, login

    client = login(olga)
    saved = client.post(
        f"/g/{terziglio.pk}/hands/", SOLOIST_FORM | {"idempotency_key": "k1"}, HTTP_X_OUTBOX="1"
    ).json()
    undo = saved["undo"]
    other = login(olga)  # the same account on another phone: not its hand to undo
    refused = other.post(undo["url"], {"etag": undo["etag"]})
    assert refused.status_code == 409 and refused.json()["errors"][0]["code"] == "undo_expired"
    assert "remove it, with a reason" in refused.json()["errors"][0]["message"]
    missing = client.post(undo["url"], {})
    assert missing.status_code == 400 and missing.json()["errors"][0]["field"] == "etag"
    done = client.post(undo["url"], {"etag": undo["etag"]})
    assert done.status_code == 200 and done.json()["undone"] is True
    assert Game.objects.get(pk=terziglio.pk).hand_count == 0
    again = client.post(undo["url"], {"etag": undo["etag"]})
    assert again.status_code == 404 and Hand.objects.filter(game=terziglio).count() == 0
    assert AuditEvent.objects.filter(game=terziglio, action="undo_hand").count() == 1


def test_the_undo_window_is_a_setting(olga, terziglio, settings):
    from tests.scoring.test_pages import SOLOIST_FORM, login

    settings.UNDO_SECONDS = 3
    client = login(olga)
    saved = client.post(
        f"/g/{terziglio.pk}/hands/", SOLOIST_FORM | {"idempotency_key": "k2"}, HTTP_X_OUTBOX="1"
    ).json()
    assert saved["undo"]["seconds"] == 3
    Hand.objects.filter(game=terziglio).update(created_at=timezone.now() - timedelta(seconds=4))
    late = client.post(saved["undo"]["url"], {"etag": saved["undo"]["etag"]})
    assert late.status_code == 409 and Hand.objects.filter(game=terziglio).count() == 1


@pytest.mark.parametrize("action", ["remove-following", "fix-dealers"])
def test_the_removal_dialog_choices_from_the_hand_page(olga, terziglio, action):
    from tests.scoring.test_pages import login, shown

    by = Actor.for_user(olga)
    play(terziglio, G1[:4], by)
    client = login(olga)
    asked = client.post(
        f"/g/{terziglio.pk}/hands/2/",
        {"action": "remove", "reason": "misdeal", "etag": shown(terziglio, 2)},
    )
    page = asked.content.decode()
    assert asked.status_code == 409 and 'role="alertdialog"' in page
    assert "Remove this hand and the 2 after it" in page
    assert 'value="fix-dealers"' in page and 'value="misdeal"' in page
    assert Hand.objects.filter(game=terziglio).count() == 4
    done = client.post(
        f"/g/{terziglio.pk}/hands/2/",
        {"action": action, "reason": "misdeal", "etag": shown(terziglio, 2)},
    )
    assert done.status_code == 302
    left = Hand.objects.filter(game=terziglio).count()
    assert left == (1 if action == "remove-following" else 3)
    follow = client.get(f"/g/{terziglio.pk}/").content.decode()
    expected = "Hands 2 to 4 removed." if action == "remove-following" else "Hand 2 removed;"
    assert expected in follow


def test_the_app_files_are_served(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert body["display"] == "standalone" and body["start_url"] == "/"
    assert {i["sizes"] for i in body["icons"]} == {"192x192", "512x512"}
    for icon in body["icons"]:
        assert client.get(icon["src"]).status_code == 200
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("application/javascript")
    assert (
        worker["Service-Worker-Allowed"] == "/"
        and "/static/js/outbox.js" in worker.content.decode()
    )
    favicon = client.get("/favicon.ico")
    assert favicon.status_code == 200 and favicon["Content-Type"] == "image/x-icon"
    assert b"".join(favicon.streaming_content)[:4] == b"\x00\x00\x01\x00"
    home = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in home and "js/pwa.js" in home


# -- playing at the club: the address phones reach --------------------------------------------


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1:8000", True),
        ("localhost", True),
        ("[::1]:8000", True),
        ("192.168.1.20:8000", False),
    ],
)
def test_a_request_to_the_serving_machine_itself_is_told_apart(host, local):
    from scoring import lan

    assert lan.is_local(host) is local


def test_table_links_use_the_address_the_request_came_in_on_unless_site_url_is_set(
    olga, terziglio, settings
):
    from tests.scoring.test_pages import login

    settings.ALLOWED_HOSTS = ["192.168.1.20"]
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    client = login(olga)
    card = client.get(f"/g/{terziglio.pk}/table/", HTTP_HOST="192.168.1.20:8000").content.decode()
    from scoring.models import TableLink

    token = TableLink.objects.get(game=terziglio).token
    assert f"http://192.168.1.20:8000/t/{token}/" in card
    settings.SITE_URL, settings.SITE_URL_SET = "https://club.example.org", True
    card = client.get(f"/g/{terziglio.pk}/table/", HTTP_HOST="192.168.1.20:8000").content.decode()
    assert f"https://club.example.org/t/{token}/" in card


def test_the_home_page_on_the_laptop_says_how_phones_reach_it(olga, monkeypatch, settings):
    from scoring import lan
    from tests.scoring.test_pages import login

    settings.DEBUG = True  # `make run`'s (a production server never shows the card)
    client = login(olga)
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(lan, "answers", lambda address, port: False)
    page = client.get("/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "make run HOST=0.0.0.0:8000" in page
    monkeypatch.setattr(lan, "answers", lambda address, port: True)
    page = client.get("/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert 'href="http://192.168.1.20:8000/"' in page
    settings_host = client.get("/", HTTP_HOST="testserver").content.decode()
    assert "phones-address" not in settings_host


def test_a_finished_game_is_abandoned_only_when_confirmed(olga, terziglio):
    from tests.scoring.test_pages import login

    play(terziglio, G1, Actor.for_user(olga))
    client = login(olga)
    client.post(f"/g/{terziglio.pk}/abandon/", {"reason": "oops"})
    assert Game.objects.get(pk=terziglio.pk).status == "finished"
    page = client.get(f"/g/{terziglio.pk}/").content.decode()
    assert "Confirm that this finished game should be abandoned" in page
    client.post(f"/g/{terziglio.pk}/abandon/", {"reason": "oops", "confirm_finished": "1"})
    assert Game.objects.get(pk=terziglio.pk).status == "abandoned"


def test_rematch_starts_the_same_table_again(olga, terziglio):
    from tests.scoring.test_pages import login

    play(terziglio, G1, Actor.for_user(olga))
    client = login(olga)
    response = client.post(f"/g/{terziglio.pk}/rematch/")
    new = Game.objects.exclude(pk=terziglio.pk).get()
    assert response["Location"] == f"/g/{new.pk}/?dealer={(G1[0]['dealer'] + 1) % 3}"
    assert (new.ruleset, new.options, new.status) == ("terziglio", terziglio.options, "in_progress")
    page = client.get(response["Location"]).content.decode()
    assert re.search(r'value="1"[^>]*checked', page) or re.search(r'checked[^>]*value="1"', page)


@pytest.mark.django_db
def test_the_service_worker_is_served_by_a_production_build_after_collectstatic(
    client, settings, tmp_path
):
    """Issue 22, point 6: with DEBUG off the static files come from collectstatic's manifest
    (hashed names); /sw.js answered 500 asking the manifest for "". It answers 200 and keeps the
    hashed files of the shell."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    body = worker.content.decode()
    assert 'var STATIC_PREFIX = "/static/";' in body
    shell = json.loads(re.search(r"var SHELL = (\[.*?\]);", body).group(1))
    assert any(re.fullmatch(r"/static/js/outbox\.[0-9a-f]{12}\.js", url) for url in shell), shell
