"""Validators name their hand: ETags of games and hands, and the preconditions of hand writes.

The story of issue 8: in a free-dealer game phone A reads hand 3, phone B removes hand 3; the
hand that was number 4 is now number 3. A's correction with its old validator, and B's removal
resent with the same validator, must both change nothing.
"""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import etags, services
from scoring.etags import GAME, HAND, Condition, Tag
from scoring.models import Club, Hand
from scoring.services import Actor

pytestmark = pytest.mark.django_db

LONG = '"' + "9" * 5000 + '"'
GARBLED = [
    '"²"',
    '"h²³.1"',
    LONG,
    f'"h{"9" * 5000}.1"',
    '"h1.1',
    "h1.1",
    '"h1.1" "h1.2"',
    "*, *",
    'W/ "h1.1"',
    '"h١٢.1"',
    ",,,",
]


# -- reading a header (no database) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("", None),
        ("  ", None),
        ('"h12.3"', Condition(strong=(Tag(HAND, 12, 3),))),
        ('W/"g7.15"', Condition(weak=(Tag(GAME, 7, 15),))),
        (" * ", Condition(any=True)),
        ('"x", W/"s5.2" ,"h1.1"', Condition(strong=(Tag(HAND, 1, 1),), weak=(Tag("s", 5, 2),))),
        ('"h1.1", , "h2.1"', Condition(strong=(Tag(HAND, 1, 1), Tag(HAND, 2, 1)))),
        ('"a,b", "g1.1"', Condition(strong=(Tag(GAME, 1, 1),))),
        ('"3"', Condition()),  # the old form names nothing: it matches nothing
        ('"²"', Condition()),  # a well-formed tag (obs-text), not ours: matches nothing
        (f'"h{"9" * 20}.1"', Condition()),  # more digits than any id: not ours
        (LONG, etags.GARBLED),
        ('"h1.1', etags.GARBLED),
        ("h1.1", etags.GARBLED),
        ('"h1.1" "h1.2"', etags.GARBLED),
        ("*, *", etags.GARBLED),
        ('"h١٢.1"', etags.GARBLED),
    ],
)
def test_a_header_is_read_strictly(header, expected):
    assert etags.parse(header) == expected


def test_if_match_reads_strong_tags_and_if_none_match_weakly():
    current = Tag(HAND, 4, 2)
    assert etags.parse('"h4.2"').strong == (current,)
    assert etags.parse('W/"h4.2"').strong == ()
    assert etags.parse('W/"h4.2"').matches_weakly(current)
    assert etags.parse("*").matches_weakly(current)
    assert not etags.parse('"h5.2", "h4.1"').matches_weakly(current)
    assert not etags.GARBLED.matches_weakly(current)


def test_a_validator_in_a_body_may_come_with_or_without_its_quotes():
    assert etags.parse_value('"h3.2"') == etags.parse_value("h3.2") == Tag(HAND, 3, 2)
    assert etags.parse_value(3) is None and etags.parse_value("²") is None
    assert etags.parse_value("h" + "1" * 5000 + ".1") is None


# -- the renumbering story ----------------------------------------------------------------------


@pytest.fixture
def free(club, players, olga):
    """A Briscola game where anyone may deal, with four hands."""
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players[:2],
        options={"free_dealer": True, "hands_to_win": 10},
        by=Actor.for_user(olga),
    )
    for dealer, points in ((0, [70, 50]), (1, [50, 70]), (1, [80, 40]), (0, [30, 90])):
        services.record_hand(
            game=game, document={"dealer": dealer, "points": points}, by=Actor.for_user(olga)
        )
    return game


def hands(game):
    return list(Hand.objects.filter(game=game).order_by("number").values_list("pk", "number"))


