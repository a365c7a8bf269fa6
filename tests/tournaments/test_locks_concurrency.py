"""Organizers acting at once on one competition, with real commits.

Every writer runs in its own thread with its own database connection (closed at its end). It
reads what it acts on first, as a request does (the round, the table, the entry: all still a
draft, still open), then a barrier releases the writers together so that they overlap. The
services lock the competition and then the round (``SELECT … FOR UPDATE`` on PostgreSQL, an
IMMEDIATE transaction on SQLite) and re-check the status on the rows read under the lock, so
whatever the interleaving there is exactly one winner where only one change makes sense, and
the others are refused with the usual RuleViolation — never a second set of games, a doubled
forfeit or a database error.

The last section shows the same without threads: an object read before another write (stale
in memory) does not decide.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.tournaments.helpers import codes, enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.models import (
    Adjustment,
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    EntryStatus,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)

pytestmark = pytest.mark.django_db(transaction=True)

WRITERS = 4
TIMEOUT = 60

#: A writer: ``prepare()`` runs in the thread before the barrier (a request reading what it
#: will act on), ``act(prepared)`` right after it.
Writer = tuple[Callable[[], Any], Callable[[Any], Any]]


def race(*writers: Writer) -> list[tuple[str, Any]]:
    """Run the writers in threads released together; returns ``("done", result)`` or
    ``("refused", RuleViolation)`` in writer order. Any other exception fails the test."""
    barrier = threading.Barrier(len(writers))
    outcomes: list[Any] = [None] * len(writers)
    errors: list[BaseException] = []

    def work(index: int) -> None:
        prepare, act = writers[index]
        try:
            prepared = prepare()
            barrier.wait(timeout=TIMEOUT)
            try:
                outcomes[index] = ("done", act(prepared))
            except RuleViolation as refusal:
                outcomes[index] = ("refused", refusal)
        except BaseException as error:  # reported below
            errors.append(error)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(writers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a writer never finished"
    assert not errors, errors
    return outcomes


def kinds(outcomes) -> Counter:
    return Counter(kind for kind, _ in outcomes)


def refusals(outcomes) -> set[tuple[str, str, Any]]:
    return {
        (p.field, p.code, p.params.get("reason"))
        for kind, refusal in outcomes
        if kind == "refused"
        for p in refusal.problems
    }


def fresh_round(pk: int) -> Round:
    return Round.objects.select_related("competition__club").get(pk=pk)


def events(action: str) -> list[CompetitionEvent]:
    return list(CompetitionEvent.objects.filter(action=action).order_by("id"))


@pytest.fixture
def by(olga):
    return Actor.for_user(olga)


@pytest.fixture
def night(club, olga):
    """Club nights of Terziglio (or Briscola) with six players: two tables of three."""
    competition = make_competition(
        club, olga, kind="league", format="club_night", rulesets=["terziglio", "briscola"]
    )
    enter(competition, olga, 6)
    return competition


@pytest.fixture
def drawn(night, by):
    """Round 1 of the night, drawn and still a draft."""
    round_ = services.add_round(competition=night, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    return round_


@pytest.fixture
def published(drawn, by):
    services.publish_round(round_=drawn, by=by)
    return drawn


def finish_every_table(round_: Round, user) -> None:
    for table in round_.tables.select_related("game"):
        play(table.game, terziglio_won_by(1, 3), user)


# ---------------------------------------------------------------------------------------------
# Publishing, drawing, closing


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_organizers_publishing_one_round_at_once_create_one_game_per_table(drawn, olga, oscar):
    url = f"/api/v1/competitions/{drawn.competition_id}/rounds/1/publish/"
    users = [olga, oscar] * (WRITERS // 2)
    outcomes = race(
        *[
            (lambda user=user: api_client(user), lambda client: client.post(url, format="json"))
            for user in users
        ]
    )
    statuses = Counter(response.status_code for _, response in outcomes)
    assert statuses == {200: 1, 400: WRITERS - 1}
    for _, response in outcomes:
        if response.status_code == 400:
            assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
                ("round", "not_allowed")
            ]
    tables = list(Table.objects.filter(round=drawn).order_by("number"))
    assert len(tables) == 2
    assert Game.objects.count() == 2
    assert {t.game_id for t in tables} == set(Game.objects.values_list("pk", flat=True))
    assert len(events("publish_round")) == 1
    assert Round.objects.get(pk=drawn.pk).status == RoundStatus.PUBLISHED


def test_draws_of_one_draft_round_at_once_leave_exactly_one_whole_draw(drawn, night, by):
    seeds = [11, 12, 13, 14][:WRITERS]
    outcomes = race(
        *[
            (
                lambda: fresh_round(drawn.pk),
                lambda round_, seed=seed: services.generate_round(round_=round_, by=by, seed=seed),
            )
            for seed in seeds
        ]
    )
    assert kinds(outcomes) == {"done": WRITERS}  # a draft may be drawn again: each in turn
    last = events("generate_round")[-1]
    round_ = Round.objects.get(pk=drawn.pk)
    assert len(events("generate_round")) == 1 + WRITERS
    assert round_.seed == last.data["seed"] and round_.seed in seeds
    seated = list(TableSeat.objects.filter(table__round=round_).values_list("entry_id", flat=True))
    assert sorted(seated) == sorted(night.entries.values_list("pk", flat=True))
    assert list(round_.tables.values_list("number", flat=True)) == [1, 2]
    # Exactly the draw of the last seed, not a mix of two.
    stored = [tuple(s.entry_id for s in t.seats.order_by("position")) for t in round_.tables.all()]
    again = services.generate_round(round_=round_, by=by, seed=round_.seed)
    assert [
        tuple(s.entry_id for s in t.seats.order_by("position")) for t in again.tables.all()
    ] == stored


def test_closes_of_one_round_at_once_close_it_once(published, olga, by):
    finish_every_table(published, olga)
    outcomes = race(
        *[
            (lambda: fresh_round(published.pk), lambda r: services.close_round(round_=r, by=by))
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": 1, "refused": WRITERS - 1}
    assert refusals(outcomes) == {("round", "not_allowed", "not_published")}
    assert len(events("close_round")) == 1
    assert Round.objects.get(pk=published.pk).status == RoundStatus.CLOSED


def test_a_check_in_racing_a_publish_never_lands_on_a_published_round(night, by):
    entries = list(night.entries.order_by("pk").values_list("pk", flat=True))
    for number in range(1, 4):
        round_ = services.add_round(competition=night, by=by)
        services.set_check_ins(round_=round_, entries=entries, by=by)
        services.generate_round(round_=round_, by=by, seed=number)
        outcomes = race(
            (
                lambda pk=round_.pk: fresh_round(pk),
                lambda r: services.set_check_ins(round_=r, entries=entries[:3], by=by),
            ),
            (
                lambda pk=round_.pk: fresh_round(pk),
                lambda r: services.publish_round(round_=r, by=by),
            ),
        )
        check_in, publish = outcomes
        assert publish[0] == "done"
        published_at = events("publish_round")[-1].pk
        checked = CompetitionEvent.objects.filter(action="check_in", round=round_).order_by("id")
        present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
        if check_in[0] == "done":  # it came first: the round was published after it
            assert checked.last().pk < published_at
            assert present == set(entries[:3])
        else:  # it came second and was told the round is published; nothing changed
            assert codes(check_in[1]) == {("round", "not_allowed")}
            assert present == set(entries)
            assert checked.count() == 1


def test_rounds_added_at_once_get_one_number_each(night, by):
    outcomes = race(
        *[
            (
                lambda: Competition.objects.select_related("club").get(pk=night.pk),
                lambda competition: services.add_round(competition=competition, by=by).number,
            )
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": WRITERS}
    assert sorted(number for _, number in outcomes) == list(range(1, WRITERS + 1))
    assert list(night.rounds.values_list("number", flat=True)) == list(range(1, WRITERS + 1))
    assert len(events("add_round")) == WRITERS


# ---------------------------------------------------------------------------------------------
# Settling tables, entries, competitions


def test_forfeits_of_one_table_at_once_settle_it_once(published, by):
    table = published.tables.order_by("number").first()
    seated = list(table.seats.values_list("entry_id", flat=True))

    def prepare():
        return Table.objects.select_related("round__competition__club", "game").get(pk=table.pk)

    outcomes = race(
        *[
            (
                prepare,
                lambda t: services.forfeit_table(
                    table=t, by=by, reason="left early", points={seated[0]: 1}
                ),
            )
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": 1, "refused": WRITERS - 1}
    assert refusals(outcomes) == {("table", "not_allowed", "forfeited")}
    assert Adjustment.objects.count() == 1
    assert len(events("forfeit_table")) == 1
    assert Game.objects.get(pk=table.game_id).status == "abandoned"


def test_withdrawals_of_one_entry_at_once_withdraw_it_once(night, by):
    entry = night.entries.order_by("pk").first()

    def prepare():
        return Entry.objects.select_related("competition__club", "player").get(pk=entry.pk)

    outcomes = race(
        *[
            (prepare, lambda e: services.withdraw_entry(entry=e, by=by, reason="moved"))
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": 1, "refused": WRITERS - 1}
    assert refusals(outcomes) == {("entry", "not_allowed", "withdrawn")}
    assert len(events("withdraw_entry")) == 1
    assert Entry.objects.get(pk=entry.pk).status == EntryStatus.WITHDRAWN


def test_one_new_player_entered_at_once_is_entered_once(night, by):
    outcomes = race(
        *[
            (
                lambda: Competition.objects.select_related("club").get(pk=night.pk),
                lambda c: services.add_entry(competition=c, player="Zeno", by=by),
            )
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": 1, "refused": WRITERS - 1}
    assert refusals(outcomes) == {("player", "duplicate", None)}
    assert night.entries.filter(player__display_name="Zeno").count() == 1
    assert night.club.players.filter(display_name="Zeno").count() == 1


def test_competitions_created_at_once_under_one_address_make_one(club, by):
    outcomes = race(
        *[
            (
                lambda: None,
                lambda _: services.create_competition(
                    club=club, by=by, name="Coppa", rulesets=["terziglio"]
                ),
            )
            for _ in range(WRITERS)
        ]
    )
    assert kinds(outcomes) == {"done": 1, "refused": WRITERS - 1}
    assert refusals(outcomes) == {("slug", "duplicate", None)}
    assert Competition.objects.filter(club=club, slug="coppa").count() == 1


# ---------------------------------------------------------------------------------------------
# A status read before the lock does not decide (one thread, an object read earlier)


def stale(round_: Round) -> Round:
    """The round as a request read it before someone else's write."""
    return fresh_round(round_.pk)


