"""Web Push: the devices a player asked to be told on (``PushSubscription``) and what each was
already sent (``PushReceipt``).

A subscription is what the browser's ``PushManager.subscribe`` gives: the push service's
``endpoint`` (one per device and browser, so it is unique here: the same device subscribing
again replaces its row) and the keys that encrypt a message for it (``p256dh``, the browser's
P-256 public key, and ``auth``, its secret; both base64url as the browser writes them). Only
that device can read what is sent. The row is deleted when its player turns notifications off
on that device, when the push service answers 404 or 410 (the browser dropped it), and with its
account.

A receipt remembers, for one device and one topic (``round:<id>``), the version of the news
last sent: a task that runs twice, or a change that does not move this player, sends nothing
again (``scoring.services.push``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class PushSubscription(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    #: The language the page was in when notifications were turned on: the messages'.
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(p256dh="") & ~models.Q(auth=""), name="push_keys_given"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.endpoint[:40]}…"

    def info(self) -> dict:
        """The subscription as the browser gave it (what pywebpush takes)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushReceipt(models.Model):
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="receipts"
    )
    topic = models.CharField(max_length=64)
    #: What was sent last on this topic (a digest of the news), "" while a send is not yet done.
    version = models.CharField(max_length=64, blank=True)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subscription", "topic"], name="push_receipt_once"),
        ]

    def __str__(self) -> str:
        return f"{self.subscription_id} · {self.topic} · {self.version}"
