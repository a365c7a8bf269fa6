"""What the members' tests share: the invitation link in a mail, a refusal's codes, an invitation
made through the service, and the club's audit trail since its set-up. Their fixtures (``nina``,
``site_url``) are in tests/scoring/conftest.py."""

from __future__ import annotations

import re

from scoring.models import AuditEvent
from scoring.rules import RuleViolation
from scoring.services import Actor, members

LINK = re.compile(r"http://testserver/invitation/([\w-]+)/")


def codes(violation: RuleViolation) -> set[tuple[str, str, str | None]]:
    return {(p.field, p.code, p.params.get("reason")) for p in violation.problems}


def invite(by, club, role="scorer", **kwargs):
    return members.invite(club=club, by=Actor.for_user(by), role=role, **kwargs)


def actions(club):
    return list(
        AuditEvent.objects.filter(club=club, game=None, pk__gt=club.set_up_until).values_list(
            "action", "actor__username", "before", "after"
        )
    )