def test_a_round_read_as_a_draft_is_not_published_twice(drawn, by):
    earlier = stale(drawn)
    services.publish_round(round_=stale(drawn), by=by)
    with pytest.raises(RuleViolation) as refused:
        services.publish_round(round_=earlier, by=by)
    assert codes(refused.value) == {("round", "not_allowed")}
    assert Game.objects.count() == 2


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda r, by: services.generate_round(round_=r, by=by, seed=3), id="draw"),
        pytest.param(
            lambda r, by: services.set_check_ins(round_=r, entries=[], by=by), id="check-in"
        ),
        pytest.param(
            lambda r, by: services.swap_in_round(
                round_=r,
                a=TableSeat.objects.filter(table__round=r, table__number=1).first().entry_id,
                b=TableSeat.objects.filter(table__round=r, table__number=2).first().entry_id,
                by=by,
            ),
            id="swap",
        ),
        pytest.param(
            lambda r, by: services.update_round(round_=r, by=by, ruleset="briscola"),
            id="change-game",
        ),
    ],
)
def test_a_draft_write_on_a_round_read_before_it_was_published_is_refused(drawn, by, write):
    earlier = stale(drawn)
    seating = list(TableSeat.objects.order_by("pk").values_list("table_id", "entry_id"))
    services.publish_round(round_=stale(drawn), by=by)
    with pytest.raises(RuleViolation) as refused:
        write(earlier, by)
    assert {code for _, code in codes(refused.value)} == {"not_allowed"}
    assert list(TableSeat.objects.order_by("pk").values_list("table_id", "entry_id")) == seating
    assert not CheckIn.objects.exists()


