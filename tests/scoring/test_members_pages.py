"""The members' pages (scoring/views/members.py): the members page for managers, inviting by
e-mail or link, roles, removals and claims from the page with refusals next to the row, the
invitation page, My games of a linked player and the round announcements it gets. The rules
behind them: test_members.py."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring import services
from scoring.models import (
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    Role,
)
from scoring.services import Actor, members
from tests.clients import field_error, login
from tests.scoring.members_helpers import LINK, invite

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_url")]


def test_the_members_page_is_for_managers_only(club, olga, sara, bea):
    assert login(olga).get("/c/uno/members/").status_code == 200
    assert login(sara).get("/c/uno/members/").status_code == 403
    assert login(bea).get("/c/uno/members/").status_code == 404
    assert Client().get("/c/uno/members/").status_code == 302


def test_inviting_by_email_from_the_page_sends_the_link(
    club, oscar, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = login(oscar).post(
            "/c/uno/members/", {"action": "invite", "email": "nina@club.example", "role": "scorer"}
        )
    assert response.status_code == 302
    (mail,) = mailoutbox
    token = LINK.search(mail.body).group(1)
    assert members.find_invitation(token).role == Role.SCORER


def test_inviting_by_link_shows_the_link_once(club, olga, players):
    client = login(olga)
    response = client.post(
        "/c/uno/members/",
        {"action": "invite", "email": "", "role": "member", "player": players[3].pk},
    )
    html = response.content.decode()
    token = LINK.search(html).group(1)
    assert members.find_invitation(token).player == players[3]
    assert token not in client.get("/c/uno/members/").content.decode()


def test_an_organizer_cannot_offer_the_owner_role_on_the_page(club, oscar):
    response = login(oscar).post(
        "/c/uno/members/", {"action": "invite", "email": "", "role": "owner"}
    )
    assert response.status_code == 400
    assert field_error(response.content.decode(), "role")
    assert not Invitation.objects.filter(role="owner").exists()


def test_demoting_the_last_owner_on_the_page_says_why_on_its_row(club, olga):
    response = login(olga).post(
        "/c/uno/members/", {"action": "role", "user": olga.pk, "role": "member"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    row = html.split(f'id="member-{olga.pk}"', 1)[1].split("</li>", 1)[0]
    assert "The club must keep an owner" in row
    assert Membership.objects.get(club=club, user=olga).role == Role.OWNER


def test_role_change_removal_and_claims_from_the_page(club, players, olga, sara):
    client = login(olga)
    client.post("/c/uno/members/", {"action": "role", "user": sara.pk, "role": "organizer"})
    assert Membership.objects.get(club=club, user=sara).role == Role.ORGANIZER
    assert login(sara).post(f"/c/uno/players/{players[0].pk}/claim/").status_code == 302
    claim = players[0].claims.get()
    page = client.get("/c/uno/members/").content.decode()
    assert "sara says they are Anna" in page
    client.post("/c/uno/members/", {"action": "approve", "claim": claim.pk})
    assert Player.objects.get(pk=players[0].pk).user == sara
    client.post("/c/uno/members/", {"action": "remove", "user": sara.pk})
    assert not Membership.objects.filter(club=club, user=sara).exists()
    history = client.get("/c/uno/members/").content.decode()
    for words in ("role changed", "player claimed", "claim approved", "member removed"):
        assert words in history


def test_the_invitation_page_accepts_or_declines(club, olga, nina):
    accepted, declined = invite(olga, club, "scorer"), invite(olga, club, "member")
    anonymous = Client().get(f"/invitation/{accepted.token}/").content.decode()
    assert f"/signup/?invitation={accepted.token}" in anonymous
    client = login(nina)
    response = client.post(f"/invitation/{accepted.token}/", {"action": "accept"})
    assert response.status_code == 302 and response["Location"] == "/c/uno/"
    assert Membership.objects.get(club=club, user=nina).role == Role.SCORER
    assert client.get(f"/invitation/{accepted.token}/").status_code == 410
    assert Client().post(f"/invitation/{declined.token}/", {"action": "decline"}).status_code == 302
    assert Invitation.objects.get(pk=declined.invitation.pk).status == InvitationStatus.DECLINED
    assert Client().get("/invitation/nothing-here/").status_code == 404


def test_accepting_while_logged_out_asks_to_log_in(club, olga):
    invited = invite(olga, club)
    response = Client().post(f"/invitation/{invited.token}/", {"action": "accept"})
    assert response.status_code == 302
    assert response["Location"] == f"/login/?next=/invitation/{invited.token}/"


def test_my_games_lists_the_games_of_my_player_across_clubs(
    club, other_club, players, terziglio, olga, bea, nina
):
    members.accept_invitation(
        token=invite(olga, club, "member", player=players[0]).token, by=Actor.for_user(nina)
    )
    elena = other_club.players.get(display_name="Elena")
    members.accept_invitation(
        token=invite(bea, other_club, "member", player=elena).token, by=Actor.for_user(nina)
    )
    elsewhere = services.start_game(
        club=other_club,
        ruleset="briscola",
        players=[elena, other_club.players.get(display_name="Gina")],
        by=Actor.for_user(bea),
        title="Sfida del lunedì",
    )
    services.start_game(
        club=club, ruleset="briscola", players=players[1:3], by=Actor.for_user(olga)
    )  # without Anna
    page = login(nina).get("/me/games/").content.decode()
    assert f"/g/{terziglio.pk}/" in page and f"/g/{elsewhere.pk}/" in page
    assert page.count('<a href="/g/') == 2


def test_a_player_linked_by_invitation_gets_the_round_announcements(club, players, olga, nina):
    """tournaments.tasks.announce_round writes to ``player.user.email``: the link is what makes
    an entrant reachable."""
    members.accept_invitation(
        token=invite(olga, club, "member", player=players[0]).token, by=Actor.for_user(nina)
    )
    linked = Player.objects.select_related("user").get(pk=players[0].pk)
    assert linked.user.email == "nina@club.example"
