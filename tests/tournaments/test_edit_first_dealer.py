"""Issue 11, point 6: the table card's "deals first" is the game's first dealer. The draw
decides who deals hand 1 (seat 1 of the table); the game page shows it instead of asking, and the
deal passes on from there."""

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.tournaments.helpers import enter, make_competition
from tournaments import services

pytestmark = pytest.mark.django_db


def _published_table(olga, club):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa")
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=4)
    services.publish_round(round_=round_, by=by)
    return round_.tables.order_by("number").first()


def test_the_card_dealer_is_the_games_first_dealer_and_the_page_does_not_ask(olga, club):
    table = _published_table(olga, club)
    game = Game.objects.get(pk=table.game_id)
    first = table.seats.order_by("position").first().entry.player.display_name
    assert game.first_dealer == 0
    assert game.next_dealer == 0
    client = Client()
    client.force_login(olga)
    card = client.get(f"/c/uno/k/coppa/rounds/{table.round.number}/cards/").content.decode()
    assert f'{first} <span class="muted">· deals first' in card
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "First hand: choose who deals." not in page
    assert f"Next dealer: <strong>{first}</strong>" in page
    # The dealer is shown, not asked: a hidden field carries seat 1.
    assert '<input type="hidden" name="dealer" value="0" data-dealer>' in page


def test_after_hand_one_the_deal_passes_on_from_the_first_dealer(olga, club):
    table = _published_table(olga, club)
    game = Game.objects.get(pk=table.game_id)
    assert game.sitting_out_next is None  # three at the table: nobody sits out
    hand = {"dealer": 0, "outcome": "played", "soloist": 2, "contract": "chiamo",
            "soloist_points": 5}  # fmt: skip
    scoring.record_hand(game=game, document=hand, by=Actor.for_user(olga))
    game.refresh_from_db()
    assert (game.hand_count, game.last_dealer, game.next_dealer) == (1, 0, 1)


def test_a_free_game_still_lets_the_table_choose_and_a_bad_first_dealer_is_refused(
    olga, club, players
):
    by = Actor.for_user(olga)
    names = [p.display_name for p in players[:3]]
    free = scoring.start_game(club=club, ruleset="terziglio", players=names, by=by)
    assert (free.first_dealer, free.next_dealer) == (None, None)
    with pytest.raises(RuleViolation) as refused:
        scoring.start_game(club=club, ruleset="terziglio", players=names, by=by, first_dealer=3)
    assert refused.value.problems[0].field == "first_dealer"