def test_rescheduling_a_round_read_as_a_draft_keeps_it_published(drawn, by):
    earlier = stale(drawn)
    services.publish_round(round_=stale(drawn), by=by)
    services.update_round(round_=earlier, by=by, duration_minutes=120)
    round_ = Round.objects.get(pk=drawn.pk)
    assert (round_.status, round_.duration_minutes) == (RoundStatus.PUBLISHED, 120)
    assert round_.published_at is not None


def test_a_round_read_while_published_is_not_closed_again(published, olga, by):
    finish_every_table(published, olga)
    earlier = stale(published)
    services.close_round(round_=stale(published), by=by)
    with pytest.raises(RuleViolation) as refused:
        services.close_round(round_=earlier, by=by)
    assert codes(refused.value) == {("round", "not_allowed")}
    assert len(events("close_round")) == 1


def test_a_table_read_before_its_forfeit_is_not_settled_twice(published, by):
    table = published.tables.order_by("number").first()
    earlier = Table.objects.select_related("round__competition__club", "game").get(pk=table.pk)
    seated = list(table.seats.values_list("entry_id", flat=True))
    services.forfeit_table(table=table, by=by, reason="left", points={seated[0]: 1})
    with pytest.raises(RuleViolation) as refused:
        services.forfeit_table(table=earlier, by=by, reason="left", points={seated[0]: 1})
    assert codes(refused.value) == {("table", "not_allowed")}
    assert Adjustment.objects.count() == 1


