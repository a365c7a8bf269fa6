"""Reopening a closed round (issue 32, point 5): an organizer reopens it with a reason (audited),
corrects any game (a correction that leaves a game needing its deciding hand included, refused
while the round is closed), closes it again; the standings follow and the players get their
corrected results once. Service, API, page and e-mail."""

from __future__ import annotations

import pytest
from django.core import mail

from scoring import services as scoring
from scoring.models import AuditAction, AuditEvent, Game, GameStatus
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from tests.clients import api_as, field_error, login
from tournaments import selectors, services, tasks
from tournaments.models import CompetitionEvent, ResultsMail, Round, RoundStatus

from .helpers import codes, enter, make_competition, play, terziglio_won_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def by(olga):
    return Actor.for_user(olga)


@pytest.fixture
def closed(club, olga, by, django_capture_on_commit_callbacks):
    """Round 1 of a club night of Anna, Bruno and Carla (Anna and Bruno with an address), won
    by seat 1 in one hand, closed: its results e-mails sent."""
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 3)
    for entry, address in zip(entries[:2], ("anna@example.org", "bruno@example.org"), strict=True):
        scoring.update_player(player=entry.player, by=by, email=address)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    play(round_.tables.get().game, terziglio_won_by(1, 3), olga)
    with django_capture_on_commit_callbacks(execute=True):
        services.close_round(round_=round_, by=by)
    assert len(mail.outbox) == 2
    mail.outbox.clear()
    return Round.objects.get(pk=round_.pk)


def game_of(round_: Round) -> Game:
    return Game.objects.get(pk=round_.tables.get().game_id)


def winner(round_: Round) -> str:
    rows = selectors.standings_of(round_.competition)["tables"][0]["rows"]
    return rows[0]["name"]


def test_a_reopened_round_takes_a_correction_that_needs_the_deciding_hand_then_closes(
    closed, olga, by
):
    game = game_of(closed)
    seated = [s.player.display_name for s in game.seats.order_by("index")]
    first_winner = winner(closed)
    assert first_winner == seated[1]
    # Closed: removing the only hand would leave the game unfinished, refused.
    scoring.reopen_game(game=game, by=by, reason="look")
    with pytest.raises(scoring.Conflict):
        scoring.remove_hand(game=game_of(closed), number=1, by=by, reason="wrong table")
    scoring.lock_games(games=[game.pk], by=by)  # back as the close left it

    services.reopen_round(round_=closed, by=by, reason="table 1's hand was mistyped")
    round_ = Round.objects.get(pk=closed.pk)
    assert (round_.status, round_.closed_at, round_.reopenings) == (RoundStatus.PUBLISHED, None, 1)
    event = CompetitionEvent.objects.filter(action="reopen_round").get()
    assert event.reason == "table 1's hand was mistyped" and event.actor == olga
    assert event.data["number"] == 1 and event.data["games"] == [game.pk]
    game = game_of(round_)
    assert game.locked_at is None
    assert AuditEvent.objects.filter(game=game, action=AuditAction.REOPEN_GAME).exists()

    # The correction that leaves the game needing its deciding hand, now allowed...
    scoring.remove_hand(game=game, number=1, by=by, reason="entered for the wrong seat")
    assert game_of(round_).status == GameStatus.IN_PROGRESS
    with pytest.raises(RuleViolation) as refused:
        services.close_round(round_=round_, by=by)
    assert codes(refused.value) == {("round", "unfinished")}
    # ... and the deciding hand, another winner.
    play(game_of(round_), terziglio_won_by(2, 3), olga)
    services.close_round(round_=round_, by=by)
    round_ = Round.objects.get(pk=closed.pk)
    assert round_.status == RoundStatus.CLOSED and game_of(round_).locked_at is not None
    assert winner(round_) == seated[2] != first_winner


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_reopening_needs_a_reason_and_changes_nothing_without_one(closed, by, reason):
    with pytest.raises(RuleViolation) as refused:
        services.reopen_round(round_=closed, by=by, reason=reason)
    assert codes(refused.value) == {("reason", "required")}
    round_ = Round.objects.get(pk=closed.pk)
    assert (round_.status, round_.reopenings) == (RoundStatus.CLOSED, 0)
    assert game_of(round_).locked_at is not None
    assert not CompetitionEvent.objects.filter(action="reopen_round").exists()


