"""A Swiss round 1 is drawn (issue 23, point 2): top half against bottom half by the club's
rating where entrants have one, else at random from the seed ("Draw again" gives other tables);
"in the order entered" on request reproduces the draw by entry order. Later rounds pair by
score."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Rating
from tests.builders import by
from tests.clients import api_as, login
from tournaments import selectors, services

from .helpers import make_competition, tables_of

pytestmark = pytest.mark.django_db


def swiss_of(club, user, count=24, **fields):
    fields = {
        "name": "Svizzera",
        "rulesets": ["briscola"],
        "format": "swiss",
        "table_size": 2,
        "planned_rounds": 3,
    } | fields
    competition = make_competition(club, user, **fields)
    entries = [
        services.add_entry(competition=competition, player=f"Giocatore {i + 1:02}", by=by(user))
        for i in range(count)
    ]
    services.add_round(competition=competition, by=by(user))
    return competition, entries


def rate(club, entries, ruleset="briscola"):
    """Entry i rated 100 - i (the first entered the strongest). Ratings are derived from
    finished games by ``scoring.services.ratings``; a row here stands for a season played."""
    for i, entry in enumerate(entries):
        Rating.objects.create(
            club=club, player=entry.player, ruleset=ruleset, mu=100 - i, sigma=1, ordinal=100 - i
        )


def drawn(competition, user, **options):
    round_ = competition.rounds.get(number=1)
    services.generate_round(round_=round_, by=by(user), **options)
    return round_, tables_of(round_)


def in_entry_order(entries, size=2):
    ids = [e.pk for e in entries]
    return [tuple(ids[i : i + size]) for i in range(0, len(ids), size)]


def test_a_swiss_round_1_of_24_without_ratings_differs_between_two_seeds(club, olga):
    competition, entries = swiss_of(club, olga)
    round_, one = drawn(competition, olga, seed=1)
    assert round_.method == "random"
    _round, other = drawn(competition, olga, seed=2)
    assert one != other
    assert one != in_entry_order(entries)
    assert drawn(competition, olga, seed=1)[1] == one
    assert sorted(e for t in one for e in t) == sorted(e.pk for e in entries)


def test_with_ratings_the_top_half_meets_the_bottom_half(club, olga):
    competition, entries = swiss_of(club, olga)
    rate(club, entries)
    ids = [e.pk for e in entries]
    round_, one = drawn(competition, olga, seed=1)
    assert round_.method == "rating"
    assert [t[0] for t in one] == ids[:12]
    assert sorted(t[1] for t in one) == sorted(ids[12:])
    _round, other = drawn(competition, olga, seed=2)
    assert [t[0] for t in other] == ids[:12] and one != other


def test_at_tables_of_four_each_table_takes_one_player_of_each_quarter(club, olga):
    competition, entries = swiss_of(club, olga, count=16, rulesets=["terziglio"], table_size=4)
    rate(club, entries, ruleset=None)  # the club-wide rating when there is none for the game
    round_, tables = drawn(competition, olga, seed=3)
    assert round_.method == "rating"
    ids = [e.pk for e in entries]
    for seat in range(4):
        assert sorted(t[seat] for t in tables) == sorted(ids[4 * seat : 4 * seat + 4])


def test_in_the_order_entered_reproduces_the_draw_by_entry_order(club, olga):
    competition, entries = swiss_of(club, olga)
    rate(club, entries[::-1])  # ratings are not read in the order entered
    round_, tables = drawn(competition, olga, seed=1, method="entered")
    assert round_.method == "entered"
    assert tables == in_entry_order(entries)
    # "Draw again" keeps the choice, whatever the seed.
    round_, again = drawn(competition, olga, seed=2)
    assert (round_.method, again) == ("entered", tables)
    round_, back = drawn(competition, olga, seed=2, method="drawn")
    assert round_.method == "rating" and back != tables


def test_later_rounds_pair_by_score(club, olga):
    competition, _entries = swiss_of(club, olga, count=8)
    first, _tables = drawn(competition, olga, seed=1)
    services.publish_round(round_=first, by=by(olga))
    second = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=second, by=by(olga), seed=1, method="drawn")
    assert second.method == "swiss"


def test_a_pair_is_rated_by_the_mean_of_its_players(club, olga):
    competition = make_competition(
        club,
        olga,
        name="Coppie",
        rulesets=["briscola"],
        format="swiss",
        options={"briscola": {"format": "pairs", "hands_to_win": 1}},
    )
    a = services.add_entry(competition=competition, player="A1", partner="A2", by=by(olga))
    b = services.add_entry(competition=competition, player="B1", partner="B2", by=by(olga))
    c = services.add_entry(competition=competition, player="C1", partner="C2", by=by(olga))
    for player, ordinal in ((a.player, 10), (a.partner, 20), (b.player, 4)):
        Rating.objects.create(
            club=club, player=player, ruleset="briscola", mu=ordinal, sigma=1, ordinal=ordinal
        )
    assert selectors.entry_ratings(competition, [a.pk, b.pk, c.pk], "briscola") == {
        a.pk: 15,
        b.pk: 4,
    }


def test_the_api_accepts_and_returns_the_choice(club, olga):
    competition, entries = swiss_of(club, olga)
    api = api_as(olga)
    path = f"/api/v1/competitions/{competition.pk}/rounds/1/generate/"
    answer = api.post(path, {"seed": 4, "method": "entered"}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["method"] == "entered"
    seated = [tuple(s["entry"] for s in t["seats"]) for t in answer.json()["tables"]]
    assert seated == in_entry_order(entries)
    answer = api.post(path, {"seed": 4, "method": "drawn"}, format="json")
    assert answer.json()["method"] == "random"
    for bad in ("standing", "shuffle"):
        refused = api.post(path, {"method": bad}, format="json")
        assert refused.status_code == 400
        assert {e["field"] for e in refused.json()["errors"]} == {"method"}
    assert competition.rounds.get(number=1).method == "random"


def test_the_draw_panel_states_the_method_and_offers_the_choice(club, olga):
    competition, entries = swiss_of(club, olga)
    page = reverse("round", args=[club.slug, competition.slug, 1])
    client = login(olga)
    html = client.get(page).content.decode()
    assert 'name="method" value="entered"' in html and "top half against the bottom half" in html
    answer = client.post(page, {"action": "generate", "method": "entered", "seed": "3"})
    assert answer.status_code == 302
    html = client.get(page).content.decode()
    assert 'data-method="entered"' in html and "in the order entered" in html
    assert tables_of(competition.rounds.get(number=1)) == in_entry_order(entries)
    answer = client.post(page, {"action": "generate", "method": "nonsense"})
    assert answer.status_code == 400
    assert tables_of(competition.rounds.get(number=1)) == in_entry_order(entries)
