"""Forms sent once (issue 22): a form that makes something (a game, a competition, a round's
games, an invitation) carries a one-time token; the token is consumed in the transaction of the
write it allows, so the same form sent twice, or five times at once, makes one thing, and every
resend is shown the thing made.

A token is ``issue_token(user, purpose)``: a random part signed with the account and the
purpose, valid ``IDEMPOTENCY_TTL_HOURS``. ``once`` stores its random part (unique) before the
write: a second transaction with the same token waits on that row (PostgreSQL's unique index;
SQLite's one write lock) and, once the first commits, raises ``AlreadySubmitted`` with where the
thing made is shown. If the first made nothing (a refusal), its row goes with it and the token
serves again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction

from scoring.models import FormSubmission
from scoring.services.actors import Actor

SALT = "scoring.forms.once"


class AlreadySubmitted(Exception):
    """The form was sent before with this token and made what ``answer`` (a path) shows."""

    def __init__(self, answer: str):
        self.answer = answer
        super().__init__(answer)


def issue_token(user, purpose: str) -> str:
    """A new one-time token for ``user``'s form that makes ``purpose``."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    return signing.dumps([user_id, purpose, secrets.token_urlsafe(24)], salt=SALT, compress=True)


def read_token(value: str, user, purpose: str) -> str | None:
    """The random part of ``value`` if it is a token this site issued to ``user`` for
    ``purpose`` and has not expired, else None."""
    try:
        user_id, made_for, nonce = signing.loads(
            value, salt=SALT, max_age=settings.IDEMPOTENCY_TTL_HOURS * 3600
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None
    mine = user.pk if getattr(user, "is_authenticated", False) else None
    if user_id != mine or made_for != purpose or not isinstance(nonce, str) or len(nonce) > 64:
        return None
    return nonce


@contextmanager
def once(*, token: str | None, by: Actor, purpose: str) -> Iterator[Callable[[str], None]]:
    """The transaction of a form's write, with its one-time ``token`` (``read_token``'s random
    part; None: a client that sent none, nothing to hold it to). Yields ``made(answer)``, to
    call with the path that shows the thing once it is made. Raises ``AlreadySubmitted`` when
    the token was consumed already (or is being consumed by a request that then commits)."""
    answer: list[str] = []
    with transaction.atomic():
        row = None
        if token:
            try:
                with transaction.atomic():
                    row = FormSubmission.objects.create(
                        token=token, user=by.user, purpose=purpose, answer=""
                    )
            except IntegrityError:
                made = FormSubmission.objects.filter(token=token).first()
                raise AlreadySubmitted(made.answer if made else "") from None
        yield answer.append
        if row is not None:
            if answer:
                row.answer = answer[-1][:200]
                row.save(update_fields=["answer"])
            else:  # nothing was made (a refusal): the token serves again
                row.delete()
