"""Draw quality in plain words (issue 11 point 5, issue 12 point 5): who repeats and how often,
the organizer's choice for unavoidable repeats ("spread" or "fewest") with both floors shown,
and a swap's effect shown before it is saved."""

from __future__ import annotations

import re
from collections import Counter
from itertools import combinations

import pytest

from scoring.services import Actor
from tests.clients import login
from tournaments import presenters, selectors, services
from tournaments.models import CompetitionEvent, Round

from .helpers import briscola_won_by, enter, make_competition, play, tables_of, terziglio_won_by

pytestmark = pytest.mark.django_db

TWENTY = [
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Ivo", "Lia",
    "Mario", "Nina", "Olivia", "Piero", "Rita", "Sandro", "Tina", "Vito", "Zeno", "Wanda",
]  # fmt: skip


def chiamata_of_twenty(club, user, **fields):
    """20 players of Briscola chiamata (tables of 5) over 4 rounds."""
    competition = make_competition(
        club, user, rulesets=["briscola_chiamata"], planned_rounds=4, slug="coppa", **fields
    )
    by = Actor.for_user(user)
    for name in TWENTY:
        services.add_entry(competition=competition, player=name, by=by)
    return competition


def pair_meetings(competition) -> Counter:
    counts: Counter = Counter()
    for tables in selectors.drawn_tables(competition).values():
        for table in tables:
            counts.update(tuple(sorted(p)) for p in combinations(table, 2))
    return counts


def test_spread_keeps_twenty_players_at_tables_of_five_from_sitting_together_every_round(
    club, olga
):
    # The bug: "fewest" put every repeat on four pairs who sat together all four rounds.
    competition = chiamata_of_twenty(club, olga)
    assert competition.repeat_objective == "spread"  # the default
    by = Actor.for_user(olga)
    first = services.add_round(competition=competition, by=by)
    services.generate_round(round_=first, by=by, seed=7)
    counts = pair_meetings(competition)
    assert competition.rounds.count() == 4
    assert all(len(t) == 5 for r in competition.rounds.all() for t in tables_of(r))
    assert max(counts.values()) == 2  # nobody meets anybody a third time
    first.refresh_from_db()
    assert first.metrics["max_meetings"] == 2 and first.metrics["objective"] == "spread"
    # Both floors: 4 rounds of 4 tables of 5 are 160 meetings among 190 pairs, yet at least
    # 12 of them repeat; no pair needs to meet more than twice.
    assert first.metrics["bounds"] == {"fewest": 12, "spread": 2}
    assert first.metrics["repeated_pairs"] == sum(c - 1 for c in counts.values())


def test_fewest_is_the_organizers_choice_and_is_kept_and_audited(club, olga):
    competition = chiamata_of_twenty(club, olga)
    by = Actor.for_user(olga)
    first = services.add_round(competition=competition, by=by)
    services.generate_round(round_=first, by=by, seed=7, objective="fewest")
    competition.refresh_from_db()
    first.refresh_from_db()
    assert competition.repeat_objective == "fewest"
    counts = pair_meetings(competition)
    # Fewest repeats in all: the total reaches the floor, on pairs who then meet more often.
    assert first.metrics["repeated_pairs"] == sum(c - 1 for c in counts.values()) == 12
    assert max(counts.values()) > 2
    event = CompetitionEvent.objects.filter(action="generate_round").last()
    assert event.data["objective"] == "fewest" and event.data["objective_before"] == "spread"


def test_an_unknown_objective_is_refused_on_its_field(club, olga):
    competition = chiamata_of_twenty(club, olga)
    services.add_round(competition=competition, by=Actor.for_user(olga))
    client = login(olga)
    response = client.post("/c/uno/k/coppa/rounds/1/", {"action": "generate", "objective": "most"})
    assert response.status_code == 400
    html = response.content.decode()
    block = html.split('data-field="objective"', 1)[1].split("data-field=", 1)[0]
    assert "Select a valid choice" in block
    assert not Round.objects.get(competition=competition).tables.exists()
    competition.refresh_from_db()
    assert competition.repeat_objective == "spread"


