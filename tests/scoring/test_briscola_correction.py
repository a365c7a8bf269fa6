"""The Briscola correction form fills in the other side (issue 32, point 8): it shows the stored
hand's points, so typing 85 for one side of a 70–50 hand must give the other 35, on the page
(the side boxes count as filled in for the script) and without the script (the form), instead of
"must add up to 120, not 135"."""

from __future__ import annotations

import re

import pytest

from scoring import etags, services
from scoring.models import Hand
from scoring.services import Actor
from tests.clients import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def briscola(club, players, olga):
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=players[:2],
        options={"free_dealer": True, "hands_to_win": 10},
        by=Actor.for_user(olga),
    )
    services.record_hand(
        game=game, document={"dealer": 0, "points": [70, 50]}, by=Actor.for_user(olga)
    )
    return game


def shown(game) -> str:
    return str(etags.hand_tag(Hand.objects.get(game=game, number=1)))


def test_the_correction_form_marks_both_stored_sides_as_filled_in_for_the_script(briscola, olga):
    page = login(olga).get(f"/g/{briscola.pk}/hands/1/").content.decode()
    boxes = re.findall(r'<input[^>]*name="points_[01]"[^>]*>', page)
    assert len(boxes) == 2 and all('data-auto="1"' in box for box in boxes)
    assert 'value="70"' in boxes[0] and 'value="50"' in boxes[1]
    # A new hand's boxes are empty: nothing to mark.
    game = login(olga).get(f"/g/{briscola.pk}/").content.decode()
    assert 'data-auto="1"' not in game


@pytest.mark.parametrize(
    ("posted", "stored"),
    [
        ({"points_0": "85", "points_1": "50"}, [85, 35]),  # the first side corrected
        ({"points_0": "70", "points_1": "100"}, [20, 100]),  # the second side corrected
        ({"points_0": "85", "points_1": ""}, [85, 35]),  # the other emptied: as on a new hand
    ],
)
def test_a_correction_of_one_side_gives_the_other_what_it_leaves(briscola, olga, posted, stored):
    answer = login(olga).post(
        f"/g/{briscola.pk}/hands/1/", {"dealer": "0", "etag": shown(briscola)} | posted
    )
    assert answer.status_code == 302
    assert Hand.objects.get(game=briscola, number=1).document["points"] == stored


def test_both_sides_changed_and_not_adding_up_is_still_refused(briscola, olga):
    answer = login(olga).post(
        f"/g/{briscola.pk}/hands/1/",
        {"dealer": "0", "points_0": "85", "points_1": "45", "etag": shown(briscola)},
    )
    assert answer.status_code == 400
    assert "must add up to 120, not 130" in answer.content.decode()
    assert Hand.objects.get(game=briscola, number=1).document["points"] == [70, 50]
