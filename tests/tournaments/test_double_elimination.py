"""Double elimination run through the services: the draw seats each stage as soon as both sides
of its matches are known, the bracket reset is drawn only when the losers' champion wins the
grand final, and the standings follow the bracket."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.rules import RuleViolation
from tests.builders import by
from tournaments import selectors, services
from tournaments.scheduling.double_elimination import double_elimination

from .helpers import enter, make_competition
from .test_bracket import STRENGTH
from .test_bracket import play_round as knockout_round

pytestmark = pytest.mark.django_db


def play_round(round_, user, upset=()):
    """``test_bracket.play_round``, except that the matches numbered in ``upset`` go to the
    weaker side."""
    original = dict(STRENGTH)
    matches = round_.metrics["matches"]
    try:
        for table in round_.tables.order_by("number"):
            if matches[table.number - 1] in upset:
                home, away = [s.entry.player.display_name for s in table.seats.order_by("position")]
                STRENGTH[home], STRENGTH[away] = original[away], original[home]
        knockout_round(round_, user)
    finally:
        STRENGTH.update(original)


def double_of_six(club, user, *, reset=True):
    competition = make_competition(
        club,
        user,
        name="Doppia",
        rulesets=["briscola"],
        format="double",
        bracket_reset=reset,
        options={"briscola": {"hands_to_win": 1}},
    )
    entries = {e.player.display_name: e.pk for e in enter(competition, user, 6, seeded=True)}
    return competition, entries


def run(competition, user, *, upset=()):
    """Draws and plays stage after stage until the draw says the bracket is complete."""
    stages = 0
    while True:
        round_ = services.add_round(competition=competition, by=by(user))
        try:
            services.generate_round(round_=round_, by=by(user))
        except RuleViolation as refused:
            assert refused.problems[0].params.get("reason") == "bracket_complete"
            services.delete_round(round_=round_, by=by(user))
            return stages
        stages += 1
        play_round(round_, user, upset)


def ranks(competition):
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    return [(row["name"], row["rank"]) for row in rows]


def test_the_favourites_win_and_the_ranking_follows_the_losers_bracket(club, olga):
    competition, _ = double_of_six(club, olga)
    stages = run(competition, olga)
    bracket = double_elimination(range(6))
    assert stages == len(bracket.rounds) - 1  # the reset is not needed
    assert ranks(competition) == [
        ("Anna", 1),
        ("Carla", 2),
        ("Elena", 3),
        ("Bruno", 4),
        ("Dario", 5),
        ("Franco", 5),
    ]


def test_when_the_losers_champion_wins_the_grand_final_the_reset_decides(club, olga):
    competition, _ = double_of_six(club, olga)
    grand_final = max(
        n for n, section, _ in double_elimination(range(6)).labels if section == "grand_final"
    )
    stages = run(competition, olga, upset={grand_final})
    assert stages == len(double_elimination(range(6)).rounds)
    assert ranks(competition)[:2] == [("Anna", 1), ("Carla", 2)]


def test_without_a_reset_the_grand_final_is_the_last_match(club, olga):
    competition, _ = double_of_six(club, olga, reset=False)
    grand_final = max(
        n for n, section, _ in double_elimination(range(6)).labels if section == "grand_final"
    )
    run(competition, olga, upset={grand_final})
    assert ranks(competition)[:2] == [("Carla", 1), ("Anna", 2)]


def test_the_bracket_page_shows_both_brackets_and_the_grand_final(client, club, olga):
    competition, _ = double_of_six(club, olga)
    run(competition, olga)
    page = client.get(reverse("public-bracket", args=[club.slug, competition.slug]))
    html = page.content.decode()
    for text in (
        "Winners&#x27; bracket",
        "Losers&#x27; bracket",
        "Winners final",
        "Losers final",
        "Grand final (reset)",
        "Not played: the winners' bracket champion won the grand final.",
        "3rd the loser of the losers' final",
    ):
        assert text in html, text
    assert html.index("Anna") < html.index("Franco")


def test_a_double_elimination_needs_two_sided_briscola(club, olga):
    with pytest.raises(RuleViolation) as refused:
        make_competition(club, olga, name="Doppia", rulesets=["terziglio"], format="double")
    assert refused.value.problems[0].field == "format"


def test_the_double_elimination_rounds_are_planned_from_the_start(client, club, olga):
    competition, _ = double_of_six(club, olga)
    stages = len(double_elimination(range(6), reset=False).rounds)
    assert competition.planned_total == stages
    html = client.get(
        reverse("public-competition", args=[club.slug, competition.slug])
    ).content.decode()
    assert html.count("not drawn yet") == stages
