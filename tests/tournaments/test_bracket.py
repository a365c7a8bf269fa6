"""A knockout's standings follow its bracket, and its bracket page shows it (issue 11, point 3).

The story of the issue: Anna beat Carla in the final, Elena won the third-place match; the
standings said Anna 1, Carla 2, Elena 2. They must say Anna 1, Carla 2, Elena 3, Bruno 4, and
the two first-round losers 5th together.
"""

from __future__ import annotations

import datetime as dt
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from scoring.rules import RULESETS
from tests.builders import by
from tests.clients import api_as
from tournaments import selectors, services

from .helpers import briscola_won_by, enter, make_competition, play

pytestmark = pytest.mark.django_db

#: Who beats whom: the stronger wins (Anna, Carla, Elena, Bruno, Dario, Franco).
STRENGTH = {"Anna": 6, "Carla": 5, "Elena": 4, "Bruno": 3, "Dario": 2, "Franco": 1}


def play_round(round_, user):
    services.publish_round(round_=round_, by=by(user))
    for table in round_.tables.select_related("game").order_by("number"):
        home, away = [s.entry.player.display_name for s in table.seats.order_by("position")]
        winner = 0 if STRENGTH[home] > STRENGTH[away] else 1
        play(table.game, briscola_won_by(winner, 2, 1), user)
    services.close_round(round_=round_, by=by(user))


def knockout_of_six(club, user, *, rounds_played=3, third_place=True):
    competition = make_competition(
        club,
        user,
        name="Coppa",
        rulesets=["briscola"],
        format="knockout",
        third_place=third_place,
        options={"briscola": {"hands_to_win": 1}},
    )
    entries = {e.player.display_name: e.pk for e in enter(competition, user, 6, seeded=True)}
    rounds = [services.add_round(competition=competition, by=by(user)) for _ in range(3)]
    for round_ in rounds[:rounds_played]:
        services.generate_round(round_=round_, by=by(user))
        play_round(round_, user)
    return competition, entries


def ranks(competition):
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    return [(row["name"], row["rank"]) for row in rows]


def test_issue_11_the_final_ranking_follows_the_bracket_with_a_third_place_match(club, olga):
    competition, _entries = knockout_of_six(club, olga)
    assert ranks(competition) == [
        ("Anna", 1),
        ("Carla", 2),
        ("Elena", 3),
        ("Bruno", 4),
        ("Dario", 5),
        ("Franco", 5),
    ]


def test_without_a_third_place_match_both_semi_final_losers_are_third(club, olga):
    competition, _entries = knockout_of_six(club, olga, third_place=False)
    assert ranks(competition) == [
        ("Anna", 1),
        ("Carla", 2),
        ("Bruno", 3),
        ("Elena", 3),
        ("Dario", 5),
        ("Franco", 5),
    ]


def test_midway_those_still_in_share_the_best_place_they_can_reach(club, olga):
    competition, _entries = knockout_of_six(club, olga, rounds_played=1)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    got = {row["name"]: (row["rank"], row["decided"]) for row in rows}
    assert got == {
        "Anna": (1, False),
        "Bruno": (1, False),
        "Carla": (1, False),
        "Elena": (1, False),
        "Dario": (5, True),
        "Franco": (5, True),
    }


def test_the_stored_snapshot_and_the_public_page_show_the_bracket_ranking(client, club, olga):
    competition, _entries = knockout_of_six(club, olga)
    services.store_standings(competition=competition)
    html = client.get(reverse("public-competition", args=[club.slug, competition.slug])).content
    text = html.decode()
    assert text.index("Anna") < text.index("Carla") < text.index("Elena") < text.index("Bruno")


BRACKET_NOTE = (
    "Knockout places follow the round each player reached, not the points: a player out in a "
    "later round ranks above one out earlier with more points. Players out in the same round "
    "share the place."
)


