"""The competition pages, a round from the draw to the close: preview, swaps, publishing,
closing, forfeits, adjustments, check-in, the draw by the task, the printable cards."""

import re

import pytest
from django.test import Client

from scoring.models import Game, GameStatus, TableLink
from scoring.selectors import is_public_game
from scoring.services import Actor
from tests.clients import field_error, login
from tournaments import services
from tournaments.models import Adjustment, CheckIn, Competition, Round, RoundStatus, Table
from tournaments.views import rounds as round_views

from .pages_helpers import SIX, action_errors, make_competition, standings_rows, win

pytestmark = pytest.mark.django_db


# -- a round, from the draw to the close ------------------------------------------------------


def test_a_round_is_drawn_previewed_swapped_published_played_and_closed(olga, club, players):
    competition = make_competition(
        club, olga, SIX, planned_rounds=1, options={"terziglio": {"target_score": 2}}
    )
    client = login(olga)
    response = client.post(
        "/c/uno/k/coppa/",
        {
            "action": "add_round",
            "date": "2025-03-01",
            "start_time": "21:00",
            "duration_minutes": "120",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/c/uno/k/coppa/rounds/1/"
    round_ = Round.objects.get(competition=competition)
    assert str(round_.start_time) == "21:00:00" and round_.duration_minutes == 120

    response = client.post("/c/uno/k/coppa/rounds/1/", {"action": "generate", "seed": "7"})
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.seed == 7 and round_.tables.count() == 2
    html = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Quality of the draw" in html
    metrics = dict(
        re.findall(
            r'data-metric="(\w+)">\s*<dt>.*?</dt>\s*<dd><span class="value">(.*?)</span>', html
        )
    )
    assert round_.metrics["repeated_pairs"] == 0
    assert 'data-quality="headline">Nobody meets anybody twice.</p>' in html
    assert "Perfect" not in html  # the plain sentence says it, no "Perfect: yes"
    low, high = round_.metrics["byes_per_player"]
    assert metrics["byes_per_player"] == (str(low) if low == high else f"{low}–{high}")
    assert set(metrics) == {"byes_per_player", "first_dealer", "sit_outs", "lower_bound", "seconds"}
    assert "Rounds a player sits out entirely" in html  # each figure is explained

    first, second = round_.tables.order_by("number")
    a = first.seats.get(position=0).entry
    b = second.seats.get(position=2).entry
    response = client.post("/c/uno/k/coppa/rounds/1/", {"action": "swap", "a": a.pk, "b": b.pk})
    assert response.status_code == 302
    first, second = round_.tables.order_by("number")
    assert first.seats.get(position=0).entry == b and second.seats.get(position=2).entry == a
    same = client.post("/c/uno/k/coppa/rounds/1/", {"action": "swap", "a": a.pk, "b": a.pk})
    assert field_error(same.content.decode(), "b") == "Choose two different players."

    assert client.post("/c/uno/k/coppa/rounds/1/", {"action": "publish"}).status_code == 302
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PUBLISHED
    games = [t.game for t in round_.tables.select_related("game").order_by("number")]
    assert all(g is not None and is_public_game(g) for g in games)
    assert games[0].options["target_score"] == 2

    by = Actor.for_user(olga)
    win(games[0], by)
    again = client.post("/c/uno/k/coppa/rounds/1/", {"action": "swap", "a": a.pk, "b": b.pk})
    assert again.status_code == 400  # table 1 has a hand: its players are fixed
    html = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert f'href="/g/{games[0].pk}/"' in html and f'href="/g/{games[0].pk}/table/"' in html
    assert 'data-status="finished"' in html and 'data-status="in_progress"' in html
    refused = client.post("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"})
    assert refused.status_code == 400
    assert action_errors(refused.content.decode(), "close") == [
        "Table 2 has not finished: finish or forfeit it first."
    ]
    win(games[1], by, soloist=2)
    assert (
        client.post("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"}).status_code
        == 302
    )
    round_.refresh_from_db()
    assert round_.status == RoundStatus.CLOSED