def test_a_table_whose_game_finished_after_it_was_read_is_not_forfeited(published, olga, by):
    table = published.tables.order_by("number").first()
    earlier = Table.objects.select_related("round__competition__club", "game").get(pk=table.pk)
    play(table.game, terziglio_won_by(1, 3), olga)
    with pytest.raises(RuleViolation) as refused:
        services.forfeit_table(table=earlier, by=by, reason="left")
    assert codes(refused.value) == {("table", "not_allowed")}
    assert Game.objects.get(pk=table.game_id).status == "finished"


def test_an_entry_read_before_its_withdrawal_is_not_withdrawn_twice(night, by):
    entry = night.entries.order_by("pk").first()
    earlier = Entry.objects.select_related("competition__club", "player").get(pk=entry.pk)
    services.withdraw_entry(entry=entry, by=by, reason="moved")
    with pytest.raises(RuleViolation) as refused:
        services.withdraw_entry(entry=earlier, by=by, reason="moved")
    assert codes(refused.value) == {("entry", "not_allowed")}
    assert len(events("withdraw_entry")) == 1


def test_a_write_outside_a_transaction_cannot_take_the_lock(drawn):
    from tournaments.services._common import lock

    with pytest.raises(RuntimeError):
        lock(drawn)


def test_an_adjustment_on_a_round_is_written_under_its_lock(published, by):
    entry = published.competition.entries.order_by("pk").first()
    services.adjust(
        competition=published.competition,
        entry=entry,
        points=2,
        reason="fair play",
        by=by,
        round_=stale(published),
    )
    assert Adjustment.objects.get().round_id == published.pk
    assert [e.data["points"] for e in events("adjust")] == ["2"]
