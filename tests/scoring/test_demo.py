"""``manage.py loaddemo``: the demo club, its games and their history, built through the services
and consistent with the rules engine."""

from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from scoring import demo
from scoring.models import AuditEvent, Club, Game, Hand, Membership, Player, Seat
from scoring.rules import engine
from tests.demo_loading import load_demo


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (get_user_model(), Club, Membership, Player, Game, Seat, Hand, AuditEvent)
    }


def kinds(game: Game) -> str:
    """The ruleset, with the seat count and the Briscola format that tell the games apart."""
    if game.ruleset == "briscola":
        return f"briscola {game.options['format']}"
    if game.ruleset in ("terziglio", "briscola_chiamata"):
        return f"{game.ruleset} {game.n}"
    return game.ruleset


@pytest.mark.django_db
def test_loading_the_demo_twice_changes_nothing(demo_output):
    assert "Created the club Circolo Demo (circolo-demo)" in demo_output
    before = counts()
    # The club's own games; the games of its competitions (added by the tournaments app through
    # ``scoring.extensions.DEMO_LOADERS``) carry a context.
    assert Game.objects.filter(context="").count() == len(demo.PLANS)
    # (the circuit's second club has players of its own: circuits/demo.py)
    assert Player.objects.filter(club__slug=demo.CLUB_SLUG).count() == len(demo.PLAYER_NAMES)
    again = load_demo()
    assert "Kept the organizer login demo" in again and "Kept the club Circolo Demo" in again
    assert counts() == before


@pytest.mark.django_db
def test_the_club_is_public_italian_and_owned_by_the_single_demo_login(demo_output):
    club = Club.objects.get(slug="circolo-demo")
    assert (club.name, club.language, club.results_public) == ("Circolo Demo", "it", True)
    demo_user = get_user_model().objects.get(username="demo")
    assert list(club.memberships.values_list("user__username", "role")) == [("demo", "owner")]
    assert get_user_model().objects.count() == 1
    assert club.players.count() >= 12
    assert set(Hand.objects.values_list("entered_by", flat=True)) == {demo_user.pk}
    assert set(AuditEvent.objects.values_list("actor", flat=True)) == {demo_user.pk}


@pytest.mark.django_db
def test_every_game_has_a_finished_and_an_in_progress_game(demo_output):
    by_kind: dict[str, set[str]] = {}
    for game in Game.objects.all():
        by_kind.setdefault(kinds(game), set()).add(game.status)
    expected = {
        "terziglio 3",
        "terziglio 4",
        "calabrasella",
        "turkish",
        "briscola singles",
        "briscola pairs",
        "briscola_chiamata 5",
    }
    assert expected <= set(by_kind)
    for kind in expected:
        assert {"finished", "in_progress"} <= by_kind[kind], kind
    assert Game.objects.filter(ruleset="briscola", options__variant="famiglia_prini").exists()
    (abandoned,) = Game.objects.filter(status="abandoned")
    assert abandoned.abandon_reason and abandoned.hand_count > 0
    assert AuditEvent.objects.get(action="abandon_game").reason == abandoned.abandon_reason
    assert not Game.objects.filter(hand_count=0).exists()


@pytest.mark.django_db
def test_games_that_have_passed_out_hands_show_some(demo_output):
    passed_out = Counter(
        ruleset
        for ruleset, outcome in Hand.objects.values_list("game__ruleset", "document__outcome")
        if outcome == "passed_out"
    )
    assert set(passed_out) == {"terziglio", "calabrasella", "briscola_chiamata"}


@pytest.mark.django_db
def test_every_demo_game_replays_from_its_documents_to_the_stored_figures(demo_output):
    for game in Game.objects.all():
        hands = list(game.hands.order_by("number"))
        assert [h.number for h in hands] == list(range(1, game.hand_count + 1))
        scored = engine.replay(game.rules, game.options, game.n, [h.document for h in hands])
        assert [list(h.deltas) for h in scored.hands] == [h.deltas for h in hands], game.title
        assert [dict(h.document) for h in scored.hands] == [h.document for h in hands]
        assert list(scored.totals) == game.totals
        assert scored.state.last_dealer == game.last_dealer
        expected_status = "abandoned" if game.abandon_reason else scored.status
        assert game.status == expected_status, game.title
        if game.ruleset == "briscola":
            assert list(scored.state.card_points) == game.card_points
            assert [list(h.side_points) for h in scored.hands] == [h.side_points for h in hands]


@pytest.mark.django_db
def test_some_hands_were_corrected_with_a_reason_and_an_audit_trail(demo_output):
    corrected = list(Hand.objects.filter(version__gt=1))
    assert len(corrected) >= 5
    assert len({h.game.ruleset for h in corrected}) == 5
    for hand in corrected:
        (event,) = AuditEvent.objects.filter(
            game=hand.game, hand_number=hand.number, action="correct_hand"
        )
        assert event.reason
        assert event.before["document"] != event.after["document"]
        assert event.after == {"document": hand.document, "deltas": hand.deltas}
    assert AuditEvent.objects.filter(action="correct_hand").count() == len(corrected)
    recorded = AuditEvent.objects.filter(action="record_hand").count()
    assert recorded == Hand.objects.count()
