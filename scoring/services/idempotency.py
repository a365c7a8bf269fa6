"""Any API write made once, however often it is sent (Stripe's ``Idempotency-Key``): the
claims and first answers of ``IdempotentRequest`` (docs/api.md, "Idempotency").

:func:`claim` is called before the write runs, with who sends it (``client``), the operation
(method and path), the key and a fingerprint of the query and body:

* a new key is claimed (a row with no answer yet) and the write runs; :func:`remember` then
  keeps its answer, or :func:`release` forgets the claim (a refusal, a crash: nothing was done,
  a resend is judged again);
* a key whose first request was answered gives that answer (:class:`Answer`), whatever
  changed since: nothing runs again;
* a key whose first request is still running is refused (:class:`InFlight`, 409), unless that
  claim is older than ``IN_FLIGHT_SECONDS`` (its worker died): then it is taken over;
* a key sent with another fingerprint is refused (``IdempotencyConflict``, 422).

The claim is committed before the write starts, so that a concurrent resend sees it; the write
and its answer are two commits (a worker killed between them leaves a claim that is taken over
after ``IN_FLIGHT_SECONDS``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.models import IdempotentRequest
from scoring.services.actors import IdempotencyConflict

#: A claim not answered within this long is taken as abandoned (a worker that died).
IN_FLIGHT_SECONDS = 60


class InFlight(Exception):
    """The first request with this key is still being answered (HTTP 409)."""


@dataclass(frozen=True)
class Claimed:
    """The key is this request's: run the write, then :func:`remember` or :func:`release`."""

    pk: int


@dataclass(frozen=True)
class Answer:
    """The first answer to this key, to give again."""

    status_code: int
    body: Any
    headers: dict[str, str]


def scope_of(client: str, operation: str, key: str) -> str:
    return hashlib.sha256("\n".join((client, operation, key)).encode()).hexdigest()


def claim(*, client: str, operation: str, key: str, fingerprint: str) -> Claimed | Answer:
    """Claim ``key`` for this request, or the first answer to it (see the module's docstring)."""
    scope = scope_of(client, operation, key)
    for _attempt in range(2):  # a claim released between our insert and our read: once more
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(
                    scope=scope,
                    client=client,
                    operation=operation[:300],
                    fingerprint=fingerprint,
                )
            return Claimed(row.pk)
        except IntegrityError:
            row = IdempotentRequest.objects.filter(scope=scope).first()
        if row is not None:
            return _existing(row, key, fingerprint)
    raise InFlight(key)


def _existing(row: IdempotentRequest, key: str, fingerprint: str) -> Claimed | Answer:
    if row.fingerprint != fingerprint:
        raise IdempotencyConflict(key)
    if row.answered:
        return Answer(row.status_code, row.body, row.headers)
    now = timezone.now()
    if row.created_at < now - timedelta(seconds=IN_FLIGHT_SECONDS):
        taken = IdempotentRequest.objects.filter(
            pk=row.pk, status_code__isnull=True, created_at=row.created_at
        ).update(created_at=now)
        if taken:
            return Claimed(row.pk)
    raise InFlight(key)


def remember(claimed: Claimed, *, status_code: int, body: Any, headers: dict[str, str]) -> None:
    """Keep the answer to the claimed request: a resend of its key gets it."""
    IdempotentRequest.objects.filter(pk=claimed.pk).update(
        status_code=status_code, body=body, headers=headers
    )


def release(claimed: Claimed) -> None:
    """Forget a claim whose request did nothing (refused, or crashed): a resend runs anew."""
    IdempotentRequest.objects.filter(pk=claimed.pk, status_code__isnull=True).delete()
