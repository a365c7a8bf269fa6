"""``/me/push/``: the My games page's notifications button (``static/js/push.js``) sends the
browser's push subscription here. ``POST`` stores it (the JSON of ``PushSubscription``:
``{"endpoint", "keys": {"p256dh", "auth"}}``) in the page's language, 201; ``DELETE`` with
``{"endpoint"}`` forgets it, 200. JSON in, JSON out, the CSRF token in ``X-CSRFToken`` as every
script sends it. Refusals are in the API's error shape (``scoring.messages.refusal``): 400
naming the field, 403 without an account with a linked player, 404 while Web Push is not
configured (no VAPID keys: the button is not shown either)."""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.messages import as_errors, refusal
from scoring.rules import RuleViolation
from scoring.services import NotAllowed, push, violation

#: A subscription is a few hundred bytes; anything much larger is not one.
BODY_MAX_BYTES = 4096


def _body(request):
    if len(request.body) > BODY_MAX_BYTES:
        raise violation("subscription", "too_large", max=BODY_MAX_BYTES)
    try:
        return json.loads(request.body or b"null")
    except (UnicodeDecodeError, ValueError):
        raise violation("subscription", "type", expected="object") from None


@require_http_methods(["POST", "DELETE"])
def push_subscription(request):
    if not push.enabled():
        return JsonResponse(
            refusal("not_found", _("Notifications are not set up here.")), status=404
        )
    if not request.user.is_authenticated:
        text = _("Log in to turn notifications on.")
        return JsonResponse(refusal("not_authenticated", text), status=403)
    try:
        body = _body(request)
        if request.method == "DELETE":
            endpoint = body.get("endpoint") if isinstance(body, dict) else None
            push.unsubscribe(user=request.user, endpoint=endpoint)
            return JsonResponse({"subscribed": False})
        push.subscribe(user=request.user, subscription=body, language=request.LANGUAGE_CODE)
    except RuleViolation as error:
        return JsonResponse({"errors": as_errors(error.problems)}, status=400)
    except NotAllowed:
        text = _("Notifications are for a player: link your player to your account first.")
        return JsonResponse(refusal("permission_denied", text), status=403)
    return JsonResponse({"subscribed": True}, status=201)