def test_closing_names_every_open_table(olga, club, players):
    names = [*SIX, "Gina", "Ugo", "Ivo"]
    competition = make_competition(club, olga, names, options={"terziglio": {"target_score": 2}})
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    win(round_.tables.get(number=2).game, by)
    response = login(olga).post("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"})
    assert action_errors(response.content.decode(), "close") == [
        "Tables 1, 3 have not finished: finish or forfeit them first."
    ]


def test_closing_a_round_asks_first_and_works_without_javascript(olga, club, players):
    competition = make_competition(club, olga, SIX, options={"terziglio": {"target_score": 2}})
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    for number, table in enumerate(round_.tables.select_related("game").order_by("number")):
        win(table.game, by, **({"soloist": 2} if number else {}))
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert 'action="/c/uno/k/coppa/rounds/1/#close"' in page  # the answer opens at the question
    asked = client.post("/c/uno/k/coppa/rounds/1/", {"action": "close"})
    assert asked.status_code == 200
    html = asked.content.decode()
    question = html.split('id="confirm-close"', 1)[1].split("</div>", 1)[0]
    assert "Close round 1?" in question
    assert '<input type="hidden" name="confirm" value="yes">' in question
    assert "Yes, close round 1" in question and "Keep it open" in question
    round_.refresh_from_db()
    assert round_.status == RoundStatus.PUBLISHED
    assert 'id="confirm-close"' not in client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    closed = client.post("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"})
    assert closed.status_code == 302
    round_.refresh_from_db()
    assert round_.status == RoundStatus.CLOSED


def test_a_table_settled_by_forfeit(olga, club, players):
    competition = make_competition(club, olga, SIX, options={"terziglio": {"target_score": 2}})
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=5)
    services.publish_round(round_=round_, by=by)
    first, second = round_.tables.select_related("game").order_by("number")
    seated = list(first.seats.order_by("position").values_list("entry_id", flat=True))
    client = login(olga)
    refused = client.post(
        "/c/uno/k/coppa/rounds/1/", {"action": "forfeit", "table": "1", "reason": ""}
    )
    assert refused.status_code == 400
    assert field_error(refused.content.decode(), "reason") == "This field is required."
    response = client.post(
        "/c/uno/k/coppa/rounds/1/",
        {
            "action": "forfeit",
            "table": "1",
            "reason": "the table left early",
            f"points_{seated[0]}": "2.5",
        },
    )
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.forfeited and first.forfeit_reason == "the table left early"
    assert Game.objects.get(pk=first.game_id).status == GameStatus.ABANDONED
    adjustment = Adjustment.objects.get()
    assert (adjustment.entry_id, str(adjustment.points), adjustment.round_id) == (
        seated[0],
        "2.50",
        round_.pk,
    )
    win(second.game, by)
    assert (
        client.post("/c/uno/k/coppa/rounds/1/", {"action": "close", "confirm": "yes"}).status_code
        == 302
    )


def test_adjustments_from_the_dashboard_count_in_the_standings(olga, club, players):
    competition = make_competition(club, olga, SIX)
    anna = competition.entries.get(player__display_name="Anna")
    client = login(olga)
    refused = client.post(
        "/c/uno/k/coppa/", {"action": "adjust", "entry": anna.pk, "points": "-1", "reason": ""}
    )
    assert field_error(refused.content.decode(), "reason") == "This field is required."
    response = client.post(
        "/c/uno/k/coppa/",
        {"action": "adjust", "entry": anna.pk, "points": "-1.5", "reason": "late again"},
    )
    assert response.status_code == 302
    page = client.get("/c/uno/k/coppa/").content.decode()
    assert "late again" in page and "-1.5" in page
    rows = standings_rows(Client().get("/p/uno/coppa/").content.decode())
    assert rows[-1] == ("6", "Anna", "-1.5")


