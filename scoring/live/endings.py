"""A stream never outlives what opened it: a logout ends the session's streams, a revoked token
its own, a deactivated account all of its own, at once (an ``end`` event on their control channel, ``scoring.live.streams``). Connected
once the models are loaded (``ScoringConfig.ready``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_delete, post_save
from rest_framework.authtoken.models import Token

from scoring import live


def _logged_out(sender, request, user, **kwargs) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        live.publish_on_commit(live.session_channel(key), "end", {"reason": "logout"})


def _token_deleted(sender, instance, **kwargs) -> None:
    live.publish_on_commit(live.token_channel(instance.key), "end", {"reason": "token"})


def _user_saved(sender, instance, **kwargs) -> None:
    if not instance.is_active:
        live.publish_on_commit(live.user_channel(instance.pk), "end", {"reason": "account"})


user_logged_out.connect(_logged_out, dispatch_uid="live-logout")
post_delete.connect(_token_deleted, sender=Token, dispatch_uid="live-token-deleted")
post_save.connect(_user_saved, sender=get_user_model(), dispatch_uid="live-user-saved")
