"""Standings people can check (issue 11, point 4): placement points fair across table sizes,
stored per competition; tie-breaks that add only comparable figures; the nights that counted
for best-N marked; a page that explains the computation with the competition's own numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from scoring.rules import RuleViolation
from tests.builders import by
from tournaments import selectors, services
from tournaments.standings import Result, compute, fair_row

from .helpers import codes, enter, make_competition, terziglio_in_order
from .services_helpers import publish_and_finish

# -- the fair scheme (pure) --------------------------------------------------------------------


def test_fair_placement_gives_first_place_100_and_last_0_at_every_table_size():
    assert fair_row(2) == (100, 0)
    assert fair_row(3) == (100, 50, 0)
    assert fair_row(4) == (100, Fraction(200, 3), Fraction(100, 3), 0)


def test_issue_11_a_win_at_a_table_of_four_is_worth_a_win_at_a_table_of_three():
    results = [
        Result(1, 1, "night", 1, 4, 30),
        Result(2, 1, "night", 2, 4, 20),
        Result(3, 1, "night", 3, 4, 10),
        Result(4, 1, "night", 4, 4, 0),
        Result(5, 2, "night", 1, 3, 30),
        Result(6, 2, "night", 2, 3, 20),
        Result(7, 2, "night", 3, 3, 10),
    ]
    fair = compute(results, scheme="fair_placement")
    assert fair.row(1).points == fair.row(5).points == 100
    classic = compute(results, scheme="placement")
    assert (classic.row(1).points, classic.row(5).points) == (3, 4)  # what the issue saw


def test_fair_placement_shares_the_places_a_tie_covers():
    results = [Result(e, 1, 1, place, 4, 0) for e, place in ((1, 1), (2, 2), (3, 2), (4, 4))]
    table = compute(results, scheme="fair_placement")
    assert table.row(2).points == table.row(3).points == 50


def test_each_row_keeps_its_points_per_group_in_the_groups_order():
    results = [Result(1, 1, 2, 1, 2, 5), Result(1, 2, 1, 2, 2, 0), Result(2, 2, 1, 1, 2, 9)]
    table = compute(results, best_of=1)
    assert table.row(1).group_points == ((1, 0), (2, 2))
    assert table.row(1).counted_groups == (2,)


# -- stored per competition --------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_competition_is_fair_by_default_and_breaks_ties_by_wins(club, olga):
    competition = services.create_competition(
        club=club, by=by(olga), name="Nuova", rulesets=["terziglio"]
    )
    competition.refresh_from_db()
    assert competition.scheme == "fair_placement"
    assert competition.tie_breaks == ["wins", "opponents_strength"]


@pytest.mark.django_db
def test_a_competition_stored_with_the_classic_points_keeps_them(club, olga):
    competition = make_competition(club, olga, scheme="placement")
    enter(competition, olga, 3)
    night = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=night, by=by(olga), seed=1)
    publish_and_finish(night, olga, lambda table, n: terziglio_in_order([0, 1, 2]))
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    assert [row["points"] for row in rows] == [4, 2, 0]


# -- tie-breaks of comparable figures ----------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"tie_breaks": ["wins", "game_score"]}, {("tie_breaks[1]", "inconsistent")}),
        ({"scheme": "game_score"}, {("scheme", "inconsistent")}),
    ],
)
def test_a_mixed_league_refuses_to_add_up_the_games_own_scores(club, olga, given, expected):
    with pytest.raises(RuleViolation) as error:
        services.create_competition(
            club=club,
            by=by(olga),
            name="Mista",
            kind="league",
            format="club_night",
            rulesets=["terziglio", "briscola"],
            **given,
        )
    assert codes(error.value) == expected


@pytest.mark.django_db
def test_a_one_game_competition_may_break_ties_by_game_score(club, olga):
    competition = make_competition(club, olga, tie_breaks=["game_score"])
    assert competition.tie_breaks == ["game_score"]


@pytest.mark.django_db
def test_the_form_shows_the_refusal_next_to_the_tie_break(client, club, olga):
    from tournaments.forms import CompetitionForm

    from .pages_helpers import untouched

    client.force_login(olga)
    data = untouched(CompetitionForm()) | {
        "name": "Mista",
        "kind": "league",
        "format": "club_night",
        "rulesets": ["terziglio", "briscola"],
        "tie_break_2": "game_score",
    }
    response = client.post(reverse("competition-new", args=[club.slug]), data)
    html = response.content.decode()
    assert response.status_code == 400
    after = html.split('name="tie_break_2"', 1)[1]
    assert "different units and cannot be added up" in after.split('name="tie_break_3"', 1)[0]


# -- best-N marked, and the page that explains it ----------------------------------------------


@pytest.fixture
def best_of_one(club, olga):
    """A league counting each player's best night: Anna wins night 1, Carla night 2."""
    competition = make_competition(
        club, olga, name="Lega", kind="league", format="club_night", best_of=1,
        scheme="fair_placement",
    )  # fmt: skip
    enter(competition, olga, 3)
    for order in ([0, 1, 2], [2, 1, 0]):
        night = services.add_round(competition=competition, by=by(olga))
        services.generate_round(round_=night, by=by(olga), seed=1)

        def hands(table, n, order=order):
            names = [s.entry.player.display_name for s in table.seats.order_by("position")]
            wanted = [["Anna", "Bruno", "Carla"][i] for i in order]
            return terziglio_in_order([names.index(name) for name in wanted])

        publish_and_finish(night, olga, hands)
        services.close_round(round_=night, by=by(olga))
    return competition