def test_the_standings_of_a_knockout_say_why_fewer_points_can_rank_higher(client, club, olga):
    competition, _entries = knockout_of_six(club, olga)
    services.store_standings(competition=competition)
    args = [club.slug, competition.slug]
    for name in ("public-competition", "public-standings"):
        html = client.get(reverse(name, args=args)).content.decode()
        assert f'<p class="hint" data-note="bracket">{BRACKET_NOTE}</p>' in html, name
    league = make_competition(club, olga, name="Lega")
    enter(league, olga, 3)
    html = client.get(reverse("public-competition", args=[club.slug, league.slug])).content
    assert 'data-note="bracket"' not in html.decode()


def bracket_page(client, club, competition):
    response = client.get(reverse("public-bracket", args=[club.slug, competition.slug]))
    assert response.status_code == 200
    return response


def test_the_bracket_page_names_the_rounds_and_shows_seeds_byes_and_the_third_place_match(
    client, club, olga
):
    competition, _entries = knockout_of_six(club, olga)
    response = bracket_page(client, club, competition)
    columns = response.context["bracket"]["columns"]
    assert [c["label"] for c in columns] == ["Quarter-finals", "Semi-finals", "Final"]
    first, semis, final = columns
    assert [(m["home"]["name"], m["away"]["name"]) for m in first["matches"]] == [
        ("Dario", "Elena"),
        ("Carla", "Franco"),
    ]
    assert [(m["home"]["seed"], m["away"]["seed"]) for m in first["matches"]] == [(4, 5), (3, 6)]
    assert [(m["home"]["name"], m["away"]["name"]) for m in semis["matches"]] == [
        ("Anna", "Elena"),
        ("Bruno", "Carla"),
    ]
    the_final, third = final["matches"]
    assert (the_final["home"]["name"], the_final["home"]["won"]) == ("Anna", True)
    assert (third["label"], third["home"]["name"], third["home"]["won"]) == (
        "Third-place match",
        "Elena",
        True,
    )
    assert [b["name"] for b in response.context["bracket"]["byes"]] == ["Anna", "Bruno"]
    assert [(r["place"], r["name"]) for r in response.context["bracket"]["ranking"]] == [
        (1, "Anna"),
        (2, "Carla"),
        (3, "Elena"),
        (4, "Bruno"),
        (5, "Dario"),
        (5, "Franco"),
    ]
    text = response.content.decode()
    assert "Final ranking" in text and "Byes (straight to the next round)" in text


def test_before_the_semis_are_played_their_sides_say_whose_winner_they_wait_for(client, club, olga):
    competition, _entries = knockout_of_six(club, olga, rounds_played=0)
    rounds = list(competition.rounds.order_by("number"))
    services.generate_round(round_=rounds[0], by=by(olga))
    response = bracket_page(client, club, competition)
    semis = response.context["bracket"]["columns"][1]["matches"]
    assert semis[0]["home"]["name"] == "Anna"
    assert semis[0]["away"] == {"name": "Winner of match 1", "known": False}
    third = response.context["bracket"]["columns"][2]["matches"][1]
    assert third["home"]["name"] == "Loser of match 3"
    assert "Ranking so far" in response.content.decode()


def test_the_bracket_page_speaks_italian(client, club, olga):
    competition, _entries = knockout_of_six(club, olga, rounds_played=1)
    response = client.get(
        reverse("public-bracket", args=[club.slug, competition.slug]),
        headers={"accept-language": "it"},
    )
    labels = [c["label"] for c in response.context["bracket"]["columns"]]
    assert labels == ["Quarti di finale", "Semifinali", "Finale"]


def test_a_competition_of_another_format_or_not_drawn_yet_has_no_bracket(client, club, olga):
    competition, _entries = knockout_of_six(club, olga, rounds_played=0)
    assert "drawn with the first round" in bracket_page(client, club, competition).content.decode()
    other = make_competition(club, olga, name="Lega")
    assert "not a knockout" in bracket_page(client, club, other).content.decode()


