"""Web Push to a player's own devices: turning notifications on and off, and sending news once.

- ``subscribe``: a logged-in user with a linked player stores the ``PushSubscription`` their
  browser made (``{"endpoint", "keys": {"p256dh", "auth"}}``, RFC 8030 / 8291) with the page's
  language. One row per device: the same endpoint again replaces its keys, its language and
  whose it is (the last account that turned notifications on there). Bad input is a
  ``RuleViolation`` naming the field (400); nothing is stored then.
- ``unsubscribe``: the user's row for that endpoint is deleted; ``subscribed``: who has one.
- ``notify``: sends one user's devices a message about a ``topic`` at a ``version`` (a digest of
  the news): each device is sent each version once, whatever runs twice. The message is made in
  each device's language (``message()`` runs under ``translation.override``), encrypted for it
  (aes128gcm) and signed with the VAPID keys (pywebpush). A 404 or 410 from the push service
  means the browser dropped the subscription: its row is deleted. Another failure (a timeout,
  a 5xx) is logged and the device's receipt is put back, so the next run may send it. With no
  VAPID keys (``settings.VAPID_PRIVATE_KEY`` empty) nothing is sent.

A send is claimed first (the receipt's version written in its own short transaction) and made
after, outside any transaction: no database lock is held while a push service answers (SQLite
has one writer), and of two runs at once only the one that wrote the version sends.
"""

from __future__ import annotations

import binascii
import json
import logging
from collections.abc import Callable
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from config.push import b64decode
from scoring.models import Player, PushReceipt, PushSubscription
from scoring.services.actors import NotAllowed, violation

log = logging.getLogger(__name__)

#: How long a push service keeps a message for a device that is off (a round's seats matter
#: for the evening, not the next day).
TTL_SECONDS = 4 * 60 * 60
#: Seconds a push service has to answer one message.
TIMEOUT_SECONDS = 10
#: The push service answers that the subscription is gone.
GONE = {404, 410}


def enabled() -> bool:
    """Whether Web Push is configured (both VAPID keys; config/push.py checks they match)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def _text(value, field: str, most: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise violation(field, "required")
    if len(value) > most:
        raise violation(field, "too_long", max=most, value=len(value))
    return value.strip()


def _key(value, field: str, size: int, most: int) -> str:
    """A key as the browser writes it (base64url, unpadded) of ``size`` bytes."""
    text = _text(value, field, most)
    try:
        raw = b64decode(text)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != size or (field.endswith("p256dh") and raw[0] != 4):
        raise violation(field, "not_a_key")
    return text.rstrip("=")


def clean(subscription) -> dict[str, str]:
    """The browser's ``PushSubscription.toJSON()``, checked: endpoint (https), p256dh (a P-256
    point, 65 bytes), auth (16 bytes)."""
    if not isinstance(subscription, dict):
        raise violation("subscription", "type", expected="object")
    endpoint = _text(subscription.get("endpoint"), "endpoint", 1000)
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise violation("endpoint", "not_https")
    keys = subscription.get("keys")
    if not isinstance(keys, dict):
        raise violation("keys", "type", expected="object")
    return {
        "endpoint": endpoint,
        "p256dh": _key(keys.get("p256dh"), "keys.p256dh", 65, 100),
        "auth": _key(keys.get("auth"), "keys.auth", 16, 50),
    }


def subscribe(*, user, subscription, language: str) -> PushSubscription:
    """Store (or replace) this device's subscription for ``user`` (see the module docstring)."""
    if not Player.objects.filter(user=user).exists():
        raise NotAllowed("notifications are for an account with a linked player")
    fields = clean(subscription)
    if language not in dict(settings.LANGUAGES):
        language = settings.LANGUAGE_CODE
    with transaction.atomic():
        row, _created = PushSubscription.objects.update_or_create(
            endpoint=fields["endpoint"],
            defaults={
                "user": user,
                "p256dh": fields["p256dh"],
                "auth": fields["auth"],
                "language": language,
            },
        )
    return row


def unsubscribe(*, user, endpoint) -> bool:
    """Delete ``user``'s subscription of ``endpoint``; whether there was one."""
    if not isinstance(endpoint, str) or not endpoint:
        raise violation("endpoint", "required")
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def _claim(subscription: PushSubscription, topic: str, version: str) -> str | None:
    """Write ``version`` on the device's receipt for ``topic``; the version it had before (""
    for none), or None when it already is ``version`` (sent, or being sent by another run)."""
    try:
        with transaction.atomic():
            receipt, created = PushReceipt.objects.select_for_update().get_or_create(
                subscription=subscription, topic=topic, defaults={"version": version}
            )
            if created:
                return ""
            if receipt.version == version:
                return None
            before = receipt.version
            receipt.version, receipt.sent_at = version, timezone.now()
            receipt.save(update_fields=["version", "sent_at"])
            return before
    except IntegrityError:  # the device was deleted meanwhile (a 410 to another run)
        return None


def _send(subscription: PushSubscription, payload: dict, topic: str) -> bool | None:
    """Push ``payload`` (JSON) to the device: True when the push service took it, None when
    it said the subscription is gone (deleted here), False otherwise."""
    try:
        webpush(
            subscription_info=subscription.info(),
            data=json.dumps(payload, ensure_ascii=False),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
            # A newer message on the same topic replaces one the device has not fetched yet.
            headers={"Urgency": "high", "Topic": topic.replace(":", "-")[:32]},
        )
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return None
        log.warning("push: %s refused a message (%s)", urlsplit(subscription.endpoint)[1], status)
        return False
    except requests.RequestException as error:
        log.warning("push: %s did not answer (%s)", urlsplit(subscription.endpoint)[1], error)
        return False
    return True


def subscribed(user_ids) -> set[int]:
    """Which of ``user_ids`` have a device to tell (one query)."""
    rows = PushSubscription.objects.filter(user_id__in=set(user_ids))
    return set(rows.values_list("user_id", flat=True))


def notify(*, user_id: int, topic: str, version: str, message: Callable[[], dict]) -> int:
    """Send ``message()`` (``{"title", "body", "url", "tag"}``, made in each device's language)
    to every device of ``user_id`` not yet sent ``version`` on ``topic``; how many took it."""
    if not enabled():
        return 0
    sent = 0
    for subscription in PushSubscription.objects.filter(user_id=user_id):
        before = _claim(subscription, topic, version)
        if before is None:
            continue
        with translation.override(subscription.language):
            payload = message()
        result = _send(subscription, payload, topic)
        if result:
            sent += 1
        elif result is False:  # not delivered: the next run may send it again
            PushReceipt.objects.filter(
                subscription=subscription, topic=topic, version=version
            ).update(version=before)
    return sent