def test_a_hand_etag_names_the_hand_and_the_game_etag_names_the_game(api, free):
    third = Hand.objects.get(game=free, number=3)
    response = api.get(f"/api/v1/games/{free.pk}/hands/3/")
    assert response["ETag"] == response.json()["etag"] == f'"h{third.pk}.1"'
    game = api.get(f"/api/v1/games/{free.pk}/")
    assert game["ETag"] == game.json()["etag"] == f'"g{free.pk}.5"'
    assert game.json()["hands"][2]["etag"] == f'"h{third.pk}.1"'


def test_an_old_validator_never_reaches_the_hand_that_took_its_number(api, sara, free):
    phone_a, phone_b = api, APIClient()
    phone_b.force_authenticate(sara)
    url = f"/api/v1/games/{free.pk}/hands/3/"
    read_by_a = phone_a.get(url)["ETag"]
    read_by_b = phone_b.get(url)["ETag"]
    before = hands(free)
    removed = phone_b.delete(url, {"reason": "not played"}, format="json", HTTP_IF_MATCH=read_by_b)
    assert removed.status_code == 200
    assert hands(free) == [before[0], before[1], (before[3][0], 3)]
    fourth = Hand.objects.get(pk=before[3][0])

    overwrite = phone_a.put(
        url, {"dealer": 1, "points": [60, 60]}, format="json", HTTP_IF_MATCH=read_by_a
    )
    assert overwrite.status_code == 412
    assert overwrite.json()["errors"][0]["code"] == "stale"
    retried = phone_b.delete(url, {"reason": "not played"}, format="json", HTTP_IF_MATCH=read_by_b)
    assert retried.status_code == 412
    assert hands(free) == [before[0], before[1], (before[3][0], 3)]
    refreshed = Hand.objects.get(pk=fourth.pk)
    assert (refreshed.document, refreshed.version) == (fourth.document, 1)
    # Gone altogether: the hand number no longer exists.
    assert (
        phone_b.delete(
            f"/api/v1/games/{free.pk}/hands/4/?reason=x", HTTP_IF_MATCH=read_by_b
        ).status_code
        == 404
    )


def test_hand_writes_need_a_precondition(api, free):
    url = f"/api/v1/games/{free.pk}/hands/2/"
    game_etag = api.get(f"/api/v1/games/{free.pk}/")["ETag"]
    hand = {"dealer": 1, "points": [60, 60]}
    for response in (
        api.put(url, hand, format="json"),
        api.put(url, hand, format="json", HTTP_IF_MATCH="*"),
        api.delete(url, {"reason": "x"}, format="json"),
        api.post(f"/api/v1/games/{free.pk}/corrections/", {"hands": {"2": hand}}, format="json"),
        api.post(
            f"/api/v1/games/{free.pk}/corrections/",
            {"hands": {"2": hand, "3": hand}, "versions": {"2": api.get(url)["ETag"]}},
            format="json",
        ),
    ):
        assert response.status_code == 428, response.json()
        assert response.json()["errors"][0]["code"] == "required"
    assert Hand.objects.filter(game=free, version=1).count() == 4
    # The game's ETag as read is a precondition for every hand of a correction.
    corrected = api.post(
        f"/api/v1/games/{free.pk}/corrections/",
        {"hands": {"2": hand, "3": hand}},
        format="json",
        HTTP_IF_MATCH=game_etag,
    )
    assert corrected.status_code == 200
    again = api.post(
        f"/api/v1/games/{free.pk}/corrections/",
        {"hands": {"2": {"dealer": 0, "points": [60, 60]}}},
        format="json",
        HTTP_IF_MATCH=game_etag,
    )
    assert again.status_code == 412
    assert Hand.objects.filter(game=free, version=2).count() == 2


def test_corrections_by_versions_name_each_hand(api, free):
    listed = api.get(f"/api/v1/games/{free.pk}/").json()["hands"]
    body = {
        "hands": {"2": {"dealer": 1, "points": [60, 60]}, "3": {"dealer": 1, "points": [60, 60]}},
        # Hand 3's validator given for hand 2 and the other way round: neither names its hand.
        "versions": {"2": listed[2]["etag"], "3": listed[1]["etag"]},
    }
    url = f"/api/v1/games/{free.pk}/corrections/"
    assert api.post(url, body, format="json").status_code == 412
    body["versions"] = {"2": listed[1]["etag"], "3": listed[2]["etag"]}
    assert api.post(url, body, format="json").status_code == 200


