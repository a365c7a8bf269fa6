"""Web Push's VAPID keys from the environment (config/settings.py's VAPID_* settings): the
server's P-256 key pair that push services know its messages by (RFC 8292), written as
``vapid --gen`` or ``web-push generate-vapid-keys`` print them (base64url: the public key's 65
bytes, the private key's 32), and the contact the push services may write to (``mailto:`` or
``https:``). With neither key set, Web Push is off: My games shows no notifications button and
nothing is sent. One key without the other, a key that does not decode, or a pair that does not
match stops the start. ``manage.py vapidkeys`` makes a pair (``make run`` keeps one for
development)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from email.utils import parseaddr
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64decode(text: str) -> bytes:
    """base64url with or without its padding (browsers and key tools leave it out)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def public_key_of(private: ec.EllipticCurvePrivateKey) -> str:
    raw = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return b64encode(raw)


def private_key_from(text: str) -> ec.EllipticCurvePrivateKey:
    """The private key of its base64url text; ValueError when it is not one."""
    try:
        raw = b64decode(text)
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None
    if len(raw) != 32:
        raise ValueError("not 32 bytes")
    return ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())


def new_keys() -> tuple[str, str]:
    """A new ``(public, private)`` pair, base64url."""
    private = ec.generate_private_key(ec.SECP256R1())
    number = private.private_numbers().private_value.to_bytes(32, "big")
    return public_key_of(private), b64encode(number)


def vapid(env, refuse: Callable[[str], Any], sender: str) -> tuple[str, str, str]:
    """``(VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT)`` read from ``env``, the subject
    by default ``mailto:`` the sender of e-mails; ``refuse`` stops the start with a message."""
    public = env.str("VAPID_PUBLIC_KEY", default="").strip().rstrip("=")
    private = env.str("VAPID_PRIVATE_KEY", default="").strip()
    subject = env.str("VAPID_SUBJECT", default="").strip() or f"mailto:{parseaddr(sender)[1]}"
    if bool(public) != bool(private):
        refuse("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither")
    if private:
        try:
            key = private_key_from(private)
        except ValueError:
            refuse("VAPID_PRIVATE_KEY must be a P-256 private key in base64url (32 bytes)")
        if public_key_of(key) != public:
            refuse("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
    if not subject.startswith(("mailto:", "https://")):
        refuse(f"VAPID_SUBJECT must be a mailto: or https:// address, got {subject!r}")
    return public, private, subject
