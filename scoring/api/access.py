"""Who may call an operation, as the schema states it (``DEFAULT_SCHEMA_CLASS``).

A view names the HTTP methods anyone may call, signed in or not, in ``anyone_may``: the game of a
club with public results, its standings, registering for a competition, a mailed link's
confirmation. Its operations declare ``security: []``, and a generated client calls them with or
without a token (openapi-python-client asks for an ``AuthenticatedClient`` wherever ``security``
is not empty). Every other operation needs a token or a session (a table link's session counts),
and declares ``security: [{tokenAuth}, {cookieAuth}]``: never the ``{}`` that drf-spectacular adds
for DRF's ``AllowAny``, which said "anonymous too" of 102 operations that refuse anonymous callers.

What anyone may call still depends on the object: a private club's game is a 404 to a stranger,
as its page is. A bad token is refused (401) everywhere, also where anyone may call: a client
whose token was revoked learns it at once instead of quietly seeing less; to call anonymously, it
sends no ``Authorization`` header. ``tests/scoring/test_api_security.py`` compares each
operation's declaration with the authorization matrix (``tests/authorization_helpers.py``) the
server is tested against.
"""

from __future__ import annotations

from typing import Any

from scoring.api.idempotency_schema import AutoSchema as DescribedSchema


def anyone_may(view: Any, method: str) -> bool:
    """Whether anyone, signed in or not, may call ``method`` on ``view``."""
    return method.upper() in getattr(view, "anyone_may", ())


class AutoSchema(DescribedSchema):
    """The project's schema class: the descriptions of :mod:`scoring.api.schema`, the
    ``Idempotency-Key`` of :mod:`scoring.api.idempotency_schema`, and the security each
    operation really has."""

    def get_auth(self) -> list[dict[str, Any]]:
        if anyone_may(self.view, self.method):
            return []
        return [requirement for requirement in super().get_auth() if requirement]

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None and anyone_may(self.view, self.method):
            operation["security"] = []
        return operation