def test_only_a_closed_round_is_reopened_and_only_by_an_organizer(closed, by, sara, bea):
    services.reopen_round(round_=closed, by=by, reason="fix")
    with pytest.raises(RuleViolation) as refused:
        services.reopen_round(round_=Round.objects.get(pk=closed.pk), by=by, reason="again")
    assert codes(refused.value) == {("round", "not_allowed")}
    assert str(refused.value.problems[0].field) == "round"
    services.close_round(round_=Round.objects.get(pk=closed.pk), by=by)
    for outsider in (sara, bea):  # a scorer of the club, someone of another club
        with pytest.raises(NotAllowed):
            services.reopen_round(
                round_=Round.objects.get(pk=closed.pk), by=Actor.for_user(outsider), reason="x"
            )
    assert Round.objects.get(pk=closed.pk).status == RoundStatus.CLOSED


def test_the_api_reopens_with_a_reason_and_names_reason_when_it_is_missing(closed, olga):
    api = api_as(olga)
    url = f"/api/v1/competitions/{closed.competition_id}/rounds/1/reopen/"
    for body in ({}, {"reason": ""}, {"reason": "  "}):
        response = api.post(url, body, format="json")
        assert response.status_code == 400, response.content
        assert [(e["field"], e["code"]) for e in response.json()["errors"]] == [
            ("reason", "required")
        ]
    assert Round.objects.get(pk=closed.pk).status == RoundStatus.CLOSED
    response = api.post(url, {"reason": "a mistyped hand"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "published"
    again = api.post(url, {"reason": "a mistyped hand"}, format="json")
    assert again.status_code == 400
    assert again.json()["errors"][0]["message"] == "Only a closed round can be reopened."


def test_the_round_page_reopens_with_the_reason_shown_next_to_its_field(closed, olga):
    client = login(olga)
    page = f"/c/uno/k/{closed.competition.slug}/rounds/1/"
    html = client.get(page).content.decode()
    assert 'id="reopen"' in html and 'name="reason"' in html
    response = client.post(page, {"action": "reopen", "reason": " "})
    assert response.status_code == 400
    assert field_error(response.content.decode(), "reason") == "Why reopen it: fill this in."
    assert Round.objects.get(pk=closed.pk).status == RoundStatus.CLOSED
    response = client.post(page, {"action": "reopen", "reason": "table 1 mistyped"}, follow=True)
    assert response.redirect_chain and response.status_code == 200
    html = response.content.decode()
    assert "Round 1 is open again" in html
    assert 'id="reopen"' not in html and 'id="close"' in html
    assert Round.objects.get(pk=closed.pk).status == RoundStatus.PUBLISHED


def test_closing_again_mails_the_corrected_results_once(
    closed, olga, by, django_capture_on_commit_callbacks
):
    services.reopen_round(round_=closed, by=by, reason="mistyped")
    game = game_of(closed)
    scoring.correct_hand(
        game=game, number=1, document={**terziglio_won_by(2, 3)[0]}, by=by, reason="seat"
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.close_round(round_=Round.objects.get(pk=closed.pk), by=by)
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "bruno@example.org"]
    for message in mail.outbox:  # in the club's language, Italian
        assert message.subject == "Torneo: i tuoi risultati corretti del turno 1"
        assert "Risultati corretti: un organizzatore ha riaperto questo turno" in message.body
        assert "Risultati corretti" in message.alternatives[0][0]
    # The task run again, or a retry: nothing more.
    assert tasks.mail_round_results(closed.pk) == 0
    assert len(mail.outbox) == 2
    assert ResultsMail.objects.filter(round=closed, edition=1).count() == 2
    assert ResultsMail.objects.filter(round=closed, edition=0).count() == 2
