"""Test data built through the same audited services the app uses (as Zulip's tests call its
``do_*`` actions): a club is started by its owner, a member joins by accepting an invitation.
Importable by any test module and used by the conftests' personas."""

from scoring import services
from scoring.services import Actor, members


def by(user) -> Actor:
    """The actor of ``user`` writing through the pages."""
    return Actor.for_user(user)


def new_club(owner, *, name: str, slug: str, **options):
    """A club started by ``owner`` (``services.create_club``: audited, ``owner`` its owner)."""
    return services.create_club(name=name, slug=slug, by=Actor.for_user(owner), **options)


def join(club, user, role: str, *, invited_by=None):
    """``user`` becomes a member of ``club`` with ``role``: invited by an owner of the club (the
    first owner when ``invited_by`` is None) and accepting the one-time link."""
    inviter = invited_by or club.memberships.filter(role="owner").order_by("pk").first().user
    invited = members.invite(club=club, by=Actor.for_user(inviter), role=role)
    return members.accept_invitation(token=invited.token, by=Actor.for_user(user))
