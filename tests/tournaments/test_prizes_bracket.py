"""Prizes after a knockout (issue 32, point 1): the money follows the final ranking the
competition shows, the bracket's, under both tie rules; and every place that shows the prizes
(the prize page, the printed results sheet, the public page, the API, the final e-mails) reads
the one allocation (``selectors.awarded``). The worked example is in docs/prizes.md."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from scoring import services as scoring
from tests.builders import by
from tests.clients import api_as, login
from tournaments import selectors, services
from tournaments.selectors.prizes import awarded

from .test_swiss_cut import play_round, swiss_of_eight

pytestmark = pytest.mark.django_db


def next_round(competition, user, upset=()):
    round_ = services.add_round(competition=competition, by=by(user))
    services.generate_round(round_=round_, by=by(user), seed=1)
    play_round(round_, user, upset)
    return round_


def overall(competition):
    return selectors.standings_of(competition)["tables"][0]["rows"]


@pytest.fixture
def cut(club, olga):
    """A Briscola Swiss of 8 (3 rounds) cut to the top 4, no third-place match, prizes
    50/30/20. The 4th seed beats the 1st in a semi-final and wins the final: the final's loser
    ends 2nd level on points with the 1st seed, 3rd with the other semi-final loser."""
    competition = swiss_of_eight(club, olga)
    for _ in range(3):
        next_round(competition, olga)
    seeds = [row["name"] for row in overall(competition)[:4]]
    next_round(competition, olga, upset=[seeds[3]])
    next_round(competition, olga)
    for rank, amount in ((1, 5000), (2, 3000), (3, 2000)):
        services.add_prize(competition=competition, rank=rank, amount_cents=amount, by=by(olga))
    rows = overall(competition)
    by_name = {row["name"]: row for row in rows}
    runner_up = rows[1]["name"]
    thirds = [row["name"] for row in rows if row["rank"] == 3]
    # The case of the issue: the final's loser level on points with a semi-final loser.
    assert [row["rank"] for row in rows[:4]] == [1, 2, 3, 3]
    assert any(by_name[name]["points"] == by_name[runner_up]["points"] for name in thirds)
    return competition, rows


def paid(competition):
    return [(a["name"], a["place"], a["amount_cents"]) for a in awarded(competition)]


@pytest.mark.parametrize("ties", ["split", "tie_break"])
def test_the_money_follows_the_bracket_50_30_10_10(cut, olga, ties):
    competition, rows = cut
    services.set_prize_rules(competition=competition, ties=ties, both=False, by=by(olga))
    names = [row["name"] for row in rows]
    assert paid(competition) == [
        (names[0], "1", 5000),
        (names[1], "2", 3000),
        (names[2], "3–4", 1000),
        (names[3], "3–4", 1000),
    ]


def _amounts(html: str) -> dict[str, str]:
    """entry id -> the prize text of each awards row of a page."""
    return dict(
        re.findall(
            r'data-entry="(\d+)"><td>[^<]*</td><td>[^<]*</td><td>[^<]*</td>'
            r'<td class="amount prize">([^<]*)</td>',
            html,
        )
    )


def test_every_place_that_shows_the_prizes_reads_the_one_allocation(
    cut, olga, django_capture_on_commit_callbacks
):
    competition, rows = cut
    expected = {
        str(row["entry"]): text
        for row, text in zip(rows, ["€50.00", "€30.00", "€10.00", "€10.00"], strict=False)
    }
    for row in rows[:4]:
        scoring.update_player(
            player=competition.entries.get(pk=row["entry"]).player,
            by=by(olga),
            email=f"{row['name'].lower()}@example.org",
            language="en",
        )
    client = login(olga)
    slugs = (competition.club.slug, competition.slug)
    page = client.get(reverse("competition-prizes", args=slugs)).content.decode()
    assert _amounts(page) == expected
    sheet = client.get(reverse("competition-results-sheet", args=slugs)).content.decode()
    on_sheet = dict(
        re.findall(r'data-entry="(\d+)">.*?<td class="prize">([^<]*)</td>', sheet, re.S)
    )
    assert {k: v for k, v in on_sheet.items() if v} == expected
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=by(olga))
    public = client.get(reverse("public-competition", args=slugs)).content.decode()
    assert _amounts(public) == expected
    api = api_as(None).get(f"/api/v1/competitions/{competition.pk}/awards/").json()
    assert {str(a["entry"]): a["amount_cents"] for a in api["awards"]} == {
        str(row["entry"]): cents for row, cents in zip(rows, [5000, 3000, 1000, 1000], strict=False)
    }
    letter = next(m for m in mail.outbox if m.to == [f"{rows[0]['name'].lower()}@example.org"])
    for row, text in zip(rows[:4], ["€50.00", "€30.00", "€10.00", "€10.00"], strict=True):
        assert f"{row['name']} — {text}" in letter.body
