"""The API's writes sent with an ``Idempotency-Key`` (``scoring.services.idempotency``): one
row per client, operation and key, claimed while the first request runs and then holding its
answer, which a resend of the same key gets again (docs/api.md, "Idempotency").

``scope`` is a hash of the client (``user:<id>``, or a hash of an anonymous caller's address),
the operation (method and path) and the key, so the key itself is not kept and the database
refuses a second claim of the same scope. ``status_code`` is null while the first request is
still being answered. Rows older than ``IDEMPOTENCY_TTL_HOURS`` are purged hourly
(``scoring.services.housekeeping``).

The hand POST keeps its first answers in ``IdempotencyRecord`` instead, written in the hand's
own transaction (``scoring.services.hands``).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class IdempotentRequest(models.Model):
    """A write request sent with an ``Idempotency-Key``: in flight, or its first answer."""

    scope = models.CharField(max_length=64, unique=True)
    #: Who sent it (``user:<id>`` or ``address:<hash>``): the keys' namespace, not a credential.
    client = models.CharField(max_length=80)
    #: ``POST /api/v1/…`` (cut at the column's length).
    operation = models.CharField(max_length=300)
    #: A hash of the query and the body: the same key with another one is refused (422).
    fingerprint = models.CharField(max_length=64)
    #: Null while the first request runs; then the status of its answer.
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    #: The headers of the answer that a resend gets again (``Location``, ``ETag``).
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # The hourly purge deletes by age.
        indexes = [models.Index(fields=["created_at"], name="idempotent_request_created")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status_code__isnull=True)
                | models.Q(status_code__gte=100, status_code__lt=600),
                name="idempotent_request_status_valid",
            )
        ]

    def __str__(self) -> str:
        return f"{self.operation} ({self.client})"

    @property
    def answered(self) -> bool:
        return self.status_code is not None
