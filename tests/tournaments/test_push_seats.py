"""Your table on your phone by Web Push (issue 37 point 5): when a round is published, or a
change moves a player, each device the player turned notifications on for is sent where they
sit, with whom and whether they deal first, in the device's language, and a tap opens My games;
once per version of their seat, however often the task runs. The push service is
tests/push_receiver.py, which decrypts each message as the browser would."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.services import Actor, push
from tests.clients import login
from tests.tournaments.helpers import enter, make_competition
from tournaments import services, tasks
from tournaments.models import TableSeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, olga, oscar):
    """A competition of Oscar (an account with its player) and eight others (three tables of
    Terziglio), round 1 drawn."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, name="Coppa")
    player = scoring.add_player(club=club, display_name="Oscar", by=by, user=oscar)
    mine = services.add_entry(competition=competition, player=player, by=by)
    others = enter(competition, olga, 8)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    return round_, mine, others


def subscribe(receiver, user, language):
    device = receiver.device()
    push.subscribe(user=user, subscription=device.subscription(), language=language)
    return device


def expected(entry, words: dict) -> str:
    seat = TableSeat.objects.select_related("table").get(entry=entry)
    others = [
        s.entry.name
        for s in TableSeat.objects.filter(table=seat.table).order_by("position")
        if s.entry_id != entry.pk
    ]
    text = words["round"] % {"round": 1, "table": seat.table.number}
    text += ", " + words["with"] % {"names": ", ".join(others)}
    if seat.position == min(seat.table.seats.values_list("position", flat=True)):
        text += " · " + words["first"]
    return text


EN = {
    "round": "Round %(round)s is published: table %(table)s",
    "with": "with %(names)s",
    "first": "you deal first",
}
IT = {
    "round": "Il turno %(round)s è pubblicato: tavolo %(table)s",
    "with": "con %(names)s",
    "first": "sei il primo mazziere",
}


def test_a_published_round_tells_each_device_the_players_table_in_its_language(
    push_receiver, settings, night, olga, oscar, django_capture_on_commit_callbacks
):
    round_, mine, _others = night
    phone, tablet = subscribe(push_receiver, oscar, "it"), subscribe(push_receiver, oscar, "en")
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    read = {
        d.path: push_receiver.read(d, settings.VAPID_PUBLIC_KEY) for d in push_receiver.deliveries
    }
    assert read.keys() == {"/push/1", "/push/2"}
    assert read["/push/1"]["body"] == expected(mine, IT)
    assert read["/push/2"]["body"] == expected(mine, EN)
    assert read["/push/1"]["title"] == "Coppa" and read["/push/1"]["url"] == "/me/games/"
    assert phone.endpoint != tablet.endpoint


def test_the_task_run_twice_sends_each_version_once(
    push_receiver, night, olga, oscar, django_capture_on_commit_callbacks
):
    round_, _mine, _others = night
    subscribe(push_receiver, oscar, "en")
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    assert len(push_receiver.deliveries) == 1
    assert tasks.push_seats(round_.pk) == 0
    assert len(push_receiver.deliveries) == 1


def test_a_change_that_moves_the_player_tells_them_again_one_that_does_not_does_not(
    push_receiver, settings, night, olga, oscar, django_capture_on_commit_callbacks
):
    round_, mine, others = night
    by = Actor.for_user(olga)
    subscribe(push_receiver, oscar, "en")
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=by)
    table = TableSeat.objects.get(entry=mine).table_id
    elsewhere: dict[int, list] = {}
    for entry in others:
        seat = TableSeat.objects.get(entry=entry)
        if seat.table_id != table:
            elsewhere.setdefault(seat.table_id, []).append(entry)
    first, second = (entries[0] for entries in elsewhere.values())
    # Two others swapped between the other tables: Oscar's seat is what it was.
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_published(round_=round_, by=by, a=first.pk, b=second.pk)
    assert len(push_receiver.deliveries) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_published(round_=round_, by=by, a=mine.pk, b=first.pk)
    assert len(push_receiver.deliveries) == 2
    last = push_receiver.read(push_receiver.deliveries[-1], settings.VAPID_PUBLIC_KEY)
    assert last["body"] == expected(mine, EN)
    assert TableSeat.objects.get(entry=mine).table_id != table


def test_without_vapid_keys_publishing_sends_nothing(
    push_receiver, settings, night, olga, oscar, django_capture_on_commit_callbacks
):
    round_, _mine, _others = night
    subscribe(push_receiver, oscar, "en")
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    assert push_receiver.deliveries == []


def test_my_games_page_still_shows_the_words_for_the_live_notice(push_receiver, oscar, night):
    page = login(oscar).get("/me/games/").content.decode()
    assert 'data-stream="/me/events/"' in page and 'id="push"' in page


def test_a_round_whose_players_have_no_device_costs_three_queries(
    push_receiver, night, olga, django_assert_num_queries
):
    round_, _mine, _others = night
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    with django_assert_num_queries(3):  # the seats, their registrations, who has a device
        assert tasks.push_seats(round_.pk) == 0
