"""A club's members: invitations (e-mail or one-time link), roles, removals, the owner a club
always keeps, players linked to accounts (through an invitation or an approved claim), the
read-only member, and the audit of every change, through the services. The members' pages:
test_members_pages.py; starting a club: test_clubs.py. Personas: tests/conftest.py (Olga owns
club "uno", Oscar organizes, Sara scores; Bea owns "due")."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

import pytest
from django.utils import timezone

from scoring.messages import message
from scoring.models import (
    AuditEvent,
    ClaimStatus,
    Invitation,
    InvitationStatus,
    Membership,
    Player,
    Role,
)
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed, members
from tests.builders import join, new_club
from tests.clients import api_as, field_error, login
from tests.scoring.members_helpers import LINK, actions, codes, invite

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site_url")]


# -- invitations ------------------------------------------------------------------------------


def test_an_invitation_by_email_sends_its_one_time_link_after_the_commit(
    club, oscar, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invited = invite(oscar, club, "scorer", email="nina@club.example")
    (mail,) = mailoutbox
    assert mail.to == ["nina@club.example"]
    assert "Circolo Uno" in mail.subject
    assert LINK.search(mail.body).group(1) == invited.token
    # Only a hash of the token is kept: the database alone opens nothing.
    invitation = Invitation.objects.get(pk=invited.invitation.pk)
    assert invited.token not in invitation.token_hash
    assert invitation.token_hash == members.hash_token(invited.token)
    assert invitation.expires_at - invitation.created_at == timedelta(days=14)


def test_the_invitation_lasts_invitation_days(club, olga, settings):
    settings.INVITATION_DAYS = 3
    invitation = invite(olga, club).invitation
    assert invitation.expires_at - invitation.created_at == timedelta(days=3)


def test_accepting_makes_a_member_with_the_role_and_links_the_invitations_player(
    club, players, olga, nina
):
    anna = players[0]
    invited = invite(olga, club, "member", player=anna)
    membership = members.accept_invitation(token=invited.token, by=Actor.for_user(nina))
    assert (membership.user, membership.role) == (nina, Role.MEMBER)
    assert Player.objects.get(pk=anna.pk).user == nina
    invitation = Invitation.objects.get(pk=invited.invitation.pk)
    assert (invitation.status, invitation.answered_by) == (InvitationStatus.ACCEPTED, nina)
    assert actions(club) == [
        (
            "invite",
            "olga",
            None,
            {"invitation": invitation.pk, "email": "", "role": "member", "player": "Anna"},
        ),
        (
            "accept_invitation",
            "nina",
            None,
            {
                "invitation": invitation.pk,
                "user": "nina",
                "role": "member",
                "invited_by": "olga",
                "player": "Anna",
            },
        ),
    ]


def test_an_invitation_serves_once(club, olga, nina, bea):
    invited = invite(olga, club)
    members.accept_invitation(token=invited.token, by=Actor.for_user(nina))
    with pytest.raises(RuleViolation) as refused:
        members.accept_invitation(token=invited.token, by=Actor.for_user(bea))
    assert codes(refused.value) == {("token", "not_allowed", "invitation_accepted")}
    assert not Membership.objects.filter(club=club, user=bea).exists()


def test_an_expired_a_declined_and_a_withdrawn_invitation_are_refused(club, olga, nina):
    expired, declined, withdrawn = invite(olga, club), invite(olga, club), invite(olga, club)
    Invitation.objects.filter(pk=expired.invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    members.decline_invitation(token=declined.token, by=Actor())
    members.revoke_invitation(invitation=withdrawn.invitation, by=Actor.for_user(olga))
    for invited, reason in (
        (expired, "invitation_expired"),
        (declined, "invitation_declined"),
        (withdrawn, "invitation_revoked"),
    ):
        with pytest.raises(RuleViolation) as refused:
            members.accept_invitation(token=invited.token, by=Actor.for_user(nina))
        assert codes(refused.value) == {("token", "not_allowed", reason)}
    with pytest.raises(RuleViolation) as refused:
        members.accept_invitation(token="made-up", by=Actor.for_user(nina))
    assert codes(refused.value) == {("token", "not_found", "invitation")}
    assert not Membership.objects.filter(user=nina).exists()


def test_only_managers_invite_and_only_an_owner_invites_an_owner(club, olga, oscar, sara):
    with pytest.raises(NotAllowed):
        invite(sara, club, "member")
    with pytest.raises(RuleViolation) as refused:
        invite(oscar, club, "owner")
    assert codes(refused.value) == {("role", "not_allowed", "owner_only")}
    assert invite(olga, club, "owner").invitation.role == Role.OWNER


def test_an_invitation_never_lowers_the_role_of_a_member(club, olga, oscar):
    members.accept_invitation(token=invite(olga, club, "member").token, by=Actor.for_user(oscar))
    assert Membership.objects.get(club=club, user=oscar).role == Role.ORGANIZER


def test_an_invitation_to_an_address_already_in_the_club_is_refused(club, olga, nina):
    join(club, nina, "member")
    with pytest.raises(RuleViolation) as refused:
        invite(olga, club, email="NINA@club.example")
    assert codes(refused.value) == {("email", "duplicate", "already_member")}


# -- roles and removals -----------------------------------------------------------------------


def test_the_last_owner_can_be_neither_demoted_nor_removed(club, olga):
    with pytest.raises(RuleViolation) as demoted:
        members.change_role(club=club, user=olga, role="organizer", by=Actor.for_user(olga))
    assert codes(demoted.value) == {("role", "not_allowed", "last_owner")}
    with pytest.raises(RuleViolation) as removed:
        members.remove_member(club=club, user=olga, by=Actor.for_user(olga))
    assert codes(removed.value) == {("role", "not_allowed", "last_owner")}
    assert Membership.objects.get(club=club, user=olga).role == Role.OWNER


def test_with_a_second_owner_the_first_may_step_down(club, olga, oscar):
    members.change_role(club=club, user=oscar, role="owner", by=Actor.for_user(olga))
    members.change_role(club=club, user=olga, role="scorer", by=Actor.for_user(olga))
    assert dict(club.memberships.values_list("user__username", "role")) == {
        "olga": "scorer",
        "oscar": "owner",
        "sara": "scorer",
    }


def test_only_an_owner_makes_or_unmakes_an_owner(club, olga, oscar, sara):
    with pytest.raises(RuleViolation) as promoted:
        members.change_role(club=club, user=sara, role="owner", by=Actor.for_user(oscar))
    assert codes(promoted.value) == {("role", "not_allowed", "owner_only")}
    with pytest.raises(RuleViolation) as removed:
        members.remove_member(club=club, user=olga, by=Actor.for_user(oscar))
    assert codes(removed.value) == {("role", "not_allowed", "owner_only")}
    with pytest.raises(NotAllowed):
        members.change_role(club=club, user=oscar, role="member", by=Actor.for_user(sara))


def test_an_organizer_changes_a_role_and_removes_a_member_and_both_are_audited(club, oscar, sara):
    members.change_role(club=club, user=sara, role="member", by=Actor.for_user(oscar))
    members.remove_member(club=club, user=sara, by=Actor.for_user(oscar))
    assert not Membership.objects.filter(club=club, user=sara).exists()
    assert actions(club) == [
        (
            "change_role",
            "oscar",
            {"user": "sara", "role": "scorer"},
            {"user": "sara", "role": "member"},
        ),
        ("remove_member", "oscar", {"user": "sara", "role": "member"}, None),
    ]


def test_anyone_may_leave_a_club(club, sara):
    members.remove_member(club=club, user=sara, by=Actor.for_user(sara))
    assert not Membership.objects.filter(club=club, user=sara).exists()


# -- players linked to accounts ---------------------------------------------------------------


def test_a_claim_approved_by_an_organizer_links_the_player(club, players, oscar, sara):
    bruno = players[1]
    claim = members.claim_player(player=bruno, by=Actor.for_user(sara))
    with pytest.raises(RuleViolation) as twice:
        members.claim_player(player=bruno, by=Actor.for_user(sara))
    assert codes(twice.value) == {("player", "duplicate", "claim_pending")}
    with pytest.raises(NotAllowed):
        members.decide_claim(claim=claim, approve=True, by=Actor.for_user(sara))
    members.decide_claim(claim=claim, approve=True, by=Actor.for_user(oscar))
    assert Player.objects.get(pk=bruno.pk).user == sara
    claim.refresh_from_db()
    assert (claim.status, claim.decided_by) == (ClaimStatus.APPROVED, oscar)
    with pytest.raises(RuleViolation) as other:  # one player per account in a club
        members.claim_player(player=players[2], by=Actor.for_user(sara))
    assert codes(other.value) == {("player", "not_allowed", "already_has_player")}
    assert [a[:2] for a in actions(club)] == [
        ("claim_player", "sara"),
        ("approve_claim", "oscar"),
    ]


def test_a_rejected_claim_links_nothing_and_a_linked_player_cannot_be_claimed(
    club, players, olga, oscar, sara
):
    claim = members.claim_player(player=players[0], by=Actor.for_user(sara))
    members.decide_claim(claim=claim, approve=False, by=Actor.for_user(olga))
    assert Player.objects.get(pk=players[0].pk).user is None
    Player.objects.filter(pk=players[1].pk).update(user=olga)
    with pytest.raises(RuleViolation) as refused:
        members.claim_player(player=players[1], by=Actor.for_user(oscar))
    assert codes(refused.value) == {("player", "not_allowed", "player_linked")}


def test_the_maker_of_a_claim_may_withdraw_it_but_not_approve_it(club, players, olga, oscar):
    claim = members.claim_player(player=players[1], by=Actor.for_user(oscar))  # an organizer
    with pytest.raises(RuleViolation) as refused:
        members.decide_claim(claim=claim, approve=True, by=Actor.for_user(oscar))
    assert codes(refused.value) == {("player", "not_allowed", "own_claim")}
    assert message(refused.value.problems[0]) == (
        "You cannot approve your own claim: another organizer of the club answers it."
    )
    assert Player.objects.get(pk=players[1].pk).user is None
    client = login(oscar)
    page = client.get("/c/uno/members/").content.decode()
    row = page.split(f'id="claim-{claim.pk}"', 1)[1].split("</li>", 1)[0]
    assert 'value="approve"' not in row and 'data-claim="own"' in row
    refused_page = client.post("/c/uno/members/", {"action": "approve", "claim": claim.pk})
    assert "You cannot approve your own claim" in refused_page.content.decode()
    assert Player.objects.get(pk=players[1].pk).user is None
    other = login(olga).get("/c/uno/members/").content.decode()
    assert 'value="approve"' in other.split(f'id="claim-{claim.pk}"', 1)[1].split("</li>", 1)[0]
    members.decide_claim(claim=claim, approve=False, by=Actor.for_user(oscar))  # withdrawn
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.REJECTED


def test_a_pending_claim_says_it_waits_for_approval_on_the_players_page(club, players, sara):
    client = login(sara)
    page = client.get("/c/uno/players/").content.decode()
    assert "waiting for approval" not in page
    assert client.post(f"/c/uno/players/{players[0].pk}/claim/").status_code == 302
    page = client.get("/c/uno/players/").content.decode()
    row = page.split(f'href="/c/uno/players/{players[0].pk}/"', 1)[1].split("</li>", 1)[0]
    assert '<span class="badge" data-claim="pending">waiting for approval</span>' in row
    assert "This is me" not in row


def test_someone_outside_the_club_cannot_claim_its_players(club, players, bea):
    with pytest.raises(NotAllowed):
        members.claim_player(player=players[0], by=Actor.for_user(bea))


# -- the member role reads only ---------------------------------------------------------------


def test_a_member_reads_the_private_results_but_writes_nothing(club, terziglio, olga, nina):
    members.accept_invitation(token=invite(olga, club, "member").token, by=Actor.for_user(nina))
    client = login(nina)
    assert client.get("/c/uno/").status_code == 200
    page = client.get(f"/g/{terziglio.pk}/")
    assert page.status_code == 200
    assert f'action="/g/{terziglio.pk}/hands/"' not in page.content.decode()
    assert f"/g/{terziglio.pk}/table/" not in page.content.decode()
    hand = {"dealer": "0", "outcome": "passed_out"}
    assert client.post(f"/g/{terziglio.pk}/hands/", hand).status_code == 403
    assert client.get("/c/uno/games/new/").status_code == 403
    assert client.get(f"/g/{terziglio.pk}/table/").status_code == 403
    assert client.post(f"/g/{terziglio.pk}/abandon/", {"reason": "x"}).status_code == 403
    assert client.post("/c/uno/players/", {"display_name": "Zeno"}).status_code == 403
    assert client.get("/c/uno/members/").status_code == 403
    api = api_as(nina)
    assert api.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200
    response = api.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        {"dealer": 0, "outcome": "passed_out"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert response.status_code == 403
    assert terziglio.hands.count() == 0


# -- two managers at once ---------------------------------------------------------------------


def at_once(*calls):
    """Run the calls in threads released together (each with its own connection); returns what
    each returned or raised, in order."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def work(index, call):
        try:
            barrier.wait(timeout=30)
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("how", ["step_down", "leave"])
def test_the_last_two_owners_leaving_at_once_leave_one_owner(django_user_model, how):
    for attempt in range(5):
        a = django_user_model.objects.create_user(f"a{attempt}")
        b = django_user_model.objects.create_user(f"b{attempt}")
        club = new_club(a, name=f"Circolo {attempt}", slug=f"c{attempt}")
        join(club, b, "owner")
        trail = AuditEvent.objects.filter(club=club, game=None).count()

        def go(user, club=club):
            if how == "step_down":
                return members.change_role(
                    club=club, user=user, role="member", by=Actor.for_user(user)
                )
            return members.remove_member(club=club, user=user, by=Actor.for_user(user))

        results = at_once(partial(go, a), partial(go, b))
        refused = [r for r in results if isinstance(r, Exception)]
        assert len(refused) == 1, results
        assert codes(refused[0]) == {("role", "not_allowed", "last_owner")}
        assert club.memberships.filter(role="owner").count() == 1
        assert AuditEvent.objects.filter(club=club, game=None).count() == trail + 1


def test_a_valid_but_too_long_address_is_refused_by_name_not_a_500(club, olga):
    """Issue 22, point 7: a 312-character address passes the e-mail validator but not the
    254-character column: refused by name, in the service and next to the page's field."""
    long_address = "a" * 60 + "@" + ".".join(["b" * 60] * 4) + ".it"
    assert len(long_address) > 254
    with pytest.raises(RuleViolation) as refused:
        invite(olga, club, email=long_address)
    assert codes(refused.value) == {("email", "too_long", None)}
    response = login(olga).post(
        "/c/uno/members/", {"action": "invite", "email": long_address, "role": "member"}
    )
    assert response.status_code == 400
    assert field_error(response.content.decode(), "email")
    assert not Invitation.objects.filter(email=long_address).exists()
