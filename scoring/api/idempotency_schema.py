"""The schema of ``Idempotency-Key`` (``scoring.api.idempotency``): the API's schema class
(``DEFAULT_SCHEMA_CLASS``), ``scoring.api.schema.AutoSchema`` plus, on every operation whose
view takes a key, the optional header, its refusals (400 malformed, 409 in flight, 422 reused)
and the ``Idempotent-Replayed`` header of its successes."""

from __future__ import annotations

from typing import Any

from scoring.api import autoschema, schema
from scoring.api.idempotency import HEADER, KEY_MAX, accepts_key
from scoring.api.inputs import text_pattern

PARAMETER = {
    "in": "header",
    "name": HEADER,
    "required": False,
    "description": "A key the client makes for this request (e.g. a UUID), to send it again "
    "safely: a resend with the same key, body and query gets the first answer (with "
    "`Idempotent-Replayed: true`) and nothing is done twice. Successes are kept "
    "`IDEMPOTENCY_TTL_HOURS` (48 by default); refusals are not (a resend is judged again). The same key with another body: "
    "422; while the first is still being answered: 409. Keys are the caller's own (its "
    'account, or its address) and this operation\'s (docs/api.md, "Idempotency").',
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": KEY_MAX,
        # What ``checked_key`` refuses: control characters (tabs too), blank.
        "pattern": text_pattern(single_line=True, non_blank=True),
        "example": "6f1c3a2e-8a4b-4f8e-9a55-0d7c2b1e9f40",
    },
}
#: The refusals a key adds, where the operation does not already declare them.
REFUSALS = {
    "400": "Refused input (a malformed `Idempotency-Key` among them): each error names its field.",
    "409": "Refused in the current state, or a request with this `Idempotency-Key` is still "
    "being answered (`in_flight`): send it again in a moment.",
    "422": schema.STATUS_DESCRIPTIONS["422"],
}


class AutoSchema(autoschema.AutoSchema):
    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is not None and accepts_key(self.view, self.method):
            with_key(operation)
        return operation


def with_key(operation: dict[str, Any]) -> None:
    parameters = operation.setdefault("parameters", [])
    if not any(p["in"] == "header" and p["name"] == HEADER for p in parameters):
        parameters.append(dict(PARAMETER))
    responses = operation.setdefault("responses", {})
    for code, description in REFUSALS.items():
        responses.setdefault(code, {"description": description})
    headers = operation.setdefault(schema.EXTENSION, {})
    for code in [c for c in responses if c[0] in "23"]:
        names = headers.setdefault(code, [])
        if "Idempotent-Replayed" not in names:
            names.append("Idempotent-Replayed")