def test_check_in_seats_only_those_present(olga, club, players):
    names = [*SIX, "Gina", "Ugo", "Ivo"]
    competition = make_competition(
        club, olga, names, kind="league", format="club_night", name="Serate"
    )
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    present = list(competition.entries.order_by("id").values_list("pk", flat=True)[:6])
    client = login(olga)
    page = client.get("/c/uno/k/serate/rounds/1/").content.decode()
    assert '<details class="card" id="check-in" open>' in page  # open for club nights
    response = client.post("/c/uno/k/serate/rounds/1/", {"action": "checkin", "present": present})
    assert response.status_code == 302
    assert set(CheckIn.objects.values_list("entry_id", flat=True)) == set(present)
    client.post("/c/uno/k/serate/rounds/1/", {"action": "generate"})
    seated = set(
        Table.objects.filter(round=round_).values_list("seats__entry_id", flat=True).distinct()
    )
    assert seated == set(present)


def test_a_large_round_is_drawn_by_the_task(
    olga, club, players, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(round_views, "TASK_THRESHOLD", 5)
    make_competition(club, olga, SIX)
    client = login(olga)
    services.add_round(competition=Competition.objects.get(), by=Actor.for_user(olga))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = client.post("/c/uno/k/coppa/rounds/1/", {"action": "generate", "seed": "4"})
    assert response.status_code == 302 and "?drawing=" in response["Location"]
    waiting = client.get(response["Location"]).content.decode()
    assert "Drawing the tables…" in waiting and 'http-equiv="refresh"' in waiting
    assert not Table.objects.exists()
    stale = re.sub(r"at=\d+", "at=1", response["Location"])  # asked long ago: no worker?
    late = client.get(stale).content.decode()
    assert "have not come back" in late and 'http-equiv="refresh"' not in late
    for callback in callbacks:  # the worker runs the task
        callback()
    assert Table.objects.count() == 2 and Round.objects.get().seed == 4
    done = client.get(response["Location"]).content.decode()
    assert "Drawing the tables…" not in done and "Draft tables" in done


def test_the_printable_cards_have_a_qr_code_pin_and_seats_per_table(olga, club, players):
    competition = make_competition(club, olga, SIX)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=2)
    client = login(olga)
    draft = client.get("/c/uno/k/coppa/rounds/1/cards/").content.decode()
    assert "Publish it first" in draft and "<svg" not in draft
    services.publish_round(round_=round_, by=by)
    html = client.get("/c/uno/k/coppa/rounds/1/cards/").content.decode()
    assert html.count('class="print-card"') == 2 and html.count("<svg") == 2
    for table in round_.tables.select_related("game__table_link"):
        link = table.game.table_link
        assert link.pin in html and f"/t/{link.token}/" in html
        names = list(
            table.game.seats.order_by("index").values_list("player__display_name", flat=True)
        )
        card = html.split(f'data-table="{table.number}"', 1)[1].split("</article>", 1)[0]
        listed = re.findall(r"<li>([^<·]+?)(?: <span|</li>)", card)
        assert [n.strip() for n in listed] == names  # in dealing order


def test_printing_the_cards_reads_the_table_links_and_never_makes_one(olga, club, players):
    """A GET writes nothing: a game without a link (made before links came with every game)
    gets a card that says so, and no link row appears."""
    competition = make_competition(club, olga, SIX)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=2)
    services.publish_round(round_=round_, by=by)
    first = round_.tables.order_by("number").first().game
    TableLink.objects.filter(game=first).delete()
    html = login(olga).get("/c/uno/k/coppa/rounds/1/cards/").content.decode()
    assert not TableLink.objects.filter(game=first).exists()
    assert TableLink.objects.count() == 1 and html.count("<svg") == 1
    assert "This table has no link" in html
