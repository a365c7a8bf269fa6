"""Game facts reach the pages as data, and hands read the same in every game: the summaries of
the history (one generic presenter over each ruleset's parts), the facts the hand form carries
for its script, the hand's number as data, one hand shape for page and API, and the next dealer
asked of the engine."""

import json
import re

import pytest
from django.test import Client
from django.utils import translation

from scoring import selectors, services
from scoring.forms.hands import hand_form
from scoring.models import Game, GameStatus
from scoring.presenters import hand_summary, phrase
from scoring.rules import RULESETS, SummaryPart
from scoring.services import Actor
from tests.clients import login

NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio"]


@pytest.mark.parametrize(
    ("key", "document", "words"),
    [
        pytest.param(
            "terziglio",
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 1,
                "contract": "solo",
                "soloist_points": 8,
                "sweep": "none",
            },
            "Bruno · Solo · 8 points",
            id="terziglio",
        ),
        pytest.param(
            "terziglio",
            {
                "dealer": 0,
                "outcome": "played",
                "soloist": 2,
                "contract": "scegliete",
                "soloist_points": 11,
                "sweep": "soloist",
            },
            "Carla · Solissimo scegliete · 11 points · every trick",
            id="terziglio-sweep",
        ),
        pytest.param(
            "calabrasella",
            {
                "dealer": 3,
                "outcome": "played",
                "soloist": 0,
                "soloist_cards": {"aces": 0, "counters": 0, "last_trick": False},
                "sweep": "opponents",
            },
            "Anna · cards counted: 0 aces, 0 counters · no trick",
            id="calabrasella-cards",
        ),
        pytest.param(
            "calabrasella", {"dealer": 3, "outcome": "passed_out"}, "Passed out", id="passed-out"
        ),
        pytest.param(
            "turkish",
            {"dealer": 0, "went_out": 3, "penalties": [{"seat": 0, "points": 5}]},
            "Dario went out",
            id="turkish",
        ),
        pytest.param("briscola", {"dealer": 0, "points": [70, 50]}, "70–50", id="briscola"),
        pytest.param(
            "briscola_chiamata",
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 1,
                "partner": 4,
                "target": 61,
                "caller_points": 68,
            },
            "Bruno + Elena · 68/61",
            id="chiamata",
        ),
        pytest.param(
            "briscola_chiamata",
            {
                "dealer": 0,
                "outcome": "played",
                "caller": 5,
                "partner": 5,
                "target": 75,
                "caller_points": 80,
            },
            "Fabio (alone) · 80/75",
            id="chiamata-alone",
        ),
        pytest.param(
            "briscola_chiamata",
            {"dealer": 0, "outcome": "passed_out"},
            "Passed or thrown in",
            id="chiamata-thrown-in",
        ),
    ],
)
def test_each_game_summarises_a_hand_with_the_players_names(key, document, words):
    with translation.override("en"):
        assert hand_summary(key, document, NAMES) == words


def test_a_summary_is_translated_at_the_edge():
    document = {
        "dealer": 0,
        "outcome": "played",
        "soloist": 1,
        "contract": "solo",
        "soloist_points": 8,
        "sweep": "none",
    }
    with translation.override("it"):
        italian = hand_summary("terziglio", document, NAMES)
    assert italian.startswith("Bruno · ") and "8" in italian and "points" not in italian


def test_a_seat_outside_the_table_or_an_unknown_code_shows_instead_of_crashing():
    assert phrase(SummaryPart("went_out", seats={"seat": 9}), NAMES[:3]) == "? went out"
    assert phrase(SummaryPart("no_such_code"), NAMES) == "no_such_code"


# -- the pages --------------------------------------------------------------------------------


def page(user, path):
    client = Client()
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def hand_facts(html):
    match = re.search(r'<script id="hand-facts" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the hand form carries its facts"
    return json.loads(match.group(1))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "seats", "dealer_sits_out"),
    [
        ("terziglio", 4, True),
        ("calabrasella", 3, False),
        ("turkish", 4, False),
        ("briscola", 4, False),
        ("briscola_chiamata", 6, True),
    ],
)
def test_the_hand_form_carries_the_rulesets_facts_for_this_table(
    olga, club, key, seats, dealer_sits_out
):
    by = Actor.for_user(olga)
    names = NAMES[:seats]
    game = services.start_game(club=club, ruleset=key, players=names, by=by)
    facts = hand_facts(page(olga, f"/g/{game.pk}/"))
    assert facts == json.loads(json.dumps(RULESETS[key].facts(game.options, seats)))
    assert facts["dealer_sits_out"] is dealer_sits_out


