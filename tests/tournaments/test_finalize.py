"""Closing a round locks its games; a competition can be declared final, after which neither
the competition nor its games change until an organizer's audited reopening."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import etags
from scoring import services as scoring
from scoring.messages import message
from scoring.models import AuditEvent, Game, Hand
from scoring.rules import RuleViolation
from scoring.signals import game_changed
from tests.builders import by
from tests.clients import api_as
from tournaments import services
from tournaments.models import (
    Adjustment,
    CheckIn,
    Competition,
    CompetitionEvent,
    Entry,
    Round,
    StandingsSnapshot,
    TableSeat,
)

from .helpers import enter, make_competition, play, terziglio_in_order

pytestmark = pytest.mark.django_db

CLOSED = "Round 1 of Torneo is closed: an organizer of the club can reopen this game."


@pytest.fixture
def closed(club, olga, django_capture_on_commit_callbacks):
    """Six players, round 1 played on two tables and closed; round 2 drawn, still a draft."""
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 6)
    first = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga), seed=1)
    services.publish_round(round_=first, by=by(olga))
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.select_related("game"):
            play(table.game, terziglio_in_order([0, 1, 2]), olga)
    services.close_round(round_=Round.objects.get(pk=first.pk), by=by(olga))
    second = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=second, by=by(olga), seed=1)
    return Competition.objects.get(pk=competition.pk)


def games_of(competition):
    return list(
        Game.objects.filter(competition_table__round__competition=competition).order_by("pk")
    )


def writes():
    return (
        CompetitionEvent.objects.count(),
        Entry.objects.filter(status="active").count(),
        Round.objects.count(),
        list(Round.objects.order_by("pk").values_list("status", "duration_minutes")),
        Game.objects.count(),
        Adjustment.objects.count(),
        CheckIn.objects.count(),
        list(TableSeat.objects.order_by("pk").values_list("entry_id", flat=True)),
        list(Hand.objects.order_by("pk").values_list("pk", "number", "version")),
    )


# -- a closed round locks its games -------------------------------------------------------------


def test_closing_a_round_locks_each_of_its_games_for_that_round(closed, olga):
    games = games_of(closed)
    assert len(games) == 2
    assert all(g.locked and g.lock_reason == "round_closed" for g in games)
    assert all(g.lock_context == {"round": 1, "competition": "Torneo"} for g in games)
    assert AuditEvent.objects.filter(action="lock_game", game__in=games).count() == 2


def test_a_closed_rounds_game_refuses_the_api_and_the_table_link(closed, olga):
    game = games_of(closed)[0]
    before = writes()
    api = api_as(olga)
    put = api.put(
        f"/api/v1/games/{game.pk}/hands/1/",
        {**terziglio_in_order([0, 1, 2])[0], "soloist_points": 4},
        format="json",
        HTTP_IF_MATCH=str(etags.hand_tag(game.hands.get(number=1))),
    )
    assert put.status_code == 409 and put.json()["errors"][0]["message"] == CLOSED
    removed = api.delete(
        f"/api/v1/games/{game.pk}/hands/2/?reason=x",
        HTTP_IF_MATCH=str(etags.hand_tag(game.hands.get(number=2))),
    )
    assert removed.status_code == 409
    phone = Client()
    phone.post(f"/t/{game.table_link.token}/", {"pin": game.table_link.pin})
    refused = phone.post(
        f"/g/{game.pk}/hands/1/",
        {
            "dealer": "0",
            "outcome": "passed_out",
            "etag": str(etags.hand_tag(game.hands.get(number=1))),
        },
    )
    # The game is finished, so its table session has ended as well (issue 8, point 8): the
    # phone still reads the final scores but may write nothing, locked or not.
    assert refused.status_code == 403
    assert writes() == before


def test_a_reopened_game_corrected_moves_the_standings_once(
    closed, olga, django_capture_on_commit_callbacks
):
    game = games_of(closed)[0]
    snapshot = StandingsSnapshot.objects.get(competition=closed)
    version, data = snapshot.version, snapshot.data
    api = api_as(olga)
    announced = []

    def count(sender, game_id, **kwargs):
        announced.append(game_id)

    game_changed.connect(count)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert (
                api.post(
                    f"/api/v1/games/{game.pk}/reopen/", {"reason": "wrong soloist"}, format="json"
                ).status_code
                == 200
            )
        snapshot.refresh_from_db()
        assert (snapshot.version, announced) == (version, [])
        hand = game.hands.get(number=2)
        with django_capture_on_commit_callbacks(execute=True):
            corrected = api.put(
                f"/api/v1/games/{game.pk}/hands/2/",
                {**hand.document, "soloist": 1},
                format="json",
                HTTP_IF_MATCH=str(etags.hand_tag(hand)),
            )
        assert corrected.status_code == 200
    finally:
        game_changed.disconnect(count)
    assert announced == [game.pk]
    snapshot.refresh_from_db()
    assert snapshot.version == version + 1 and snapshot.data != data
    trail = list(AuditEvent.objects.filter(game=game).values_list("action", flat=True))
    assert trail[-3:] == ["lock_game", "reopen_game", "correct_hand"]


# -- a final competition ------------------------------------------------------------------------


def test_finalizing_is_refused_while_a_round_is_open(club, olga):
    competition = make_competition(club, olga)
    enter(competition, olga, 3)
    first = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga), seed=1)
    services.publish_round(round_=first, by=by(olga))
    with pytest.raises(RuleViolation) as refused:
        services.finalize_competition(competition=competition, by=by(olga))
    (problem,) = refused.value.problems
    assert (problem.field, problem.code, problem.params["reason"]) == (
        "competition",
        "not_allowed",
        "round_open",
    )
    assert Competition.objects.get(pk=competition.pk).finalized_at is None


def test_finalizing_is_refused_while_nobody_has_entered(club, olga, sara):
    competition = make_competition(club, olga)
    with pytest.raises(RuleViolation) as refused:
        services.finalize_competition(competition=competition, by=by(olga))
    (problem,) = refused.value.problems
    assert (problem.field, problem.code, problem.params["reason"]) == (
        "competition",
        "not_allowed",
        "no_entrants",
    )
    assert message(problem) == (
        "Nobody has entered this competition: there are no results to declare final."
    )
    assert Competition.objects.get(pk=competition.pk).finalized_at is None
    answer = api_as(olga).post(f"/api/v1/competitions/{competition.pk}/finalize/", format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["message"] == message(problem)
    client = Client()
    client.force_login(olga)
    page = client.get(f"/c/{club.slug}/k/{competition.slug}/").content.decode()
    assert "Declare the results final" not in page
    assert 'value="finalize"' not in page and 'id="final-no-entrants"' in page
    enter(competition, olga, 3)
    page = client.get(f"/c/{club.slug}/k/{competition.slug}/").content.decode()
    assert "Declare the results final" in page and 'id="final-no-entrants"' not in page


def test_a_final_competition_refuses_every_write(closed, olga):
    final = services.finalize_competition(competition=closed, by=by(olga), reason="prize giving")
    assert final.finalized_at is not None
    assert all(g.lock_reason == "finalized" for g in games_of(closed))
    second = Round.objects.get(competition=closed, number=2)
    entries = list(closed.entries.order_by("pk"))
    seated = list(TableSeat.objects.filter(table__round=second).values_list("entry_id", flat=True))
    game = games_of(closed)[0]
    hand = game.hands.get(number=1)
    before = writes()
    attempts = {
        "add_round": lambda: services.add_round(competition=final, by=by(olga)),
        "update_round": lambda: services.update_round(
            round_=second, by=by(olga), duration_minutes=60
        ),
        "check_in": lambda: services.set_check_ins(round_=second, entries=entries[:3], by=by(olga)),
        "draw": lambda: services.generate_round(round_=second, by=by(olga), seed=2),
        "swap": lambda: services.swap_in_round(
            round_=second, a=seated[0], b=seated[-1], by=by(olga)
        ),
        "publish": lambda: services.publish_round(round_=second, by=by(olga)),
        "add_entry": lambda: services.add_entry(competition=final, player="Zeno", by=by(olga)),
        "withdraw": lambda: services.withdraw_entry(entry=entries[0], by=by(olga), reason="ill"),
        "adjust": lambda: services.adjust(
            competition=final, entry=entries[0], points=2, reason="fair play", by=by(olga)
        ),
        "correct": lambda: scoring.correct_hand(
            game=game, number=1, document=hand.document, by=by(olga)
        ),
        "remove": lambda: scoring.remove_hand(game=game, number=2, by=by(olga), reason="x"),
        "reopen_game": lambda: scoring.reopen_game(game=game, by=by(olga), reason="typo"),
        "finalize_again": lambda: services.finalize_competition(competition=final, by=by(olga)),
    }
    for name, attempt in attempts.items():
        with pytest.raises(scoring.Locked) as refused:
            attempt()
        assert refused.value.problems[0].params["reason"] == "finalized", name
    assert writes() == before

    with pytest.raises(RuleViolation):
        services.reopen_competition(competition=final, by=by(olga), reason=" ")
    reopened = services.reopen_competition(
        competition=final, by=by(olga), reason="a table was misread"
    )
    assert reopened.finalized_at is None
    # Reopening the competition does not unlock its closed round's games by itself.
    assert all(g.locked and g.lock_reason == "round_closed" for g in games_of(closed))
    services.update_round(round_=second, by=by(olga), duration_minutes=60)
    scoring.reopen_game(game=game, by=by(olga), reason="typo")
    actions = list(
        CompetitionEvent.objects.filter(competition=closed).values_list("action", "reason")
    )
    assert ("finalize", "prize giving") in actions and ("reopen", "a table was misread") in actions
    assert actions[-1][0] == "update_round"


def test_the_api_finalizes_and_reopens_and_answers_409_meanwhile(closed, olga, sara):
    api = api_as(olga)
    base = f"/api/v1/competitions/{closed.pk}"
    assert api_as(sara).post(f"{base}/finalize/", {}, format="json").status_code == 403
    final = api.post(f"{base}/finalize/", {"reason": "done"}, format="json")
    assert final.status_code == 200 and final.json()["finalized_at"]
    before = writes()
    for response in (
        api.post(f"{base}/rounds/", {}, format="json"),
        api.post(f"{base}/entries/", {"player": "Zeno"}, format="json"),
        api.post(f"{base}/rounds/2/generate/", {"seed": 3}, format="json"),
        api.post(f"{base}/finalize/", {}, format="json"),
    ):
        assert response.status_code == 409, response.json()
        assert response.json()["errors"][0]["code"] == "locked"
        assert "Torneo is final" in response.json()["errors"][0]["message"]
    assert writes() == before
    assert api.post(f"{base}/reopen/", {}, format="json").status_code == 400
    reopened = api.post(f"{base}/reopen/", {"reason": "typo"}, format="json")
    assert reopened.status_code == 200 and reopened.json()["finalized_at"] is None
    assert api.post(f"{base}/reopen/", {"reason": "typo"}, format="json").status_code == 400
    assert api.post(f"{base}/rounds/", {}, format="json").status_code == 201


def test_the_organizer_page_finalizes_and_shows_why_a_write_is_refused(closed, olga, sara):
    client = Client()
    client.force_login(olga)
    url = f"/c/{closed.club.slug}/k/{closed.slug}/"
    page = client.get(url).content.decode()
    assert "Declare the results final" in page
    assert client.post(url, {"action": "finalize", "reason": ""}).status_code == 302
    page = client.get(url).content.decode()
    assert "results final" in page and "Reopen the competition" in page
    refused = client.post(url, {"action": "add_round", "duration_minutes": "90"})
    assert refused.status_code == 400 and "Torneo is final" in refused.content.decode()
    no_reason = client.post(url, {"action": "reopen", "reason": ""})
    assert no_reason.status_code == 400 and Competition.objects.get(pk=closed.pk).finalized_at
    assert client.post(url, {"action": "reopen", "reason": "typo"}).status_code == 302
    assert Competition.objects.get(pk=closed.pk).finalized_at is None
    scorer = Client()
    scorer.force_login(sara)
    assert scorer.post(url, {"action": "finalize"}).status_code == 403
