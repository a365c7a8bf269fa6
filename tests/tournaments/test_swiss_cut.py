"""A Swiss stage that cuts to a knockout of the top N (issue 11, point 3): the bracket is drawn
from the Swiss standings once every Swiss round is closed, and the final ranking gives the
bracket's places to the top N, then the Swiss order to the rest."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.rules import RuleViolation
from tests.builders import by
from tests.clients import login
from tournaments import selectors, services

from .helpers import NAMES, briscola_won_by, codes, enter, make_competition, play

pytestmark = pytest.mark.django_db

#: The earlier a name in NAMES, the stronger: Anna beats everyone.
STRENGTH = {name: -i for i, name in enumerate(NAMES)}


def play_round(round_, user, upset=()):
    services.publish_round(round_=round_, by=by(user))
    for table in round_.tables.select_related("game").order_by("number"):
        home, away = [s.entry.player.display_name for s in table.seats.order_by("position")]
        winner = 0 if STRENGTH[home] > STRENGTH[away] else 1
        if {home, away} & set(upset):
            winner = 1 - winner
        play(table.game, briscola_won_by(winner, 2, 1), user)
    services.close_round(round_=round_, by=by(user))


def swiss_of_eight(club, user, **fields):
    fields = {
        "name": "Svizzera",
        "rulesets": ["briscola"],
        "format": "swiss",
        "table_size": 2,
        "planned_rounds": 3,
        "cut_to": 4,
        "options": {"briscola": {"hands_to_win": 1}},
    } | fields
    competition = make_competition(club, user, **fields)
    enter(competition, user, 8, seeded=True)
    return competition


def next_round(competition, user, upset=()):
    round_ = services.add_round(competition=competition, by=by(user))
    services.generate_round(round_=round_, by=by(user))
    play_round(round_, user, upset)
    return round_


def ranks(competition):
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    return [(row["name"], row["rank"]) for row in rows]


def seated(round_):
    return [
        sorted(s.entry.player.display_name for s in table.seats.all())
        for table in round_.tables.order_by("number")
    ]


def test_the_top_four_of_the_swiss_play_the_knockout_and_the_rest_keep_their_swiss_order(
    club, olga
):
    competition = swiss_of_eight(club, olga, third_place=True)
    for _ in range(3):
        next_round(competition, olga)
    before = ranks(competition)
    swiss = [name for name, _rank in before]
    top = swiss[:4]
    semis = next_round(competition, olga, upset=[top[3]])  # the 4th seed beats the 1st
    assert semis.metrics["matches"] == [1, 2]
    assert seated(semis) == [sorted([top[0], top[3]]), sorted([top[1], top[2]])]  # 1-4, 2-3
    strong, weak = sorted(top[1:3], key=STRENGTH.get, reverse=True)
    final = next_round(competition, olga)
    assert sorted(map(sorted, seated(final))) == sorted(
        [sorted([top[3], strong]), sorted([top[0], weak])]
    )
    champion, runner_up = sorted([top[3], strong], key=STRENGTH.get, reverse=True)
    third, fourth = sorted([top[0], weak], key=STRENGTH.get, reverse=True)
    table = ranks(competition)
    assert table[:4] == [(champion, 1), (runner_up, 2), (third, 3), (fourth, 4)]
    assert [name for name, _ in table[4:]] == swiss[4:]
    swiss_rank = dict(before)
    assert [rank for _, rank in table[4:]] == [
        5 + sum(1 for other in swiss[4:] if swiss_rank[other] < swiss_rank[name])
        for name in swiss[4:]
    ]
    assert competition.bracket_round(4) and not competition.bracket_round(3)


def test_the_knockout_waits_for_every_swiss_round_to_be_closed(club, olga):
    competition = swiss_of_eight(club, olga, planned_rounds=1)
    first = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga))
    services.publish_round(round_=first, by=by(olga))
    second = services.add_round(competition=competition, by=by(olga))
    with pytest.raises(RuleViolation) as refused:
        services.generate_round(round_=second, by=by(olga))
    assert ("round", "not_allowed") in codes(refused.value)


def test_a_cut_larger_than_the_field_is_refused_by_name_at_the_draw(club, olga):
    competition = swiss_of_eight(club, olga, planned_rounds=1, cut_to=16)
    next_round(competition, olga)
    round_ = services.add_round(competition=competition, by=by(olga))
    with pytest.raises(RuleViolation) as refused:
        services.generate_round(round_=round_, by=by(olga))
    assert ("cut_to", "range") in codes(refused.value)


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"format": "rotation"}, ("cut_to", "inconsistent")),
        (
            {"rulesets": ["terziglio"], "table_size": None, "options": {}},
            ("cut_to", "inconsistent"),
        ),
        ({"planned_rounds": None}, ("planned_rounds", "required")),
        ({"cut_to": 1}, ("cut_to", "range")),
    ],
)
def test_a_cut_is_for_a_briscola_swiss_with_its_rounds_planned(club, olga, fields, problem):
    with pytest.raises(RuleViolation) as refused:
        swiss_of_eight(club, olga, **fields)
    assert problem in codes(refused.value)


def test_the_cut_cannot_change_once_the_knockout_is_drawn(club, olga):
    competition = swiss_of_eight(club, olga, planned_rounds=1)
    next_round(competition, olga)
    services.update_competition(competition=competition, by=by(olga), cut_to=2)
    next_round(competition, olga)
    with pytest.raises(RuleViolation) as refused:
        services.update_competition(competition=competition, by=by(olga), cut_to=4)
    assert ("cut_to", "not_allowed") in codes(refused.value)


def test_the_bracket_page_shows_the_knockout_of_the_top_four(client, club, olga):
    competition = swiss_of_eight(club, olga, planned_rounds=1)
    page = client.get(reverse("public-bracket", args=[club.slug, competition.slug]))
    assert "The top 4 of the Swiss standings play a knockout" in page.content.decode()
    for _ in range(3):
        next_round(competition, olga)
    html = client.get(
        reverse("public-bracket", args=[club.slug, competition.slug])
    ).content.decode()
    assert "Semi-finals" in html and "Final" in html
    assert "The top 4 of the Swiss standings, seeded in that order" in html
    assert html.count('class="bracket-place"') == 4


def test_every_planned_round_is_on_the_public_page_from_the_start_with_knockout_names(
    client, club, olga
):
    competition = swiss_of_eight(club, olga)
    html = client.get(
        reverse("public-competition", args=[club.slug, competition.slug])
    ).content.decode()
    for label in ("Round 1", "Round 2", "Round 3", "Round 4 · Semi-finals", "Round 5 · Final"):
        assert f"<strong>{label}</strong>" in html, label
    assert html.count("not drawn yet") == 5
    next_round(competition, olga)
    html = client.get(
        reverse("public-competition", args=[club.slug, competition.slug])
    ).content.decode()
    assert html.count("not drawn yet") == 4
    assert competition.round_label(5) == "Round 5 · Final"


def check_in_names(client, competition, number):
    page = client.get(f"/c/uno/k/{competition.slug}/rounds/{number}/").content.decode()
    form = page.split('id="check-in"', 1)[1].split("</form>", 1)[0]
    ids = {int(pk) for pk in re.findall(r'name="present" value="(\d+)"', form)}
    return sorted(e.player.display_name for e in competition.entries.filter(pk__in=ids))


def test_the_check_in_of_a_knockout_round_lists_only_the_entries_still_in_the_bracket(club, olga):
    competition = swiss_of_eight(club, olga)
    for _ in range(3):
        next_round(competition, olga)
    top = [name for name, _rank in ranks(competition)][:4]
    client = login(olga)
    semis = services.add_round(competition=competition, by=by(olga))
    assert check_in_names(client, competition, 4) == sorted(top)  # the cut, before the draw
    services.generate_round(round_=semis, by=by(olga))
    assert check_in_names(client, competition, 4) == sorted(top)
    play_round(semis, olga)
    services.add_round(competition=competition, by=by(olga))
    # The semi-finals are seeds 1-4 and 2-3; the stronger of each pair wins its semi.
    finalists = sorted(max(pair, key=STRENGTH.get) for pair in ((top[0], top[3]), (top[1], top[2])))
    assert check_in_names(client, competition, 5) == finalists