def test_the_schedule_and_the_calendar_name_the_knockout_rounds(client, club, olga):
    competition, _entries = knockout_of_six(club, olga, rounds_played=1)
    args = [club.slug, competition.slug]
    html = client.get(reverse("public-competition", args=args)).content.decode()
    assert "Round 1 · Quarter-finals" in html
    assert "Round 3 · Final" in html
    competition.rounds.update(date=dt.date(2026, 12, 5))
    feed = client.get(reverse("public-calendar", args=args)).content.decode()
    assert "Round 1 · Quarter-finals" in feed
    round_page = client.get(reverse("public-round", args=[*args, 1])).content.decode()
    assert "Round 1 · Quarter-finals" in round_page


def best_of_three(club, user):
    """A knockout of 4 played to two wins ("best of 3"): semi-final 1 goes to the bella (2–1),
    semi-final 2 ends 2–0."""
    competition = make_competition(
        club,
        user,
        name="Coppa",
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 2}},
    )
    enter(competition, user, 4, seeded=True)
    semis = services.add_round(competition=competition, by=by(user))
    services.generate_round(round_=semis, by=by(user))
    services.publish_round(round_=semis, by=by(user))
    first, second = semis.tables.select_related("game").order_by("number")
    won, lost = [70, 50], [50, 70]
    play(first.game, [{"dealer": d, "points": p} for d, p in ((0, won), (1, lost), (0, won))], user)
    play(second.game, briscola_won_by(1, 2, 2), user)
    return competition, semis


def test_a_best_of_three_shows_its_match_scores_in_games_everywhere(client, club, olga):
    competition, _semis = best_of_three(club, olga)
    args = [club.slug, competition.slug]
    bracket = bracket_page(client, club, competition).content.decode()
    scores = re.findall(r"data-match-score><strong>(.*?)</strong>(.*?)</p>", bracket)
    assert [(text, "after the bella" in rest) for text, rest in scores] == [
        ("2–1", True),
        ("0–2", False),
    ]
    public = client.get(reverse("public-round", args=[*args, 1])).content.decode()
    projector = client.get(reverse("public-projector", args=args)).content.decode()
    client.force_login(olga)
    organizer = client.get(f"/c/{club.slug}/k/{competition.slug}/rounds/1/").content.decode()
    for page in (public, projector, organizer):
        assert re.findall(r"data-match-score><strong>(.*?)</strong>", page) == ["2–1", "0–2"]
        assert page.count("after the bella") == 1


def test_the_api_gives_each_match_its_score_in_games(club, olga):
    competition, _semis = best_of_three(club, olga)
    answer = api_as(olga).get(f"/api/v1/competitions/{competition.pk}/rounds/1/")
    assert answer.status_code == 200
    matches = [t["game"]["match"] for t in answer.json()["tables"]]
    assert matches == [
        {"games": [2, 1], "finished": True, "bella": True},
        {"games": [0, 2], "finished": True, "bella": False},
    ]


@pytest.mark.parametrize(
    ("totals", "fmt", "status", "expected"),
    [
        ([3, 2, 3, 2], "pairs", "finished", (3, 2, True)),  # "3–2 after the bella"
        ([2, 3], "singles", "finished", (2, 3, True)),
        ([3, 1], "singles", "finished", (3, 1, False)),
        ([2, 2], "singles", "in_progress", (2, 2, False)),
    ],
)
def test_a_best_of_five_reads_its_score_and_its_bella(totals, fmt, status, expected):
    game = SimpleNamespace(
        hand_count=sum(totals[:2]),
        rules=RULESETS["briscola"],
        totals=totals,
        options={"format": fmt, "hands_to_win": 3},
        status=status,
    )
    score = selectors.games_score(game)
    assert (score["home"], score["away"], score["bella"]) == expected
