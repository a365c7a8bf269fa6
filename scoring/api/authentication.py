"""``Authorization: Token <key>`` without a database query on every request.

DRF's ``TokenAuthentication`` reads the token and its user from the database on every request:
for a phone entering hands that query was the biggest single cost of a hand POST after the write
itself. Here the user a token names is kept in the cache (Redis with ``CACHE_URL``, shared by
every web process) for ``API_TOKEN_CACHE_SECONDS``, under a digest of the key (the key itself is
never a cache key). The entry is dropped at once when the token is deleted (revoked, or its user
deleted) and when its user is saved (deactivated, say), so a refusal is never late in the process
that made the change, nor anywhere when the cache is Redis. With the local-memory cache and
several web processes, another process may still accept a revoked token until its entry expires:
at most ``API_TOKEN_CACHE_SECONDS`` (0 turns the cache off).

``TableLinkCsrf`` comes last: a phone's table link lives in its session cookie, which a browser
sends along with a foreign site's request just as it sends a login's, so the API's writes made
on a table link's strength need the CSRF token (and pass Django's Origin check) like a logged-in
session's do. Requests with a token, or with no table link in their session, are not concerned.
"""

from __future__ import annotations

import hashlib

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


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        seconds = settings.API_TOKEN_CACHE_SECONDS
        if not seconds:
            return super().authenticate_credentials(key)
        name = cache_key(key)
        found = cache.get(name)
        if found is None:
            user, token = super().authenticate_credentials(key)
            cache.set(name, (user, token), seconds)
            return user, token
        user, token = found
        if not user.is_active:  # the entry outlived a change made without save()
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
    cache.delete(cache_key(instance.key))


def forget_tokens_of_user(sender, instance, update_fields=None, **kwargs) -> None:
    """A saved user (deactivated, renamed...) is read again on its next request. A login only
    stamps ``last_login``: that changes nothing a request relies on."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    keys = Token.objects.filter(user_id=instance.pk).values_list("key", flat=True)
    cache.delete_many([cache_key(key) for key in keys])


# Connected when the app is ready (scoring.apps), so that every process forgets what it changes,
# whether or not it ever authenticated a request.
post_delete.connect(forget_token, sender=Token, dispatch_uid="api-token-cache-delete")
post_save.connect(forget_token, sender=Token, dispatch_uid="api-token-cache-save")
post_save.connect(
    forget_tokens_of_user, sender=get_user_model(), dispatch_uid="api-token-cache-user"
)