@pytest.mark.django_db
def test_best_n_marks_the_nights_that_counted_and_those_dropped(client, club, best_of_one):
    rows = {r["name"]: r for r in selectors.standings_of(best_of_one)["tables"][0]["rows"]}
    assert rows["Anna"]["nights"] == [[1, 100, True], [2, 0, False]]
    assert rows["Bruno"]["nights"] == [[1, 50, True], [2, 50, False]]
    assert rows["Anna"]["points"] == 100
    html = client.get(
        reverse("public-competition", args=[club.slug, best_of_one.slug])
    ).content.decode()
    assert (
        '<td class="nights"><span class="night counted" title="Night 1"><strong>100</strong>'
        in html
    )
    assert "<s>0</s>" in html
    assert "<strong>bold</strong> counted, <s>struck through</s> dropped" in html


@pytest.mark.django_db
def test_the_how_page_explains_the_scheme_with_this_competitions_numbers(client, club, best_of_one):
    url = reverse("public-standings-how", args=[club.slug, best_of_one.slug])
    response = client.get(url)
    html = response.content.decode()
    how = response.context["how"]
    assert {row["size"]: row["points"] for row in how["sizes"]}[4] == ["100", "66.67", "33.33", "0"]
    assert "first place is worth 100" in html
    assert [t["label"] for t in how["tie_breaks"]] == ["Wins", "Opponents' strength"]
    assert how["example"]["name"] == "Anna"
    assert [n["text"] for n in how["example"]["counted"]] == ["100"]
    assert [n["text"] for n in how["example"]["dropped"]] == ["0"]
    assert "Only each player's best night counts" in html
    assert "An example: Anna" in html


@pytest.mark.django_db
def test_the_how_page_shows_the_classic_points_with_the_organizers_overrides(client, club, olga):
    competition = make_competition(club, olga, placement_points={"3": [5, 2, 0]})
    response = client.get(reverse("public-standings-how", args=[club.slug, competition.slug]))
    sizes = {row["size"]: row["points"] for row in response.context["how"]["sizes"]}
    assert sizes[3] == ["5", "2", "0"] and sizes[4] == ["3", "2", "1", "0"]
    assert response.context["how"]["example"] is None


@pytest.mark.django_db
def test_the_how_page_speaks_french(client, club, olga):
    competition = make_competition(club, olga, scheme="fair_placement")
    response = client.get(
        reverse("public-standings-how", args=[club.slug, competition.slug]),
        headers={"accept-language": "fr"},
    )
    html = response.content.decode()
    assert "Comment ce classement est calculé" in html
    assert "la première place vaut 100" in html
    assert "Victoires" in html or "victoires" in html.lower()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"tie_breaks": ["wins", "game_score"]}, {("tie_breaks[1]", "inconsistent")}),
        ({"scheme": "game_score"}, {("scheme", "inconsistent")}),
    ],
)
def test_editing_a_mixed_league_refuses_unlike_units_too(club, olga, given, expected):
    league = services.create_competition(
        club=club,
        by=by(olga),
        name="Mista",
        kind="league",
        format="club_night",
        rulesets=["terziglio", "briscola"],
    )
    with pytest.raises(RuleViolation) as error:
        services.update_competition(competition=league, by=by(olga), **given)
    assert codes(error.value) == expected
    league.refresh_from_db()
    assert league.scheme != "game_score" and "game_score" not in league.tie_breaks
