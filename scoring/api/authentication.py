"""``Authorization: Token <key>`` without a database query on every request.

DRF's ``TokenAuthentication`` reads the token and its user from the database on every request:
for a phone entering hands that query was the biggest single cost of a hand POST after the write
itself. Here the user a token names is kept in the cache (Redis with ``CACHE_URL``, shared by
every web process) for ``API_TOKEN_CACHE_SECONDS``, under a digest of the key (the key itself is
never a cache key). The entry is dropped at once when the token is deleted (revoked, or its user
deleted) and when its user is saved (deactivated, say), so a refusal is never late in the process
that made the change. In front of the shared cache, each process also remembers the tokens it has
just seen for ``API_TOKEN_LOCAL_SECONDS`` (5 by default; 0 turns that off): another web process
may accept a revoked token for at most that long after the revocation. With the local-memory
cache and several web processes, another process may accept it until its entry expires: at most
``API_TOKEN_CACHE_SECONDS`` (0 turns the cache off).

``TableLinkCsrf`` comes last: a phone's table link lives in its session cookie, which a browser
sends along with a foreign site's request just as it sends a login's, so the API's writes made
on a table link's strength need the CSRF token (and pass Django's Origin check) like a logged-in
session's do. Requests with a token, or with no table link in their session, are not concerned.
"""

from __future__ import annotations

import hashlib
import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.authtoken.models import Token

from scoring.access import TABLE_SESSION_KEY


def cache_key(key: str) -> str:
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


class _Remembered:
    """What this process remembers of the tokens it has just seen: name -> (until, user,
    token), for ``API_TOKEN_LOCAL_SECONDS``. A phone entering hands sends the same token every
    few seconds; asking Redis each time (a round trip and the unpickling of a user) was about a
    tenth of a hand POST's CPU (bench/profile_hand.py). Bounded: past ``LIMIT`` entries the
    oldest half is dropped."""

    LIMIT = 10_000

    def __init__(self) -> None:
        self.entries: dict[str, tuple[float, object, object]] = {}
        self.lock = threading.Lock()

    def get(self, name: str):
        found = self.entries.get(name)
        if found is None:
            return None
        if found[0] < time.monotonic():
            self.forget(name)
            return None
        return found[1], found[2]

    def put(self, name: str, user, token, seconds: float) -> None:
        with self.lock:
            if len(self.entries) >= self.LIMIT:
                for old in list(self.entries)[: self.LIMIT // 2]:
                    self.entries.pop(old, None)
            self.entries[name] = (time.monotonic() + seconds, user, token)

    def forget(self, *names: str) -> None:
        with self.lock:
            for name in names:
                self.entries.pop(name, None)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


remembered = _Remembered()


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        seconds = settings.API_TOKEN_CACHE_SECONDS
        if not seconds:
            return super().authenticate_credentials(key)
        name = cache_key(key)
        local = min(seconds, settings.API_TOKEN_LOCAL_SECONDS)
        found = remembered.get(name) if local else None
        if found is None:
            found = cache.get(name)
            if found is None:
                found = super().authenticate_credentials(key)
                cache.set(name, found, seconds)
            if local:
                remembered.put(name, *found, local)
        user, token = found
        if not user.is_active:  # the entry outlived a change made without save()
            remembered.forget(name)
            cache.delete(name)
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, token


class TableLinkCsrf(SessionAuthentication):
    """Authenticates nobody; refuses (403) an unsafe request that a session's table link would
    authorize when it lacks the CSRF token or comes from another origin."""

    def authenticate(self, request):
        session = getattr(request._request, "session", None)
        if session is not None and session.get(TABLE_SESSION_KEY):
            self.enforce_csrf(request)  # safe methods pass; a refusal is PermissionDenied
        return None


def forget_token(sender, instance, **kwargs) -> None:
    remembered.forget(cache_key(instance.key))
    cache.delete(cache_key(instance.key))


def forget_tokens_of_user(sender, instance, update_fields=None, **kwargs) -> None:
    """A saved user (deactivated, renamed...) is read again on its next request. A login only
    stamps ``last_login``: that changes nothing a request relies on."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    names = [
        cache_key(key)
        for key in Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)
    ]
    remembered.forget(*names)
    cache.delete_many(names)


# Connected when the app is ready (scoring.apps), so that every process forgets what it changes,
# whether or not it ever authenticated a request.
post_delete.connect(forget_token, sender=Token, dispatch_uid="api-token-cache-delete")
post_save.connect(forget_token, sender=Token, dispatch_uid="api-token-cache-save")
post_save.connect(
    forget_tokens_of_user, sender=get_user_model(), dispatch_uid="api-token-cache-user"
)