def test_the_draw_form_sets_the_objective(club, olga):
    competition = chiamata_of_twenty(club, olga)
    services.add_round(competition=competition, by=Actor.for_user(olga))
    client = login(olga)
    html = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert 'name="objective" value="spread"' in html and "fewest repeats in all" in html
    response = client.post(
        "/c/uno/k/coppa/rounds/1/", {"action": "generate", "seed": "7", "objective": "fewest"}
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.repeat_objective == "fewest"


def test_the_round_page_says_who_repeats_and_the_floors(club, olga):
    competition = chiamata_of_twenty(club, olga)
    by = Actor.for_user(olga)
    first = services.add_round(competition=competition, by=by)
    services.generate_round(round_=first, by=by, seed=7)
    client = login(olga)
    html = client.get("/c/uno/k/coppa/rounds/4/").content.decode()
    assert "Perfect" not in html
    assert (
        "At least 12 repeated meetings are unavoidable; "
        "no pair needs to meet more than 2 times." in html
    )
    headline = re.search(r'data-quality="headline">(.*?)</p>', html).group(1)
    repeated = Round.objects.get(competition=competition, number=4).metrics["repeated_pairs"]
    assert headline == (
        f"{repeated} repeated meetings: players sit together again. "
        "No pair meets more than 2 times."
    )
    # Round 4's pairs who met before, by name, each pair alphabetical.
    names = {e.pk: e.name for e in competition.entries.all()}
    drawn = selectors.drawn_tables(competition)
    earlier = Counter(
        tuple(sorted(p))
        for n, tables in drawn.items()
        if n < 4
        for t in tables
        for p in combinations(t, 2)
    )
    again = sorted(
        " and ".join(sorted((names[a], names[b]), key=str.casefold))
        for t in drawn[4]
        for a, b in (tuple(sorted(p)) for p in combinations(t, 2))
        if earlier[(a, b)]
    )
    assert again  # 4 rounds of 20 at tables of 5 cannot avoid repeats in the last round
    block = html.split('data-repeats="round"', 1)[1].split("</div>", 1)[0]
    shown = re.search(r'data-times="1"><strong>Met once before:</strong> (.*?)</li>', block)
    assert sorted(shown.group(1).split(", "), key=str.casefold) == sorted(again, key=str.casefold)
    plan = html.split('data-repeats="plan"', 1)[1].split("</div>", 1)[0]
    assert "Meet 2 times:" in plan and "Meet 3 times" not in plan


def test_repeats_are_grouped_by_how_often_the_pair_met_before():
    drawn = {1: [(1, 2, 3)], 2: [(1, 2, 4)], 3: [(1, 2, 3), (4, 5)]}
    found = presenters.repeats_of(drawn, 3)
    assert found["this_round"] == {2: [(1, 2)], 1: [(1, 3), (2, 3)]}
    assert found["plan"] == {3: [(1, 2)], 2: [(1, 3), (2, 3)]}
    names = {1: "Bruno", 2: "anna", 3: "Carla"}
    quality = presenters.draw_quality({"repeated_pairs": 4, "max_meetings": 3}, drawn, 3, names)
    assert [(g["heading"], g["pairs"]) for g in quality["this_round"]] == [
        ("Met 2 times before", ["anna and Bruno"]),
        ("Met once before", ["anna and Carla", "Bruno and Carla"]),
    ]
    assert quality["floor"] == ""  # a draw that knows no floor says none


def test_a_swap_shows_its_effect_before_it_is_saved_and_no_draw_time_after(club, olga):
    competition = make_competition(
        club, olga, planned_rounds=2, slug="coppa"
    )  # Terziglio, tables of 3
    by = Actor.for_user(olga)
    for name in TWENTY[:9]:
        services.add_entry(competition=competition, player=name, by=by)
    first = services.add_round(competition=competition, by=by)
    services.generate_round(round_=first, by=by, seed=1)
    services.publish_round(round_=first, by=by)
    second = competition.rounds.get(number=2)
    assert second.metrics["repeated_pairs"] == 0
    x, z = tables_of(second)[0][:2]
    y = next(e for t in tables_of(first) if x in t for e in t if e != x)
    before_tables = tables_of(second)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/2/").content.decode()
    assert 'data-metric="seconds"' in page  # a draw shows its time

    preview = client.post("/c/uno/k/coppa/rounds/2/", {"action": "swap_preview", "a": y, "b": z})
    assert preview.status_code == 200
    html = preview.content.decode()
    box = html.split('id="swap-preview"', 1)[1].split("</form>", 1)[0]
    rows = re.findall(r'<th scope="row">(.*?)</th><td>(\d+)</td><td>(\d+)</td>', box)
    assert [r[0] for r in rows] == ["Repeated meetings", "Most meetings of two players"]
    assert rows[0][1] == "0" and int(rows[0][2]) >= 1 and rows[1][1:] == ("1", "2")
    assert "Met once before:" in box
    assert f'name="a" value="{y}"' in box and f'name="b" value="{z}"' in box
    second.refresh_from_db()
    assert tables_of(second) == before_tables  # nothing saved by a preview
    assert not CompetitionEvent.objects.filter(action="swap").exists()

    assert (
        client.post("/c/uno/k/coppa/rounds/2/", {"action": "swap", "a": y, "b": z}).status_code
        == 302
    )
    second.refresh_from_db()
    # The preview said what the swap did.
    assert second.metrics["repeated_pairs"] == int(rows[0][2]) and "seconds" not in second.metrics
    event = CompetitionEvent.objects.get(action="swap")
    assert event.data["repeated_before"] == 0 and event.data["repeated_after"] == int(rows[0][2])
    after = client.get("/c/uno/k/coppa/rounds/2/").content.decode()
    assert 'data-metric="seconds"' not in after and "0.0 s" not in after
    assert f"{rows[0][2]} repeated meeting" in after


def test_a_preview_of_an_unknown_player_is_refused_next_to_the_field(club, olga):
    competition = make_competition(club, olga, planned_rounds=1, slug="coppa")
    by = Actor.for_user(olga)
    for name in TWENTY[:6]:
        services.add_entry(competition=competition, player=name, by=by)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    response = login(olga).post(
        "/c/uno/k/coppa/rounds/1/", {"action": "swap_preview", "a": 10**6, "b": 1}
    )
    assert response.status_code == 400
    assert 'id="swap-preview"' not in response.content.decode()


def test_the_api_and_the_background_draw_take_the_objective(club, olga, api):
    from tournaments import tasks

    competition = chiamata_of_twenty(club, olga)
    by = Actor.for_user(olga)
    services.add_round(competition=competition, by=by)
    base = f"/api/v1/competitions/{competition.pk}/rounds/1/generate/"
    refused = api.post(base, {"objective": "most"}, format="json")
    assert refused.status_code == 400 and "objective" in str(refused.json())
    answer = api.post(base, {"seed": 7, "objective": "fewest"}, format="json")
    assert answer.status_code == 200
    competition.refresh_from_db()
    assert competition.repeat_objective == "fewest"
    # A large round is drawn by the task, which passes the organizer's choice on.
    first = competition.rounds.get(number=1)
    tasks.generate_round(first.pk, olga.pk, 7, None, "spread")
    competition.refresh_from_db()
    first.refresh_from_db()
    assert competition.repeat_objective == "spread" and first.metrics["objective"] == "spread"
    assert first.draw_problem is None


def quality_panel(client, url):
    html = client.get(url).content.decode()
    panel = html.split('id="quality"', 1)[1].split("</section>", 1)[0]
    headline = re.search(r'data-quality="headline">(.*?)</p>', panel).group(1)
    floor = re.search(r'data-quality="floor">(.*?)</p>', panel)
    plan = re.findall(r'data-times="(\d+)"><strong>Meet \d+ times:</strong> (.*?)</li>', panel)
    return headline, floor.group(1) if floor else "", plan


def test_a_league_whose_players_changed_shows_no_floor_its_figures_contradict(club, olga):
    # 9 players of Terziglio over 5 nights, one withdrawn after the first: the floor of 9
    # repeats assumed the same 9 players every night, the draw has fewer.
    competition = make_competition(club, olga, slug="coppa", kind="league", planned_rounds=5)
    by = Actor.for_user(olga)
    entries = enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=by)
    services.generate_round(round_=first, by=by, seed=0)
    services.publish_round(round_=first, by=by)
    for table in first.tables.select_related("game"):
        play(table.game, terziglio_won_by(0, 3), olga)
    services.close_round(round_=Round.objects.get(pk=first.pk), by=by)
    services.withdraw_entry(entry=entries[0], by=by)
    second = competition.rounds.get(number=2)
    services.generate_round(round_=second, by=by, seed=0)
    second.refresh_from_db()
    repeated, fewest = second.metrics["repeated_pairs"], second.metrics["bounds"]["fewest"]
    assert 0 < repeated < fewest  # the draw did better than the stored floor
    headline, floor, plan = quality_panel(login(olga), "/c/uno/k/coppa/rounds/2/")
    assert headline.startswith(f"{repeated} repeated meetings")
    assert sum((int(times) - 1) * len(pairs.split(", ")) for times, pairs in plan) == repeated
    assert floor == "The players changed between rounds: no floor of unavoidable repeats applies."


def test_a_knockout_counts_the_meetings_its_lists_show(club, olga):
    # A double elimination of 4: the grand final is a rematch, shown in the lists.
    competition = make_competition(
        club, olga, slug="coppa", rulesets=["briscola"], format="double",
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    by = Actor.for_user(olga)
    enter(competition, olga, 4, seeded=True)
    number = 0
    while True:
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by)
        round_.refresh_from_db()
        headline, _floor, plan = quality_panel(
            login(olga), f"/c/uno/k/coppa/rounds/{round_.number}/"
        )
        if plan:
            break
        services.publish_round(round_=round_, by=by)
        for table in round_.tables.select_related("game"):
            play(table.game, briscola_won_by(0, 2, 1), olga)
        services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
        number += 1
        assert number < 6
    assert round_.metrics["repeated_pairs"] == 0  # the round alone
    repeated = sum((int(times) - 1) * len(pairs.split(", ")) for times, pairs in plan)
    assert headline != "Nobody meets anybody twice."
    assert headline.startswith(f"{repeated} repeated meeting")
