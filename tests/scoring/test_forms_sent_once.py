"""Issue 22, point 8: a form that makes something carries a one-time token.

The start-game form sent twice (a double tap, a resend after a timeout) started two games, and
five at once five. Now the form carries a hidden token, issued when it is shown and consumed in
the transaction that makes the game: the same form again makes nothing more and is sent to the
game already made; a refused form does not consume its token; a token that is not this site's,
not this account's, or not this form's is refused above the form, which comes back with a
fresh one.
"""

from __future__ import annotations

import re

import pytest

from scoring.models import FormSubmission, Game, Invitation
from scoring.services import submissions
from tests.clients import login
from tests.concurrency import race

FORM = {
    "ruleset": "terziglio",
    "terziglio__preset": "traditional",
    "new_0": "Anna",
    "new_1": "Bruno",
    "new_2": "Carla",
    "terziglio__target_score": "31",
    "terziglio__tie_at_target": "play_on",
}


def token_of(html: str) -> str:
    return re.search(r'name="once" value="([^"]+)"', html).group(1)


def shown(client) -> str:
    response = client.get("/c/uno/games/new/")
    assert response.status_code == 200
    return token_of(response.content.decode())


@pytest.mark.django_db
def test_the_same_form_sent_twice_starts_one_game(olga, club):
    client = login(olga)
    data = FORM | {"once": shown(client)}
    first = client.post("/c/uno/games/new/", data)
    game = Game.objects.get()
    assert first.status_code == 302 and first["Location"] == f"/g/{game.pk}/"
    again = client.post("/c/uno/games/new/", data)
    assert again.status_code == 302 and again["Location"] == f"/g/{game.pk}/"
    assert Game.objects.count() == 1
    # A new form is a new game.
    assert client.post("/c/uno/games/new/", FORM | {"once": shown(client)}).status_code == 302
    assert Game.objects.count() == 2


@pytest.mark.django_db
def test_a_refused_form_keeps_its_token_for_the_corrected_one(olga, club):
    client = login(olga)
    token = shown(client)
    refused = client.post(
        "/c/uno/games/new/", FORM | {"once": token, "terziglio__target_score": "0"}
    )
    assert refused.status_code == 400 and not Game.objects.exists()
    assert token_of(refused.content.decode()) == token
    assert not FormSubmission.objects.exists()
    assert client.post("/c/uno/games/new/", FORM | {"once": token}).status_code == 302
    assert Game.objects.count() == 1


@pytest.mark.django_db
def test_a_token_not_issued_to_this_account_for_this_form_is_refused(olga, sara, club):
    mine = shown(login(olga))
    forged = mine[:-3] + ("aaa" if not mine.endswith("aaa") else "bbb")
    another_form = submissions.issue_token(olga, "new_competition")
    for token in (shown(login(sara)), forged, another_form, "x" * 500):
        response = login(olga).post("/c/uno/games/new/", FORM | {"once": token})
        assert response.status_code == 400
        html = response.content.decode()
        assert "This form is out of date: check it and send it again." in html
        fresh = token_of(html)
        assert fresh != token and submissions.read_token(fresh, olga, "start_game")
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_an_expired_token_is_refused(olga, club, settings):
    token = shown(login(olga))
    settings.IDEMPOTENCY_TTL_HOURS = 0  # every token issued before now is too old
    response = login(olga).post("/c/uno/games/new/", FORM | {"once": token})
    assert response.status_code == 400 and not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_five_at_once_start_one_game(olga, club):
    """Five requests released together with the same form (on PostgreSQL: five connections;
    the second to insert the token waits for the first to commit): one game, every answer a
    redirect to it, no error."""
    token = shown(login(olga))
    count = 5
    outcomes = race(
        *[(lambda: login(olga), lambda c: c.post("/c/uno/games/new/", FORM | {"once": token}))]
        * count
    )
    assert [kind for kind, _answer in outcomes] == ["done"] * count
    answers = [answer for _kind, answer in outcomes]
    game = Game.objects.get()
    assert [(a.status_code, a["Location"]) for a in answers] == [(302, f"/g/{game.pk}/")] * count
    assert FormSubmission.objects.get().answer == f"/g/{game.pk}/"


@pytest.mark.django_db
def test_the_invitation_form_sent_twice_invites_once(
    olga, club, mailoutbox, django_capture_on_commit_callbacks
):
    client = login(olga)
    page = client.get("/c/uno/members/").content.decode()
    data = {
        "action": "invite",
        "email": "nina@example.org",
        "role": "member",
        "once": token_of(page),
    }
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post("/c/uno/members/", data)
    assert first.status_code == 302 and first["Location"] == "/c/uno/members/"
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post("/c/uno/members/", data)
    assert again.status_code == 302 and again["Location"] == "/c/uno/members/"
    assert Invitation.objects.filter(email="nina@example.org").count() == 1
    assert len(mailoutbox) == 1