@pytest.mark.django_db
def test_no_page_re_derives_a_fact_the_rules_give(olga, club, players):
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="briscola", players=players, by=by)
    html = page(olga, f"/g/{game.pk}/")
    assert "<output data-remaining>120</output>" in html  # the facts' total, shown
    assert "data-sits-out" not in html and "data-total" not in html
    chiamata = services.start_game(club=club, ruleset="briscola_chiamata", players=NAMES[:5], by=by)
    html = page(olga, f"/g/{chiamata.pk}/")
    target = re.search(r'<input[^>]*name="target"[^>]*>', html).group(0)
    assert 'value="61"' in target and 'min="61"' in target and 'max="120"' in target
    points = re.search(r'<input[^>]*name="caller_points"[^>]*>', html).group(0)
    assert 'max="120"' in points


@pytest.mark.django_db
def test_the_hand_number_is_data_and_the_heading_has_its_template(olga, terziglio):
    services.record_hand(
        game=terziglio, document={"dealer": 0, "outcome": "passed_out"}, by=Actor.for_user(olga)
    )
    html = page(olga, f"/g/{terziglio.pk}/")
    assert 'data-hand-number="2"' in html
    assert 'data-hand-heading data-template="Hand %(number)s">Hand 2</h2>' in html
    correcting = page(olga, f"/g/{terziglio.pk}/hands/1/")
    assert 'data-hand-number="1"' in correcting


@pytest.mark.django_db
def test_the_pages_load_the_scripts_of_their_jobs(olga, club, terziglio):
    game = page(olga, f"/g/{terziglio.pk}/")
    for script in ("outbox.js", "hand_form.js", "live.js"):
        assert f"js/{script}" in game
    start = page(olga, f"/c/{club.slug}/games/new/")
    assert "js/start_game.js" in start and "js/hand_form.js" not in start
    assert "table.js" not in game + start


@pytest.mark.django_db
def test_a_hand_has_one_shape_on_the_page_and_in_the_api(olga, terziglio):
    by = Actor.for_user(olga)
    result = services.record_hand(
        game=terziglio, document={"dealer": 0, "outcome": "passed_out"}, by=by
    )
    game = Game.objects.get(pk=terziglio.pk)
    (row,) = selectors.history(game)
    data = selectors.hand_data(row.hand, row.totals)
    assert selectors.game_detail(game)["hands"] == [data]
    assert {k: result.payload[k] for k in data} == data
    assert {k: selectors.hand_payload(row.hand, game)[k] for k in data} == data


@pytest.mark.django_db
def test_the_next_dealer_and_who_sits_out_come_from_the_engine(olga, club, players):
    by = Actor.for_user(olga)
    game = services.start_game(club=club, ruleset="terziglio", players=players, by=by)
    assert (game.next_dealer, game.sitting_out_next) == (None, None)
    services.record_hand(game=game, document={"dealer": 3, "outcome": "passed_out"}, by=by)
    game = Game.objects.get(pk=game.pk)
    scored = game.scored()
    assert (game.next_dealer, game.sitting_out_next) == (0, 0)
    assert (scored.next_dealer, scored.sitting_out_next) == (0, 0)
    html = page(olga, f"/g/{game.pk}/")
    assert "Anna</strong>" in html and "Anna sits out" in html
    form = hand_form(game, [p.display_name for p in players])
    assert form.initial["dealer"] == 0
    services.abandon_game(game=game, by=by, reason="left")
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.ABANDONED
    assert (game.next_dealer, game.sitting_out_next) == (None, None)


def test_a_pair_that_wins_briscola_is_named_whole_on_the_game_over_card(club, olga):
    """Briscola in pairs: both partners are first, and the card names the pair (issue 21,
    point 9), on the game page and on the scoreboard."""
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club,
        ruleset="briscola",
        players=["Giulia", "Luca", "Marta", "Nino"],
        options={"format": "pairs", "hands_to_win": 1},
        by=by,
    )
    services.record_hand(game=game, document={"dealer": 0, "points": [70, 50]}, by=by)
    client = login(olga)
    for url in (f"/g/{game.pk}/", f"/g/{game.pk}/board/"):
        page = client.get(url).content.decode()
        assert "Giulia and Marta win!" in page, url
        assert "Giulia wins!" not in page
