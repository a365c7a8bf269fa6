"""Issue 32, point 7c: the draw-quality panel knows what a seeded knockout cannot avoid. A
bracket's round seats who the seeds and the results say, so a rematch there is shown (how
many, between whom) but is not flagged as a fault of the draw; the same rematch in a round
drawn freely still is."""

from __future__ import annotations

from scoring.services import Actor
from tests.clients import login
from tournaments import presenters, services
from tournaments.models import Round

from .helpers import briscola_won_by, enter, make_competition, play
from .test_draw_quality import quality_panel

DRAWN = {1: [(1, 2), (3, 4)], 2: [(1, 3), (2, 4)], 3: [(1, 2)]}
NAMES = {1: "Anna", 2: "Bruno", 3: "Carla", 4: "Dario"}
FIGURES = {"repeated_pairs": 0, "max_meetings": 1}


def test_a_forced_rematch_in_a_bracket_is_not_a_fault():
    quality = presenters.draw_quality(FIGURES | {"matches": [3]}, DRAWN, 3, NAMES)
    assert quality["good"] and quality["forced"]
    assert quality["headline"].startswith("1 repeated meeting")
    assert quality["floor"].startswith("The bracket decides who meets")
    # Still shown: who meets again, and how often they met before.
    assert [g["count"] for g in quality["this_round"]] == [1]
    assert "Anna" in quality["this_round"][0]["pairs"][0]


def test_the_same_rematch_drawn_freely_is_still_flagged():
    quality = presenters.draw_quality(FIGURES, DRAWN, 3, NAMES)
    assert not quality["good"] and not quality["forced"]
    assert "bracket" not in quality["floor"]


def test_the_knockout_panel_shows_a_forced_rematch_as_good(club, olga):
    # A double elimination of 4: the grand final is a rematch the bracket cannot avoid.
    competition = make_competition(
        club, olga, slug="coppa", rulesets=["briscola"], format="double",
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    by = Actor.for_user(olga)
    enter(competition, olga, 4, seeded=True)
    for _ in range(6):
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by)
        round_.refresh_from_db()
        url = f"/c/uno/k/coppa/rounds/{round_.number}/"
        headline, floor, plan = quality_panel(login(olga), url)
        if plan:
            break
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(0, 2, 1), olga)
        services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    assert plan, "the bracket never came to a rematch"
    assert headline != "Nobody meets anybody twice."
    assert floor.startswith("The bracket decides who meets")
    html = login(olga).get(url).content.decode()
    assert 'class="quality-headline good"' in html


def test_the_final_of_a_swiss_cut_that_repeats_a_swiss_meeting_is_not_a_fault(club, olga):
    # Four players over three Swiss rounds meet everyone once: the final of the top two, seeded
    # from the Swiss standings, cannot avoid a rematch.
    competition = make_competition(
        club, olga, slug="svizzera", rulesets=["briscola"], format="swiss", table_size=2,
        planned_rounds=3, cut_to=2, options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    by = Actor.for_user(olga)
    enter(competition, olga, 4, seeded=True)
    for _ in range(3):
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by)
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(0, 2, 1), olga)
        services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    final = services.add_round(competition=competition, by=by)
    services.generate_round(round_=final, by=by)
    final.refresh_from_db()
    assert final.metrics["matches"] == [1]
    headline, floor, _plan = quality_panel(login(olga), "/c/uno/k/svizzera/rounds/4/")
    assert headline.startswith("1 repeated meeting")
    assert floor.startswith("The bracket decides who meets")
    html = login(olga).get("/c/uno/k/svizzera/rounds/4/").content.decode()
    assert 'class="quality-headline good"' in html