@pytest.mark.parametrize("header", GARBLED)
def test_a_garbled_if_match_is_a_412_and_changes_nothing(api, free, header):
    url = f"/api/v1/games/{free.pk}/hands/2/"
    put = api.put(url, {"dealer": 1, "points": [60, 60]}, format="json", HTTP_IF_MATCH=header)
    assert put.status_code == 412
    assert api.delete(url, {"reason": "x"}, format="json", HTTP_IF_MATCH=header).status_code == 412
    corrections = api.post(
        f"/api/v1/games/{free.pk}/corrections/",
        {"hands": {"2": {"dealer": 1, "points": [60, 60]}}, "versions": {"2": header[:64]}},
        format="json",
        HTTP_IF_MATCH=header,
    )
    assert corrections.status_code == 412
    assert Hand.objects.filter(game=free, version=1).count() == 4


@pytest.mark.parametrize("header", GARBLED)
def test_a_garbled_if_none_match_just_gets_the_answer(club, players, olga, header):
    game = services.start_game(
        club=club, ruleset="briscola", players=players[:2], by=Actor.for_user(olga)
    )
    services.abandon_game(game=game, by=Actor.for_user(olga), reason="a test")
    Club.objects.filter(pk=club.pk).update(results_public=True)  # its games over: anyone reads
    anonymous = APIClient()
    assert anonymous.get(f"/api/v1/games/{game.pk}/", HTTP_IF_NONE_MATCH=header).status_code == 200
    page = Client().get(f"/g/{game.pk}/live/", HTTP_IF_NONE_MATCH=header)
    assert page.status_code == 200


def test_polling_a_hand_gets_304_until_it_changes(api, free):
    url = f"/api/v1/games/{free.pk}/hands/2/"
    etag = api.get(url)["ETag"]
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert api.get(url, HTTP_IF_NONE_MATCH=f'"x", W/{etag}').status_code == 304
    assert (
        api.put(
            url, {"dealer": 1, "points": [60, 60]}, format="json", HTTP_IF_MATCH=etag
        ).status_code
        == 200
    )
    assert api.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_live_page_etag_names_the_game(olga, free):
    client = Client()
    client.force_login(olga)
    assert client.get(f"/g/{free.pk}/live/")["ETag"].startswith(f'"g{free.pk}.5-')


# -- pages act on the hand they showed ----------------------------------------------------------


def test_a_hand_page_refuses_to_act_on_a_hand_that_moved(olga, free):
    client = Client()
    client.force_login(olga)
    page = client.get(f"/g/{free.pk}/hands/3/").content.decode()
    shown = str(etags.hand_tag(Hand.objects.get(game=free, number=3)))
    assert page.count(f'name="etag" value="&quot;{shown.strip(chr(34))}&quot;"') == 2
    services.remove_hand(game=free, number=3, by=Actor.for_user(olga), reason="not played")
    before = hands(free)
    removed = client.post(
        f"/g/{free.pk}/hands/3/", {"action": "remove", "reason": "x", "etag": shown}
    )
    assert removed.status_code == 400
    assert "This hand changed since you opened it" in removed.content.decode()
    corrected = client.post(
        f"/g/{free.pk}/hands/3/", {"dealer": "1", "points_0": "60", "points_1": "60", "etag": shown}
    )
    assert corrected.status_code == 400
    assert "This hand changed since you opened it" in corrected.content.decode()
    assert hands(free) == before and not Hand.objects.filter(game=free, version=2).exists()
    # Without a validator the page does not guess which hand was meant either.
    assert (
        client.post(f"/g/{free.pk}/hands/3/", {"action": "remove", "reason": "x"}).status_code
        == 400
    )
    assert hands(free) == before
