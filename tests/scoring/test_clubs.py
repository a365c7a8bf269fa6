"""Starting a club (scoring/services/clubs.py, scoring/views/clubs.py): a signed-in user starts
one and owns it, its refusals next to their fields and in the service, and the whole way from a
fresh install (issue 9) to a second member's first hand."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring import services
from scoring.models import (
    AuditAction,
    AuditEvent,
    Membership,
    Role,
)
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import field_error, login
from tests.scoring.members_helpers import LINK, codes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_url")]


def test_a_signed_in_user_starts_a_club_and_owns_it(nina):
    client = login(nina)
    assert 'href="/clubs/new/"' in client.get("/").content.decode()
    form = {
        "name": "Circolo Nuovo",
        "slug": "circolo-nuovo",
        "time_zone": "Europe/Paris",
        "language": "fr",
        "results_public": "on",
    }
    response = client.post("/clubs/new/", form)
    assert response.status_code == 302 and response["Location"] == "/c/circolo-nuovo/members/"
    membership = Membership.objects.get(user=nina)
    club = membership.club
    assert membership.role == Role.OWNER
    assert (club.name, club.time_zone, club.language, club.results_public) == (
        "Circolo Nuovo",
        "Europe/Paris",
        "fr",
        True,
    )
    (event,) = AuditEvent.objects.filter(club=club)
    assert (event.action, event.actor) == (AuditAction.CREATE_CLUB, nina)


def test_a_taken_address_and_an_unknown_time_zone_are_shown_next_to_their_fields(club, nina):
    response = login(nina).post(
        "/clubs/new/",
        {"name": "Uno bis", "slug": "uno", "time_zone": "Mars/Olympus", "language": "it"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert field_error(html, "time_zone")
    response = login(nina).post(
        "/clubs/new/",
        {"name": "Uno bis", "slug": "uno", "time_zone": "Europe/Rome", "language": "it"},
    )
    assert response.status_code == 400
    assert "already exists" in field_error(response.content.decode(), "slug")
    assert not Membership.objects.filter(user=nina).exists()


def test_the_service_refuses_what_the_form_lets_through(nina, club):
    by = Actor.for_user(nina)
    with pytest.raises(RuleViolation) as zone:
        services.create_club(
            name="X", slug="x", by=by, time_zone="Mars/Olympus", language="it", results_public=False
        )
    assert codes(zone.value) == {("time_zone", "choice", None)}
    with pytest.raises(RuleViolation) as taken:
        services.create_club(
            name="X",
            slug="uno",
            by=by,
            time_zone="Europe/Rome",
            language="it",
            results_public=False,
        )
    assert codes(taken.value) == {("slug", "duplicate", "club_slug")}


def test_starting_a_club_needs_an_account():
    response = Client().get("/clubs/new/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_the_done_means_of_issue_9_from_a_fresh_install(
    monkeypatch, mailoutbox, django_capture_on_commit_callbacks
):
    """createorganizer → createclub → log in → invite a second member by e-mail → they sign up
    through the link and accept → they start a game and play a hand."""
    from django.core.management import call_command

    monkeypatch.setenv("ORGANIZER_PASSWORD", "tre-assi-e-un-re")
    call_command(
        "createorganizer",
        "lucia",
        email="lucia@club.example",
        password_from_env="ORGANIZER_PASSWORD",
    )
    call_command("createclub", "circolo-roma", name="Circolo Roma", owner="lucia")
    lucia = Client()
    assert (
        lucia.post("/login/", {"username": "lucia", "password": "tre-assi-e-un-re"}).status_code
        == 302
    )
    with django_capture_on_commit_callbacks(execute=True):
        lucia.post(
            "/c/circolo-roma/members/",
            {"action": "invite", "email": "marco@club.example", "role": "scorer"},
        )
    token = LINK.search(mailoutbox[-1].body).group(1)
    marco = Client()
    signup = marco.get(f"/invitation/{token}/").content.decode()
    assert f"/signup/?invitation={token}" in signup
    response = marco.post(
        "/signup/",
        {
            "invitation": token,
            "username": "marco",
            "email": "marco@club.example",
            "password1": "quattro-re-in-mano",
            "password2": "quattro-re-in-mano",
        },
    )
    assert response.status_code == 302 and response["Location"] == f"/invitation/{token}/"
    assert marco.post(f"/invitation/{token}/", {"action": "accept"}).status_code == 302
    response = marco.post(
        "/c/circolo-roma/games/new/",
        {"ruleset": "briscola", "new_0": "Lucia", "new_1": "Marco"},
    )
    assert response.status_code == 302
    game_url = response["Location"]
    response = marco.post(f"{game_url}hands/", {"dealer": "0", "points_0": "70", "points_1": "50"})
    assert response.status_code == 302, response.content.decode()[:2000]
    user = get_user_model().objects.get(username="marco")
    assert Membership.objects.get(user=user).role == Role.SCORER
    hand = user.memberships.get().club.games.get().hands.get()
    assert (hand.number, hand.entered_by) == (1, user)
