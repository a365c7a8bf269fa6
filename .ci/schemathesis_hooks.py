"""Schemathesis hooks of .ci/schemathesis (loaded through SCHEMATHESIS_HOOKS).

``positive_data_acceptance`` is schemathesis' own check (it is called here) with one difference:
a 400 none of whose errors is about the request's shape answers well-formed input by a rule the
schema cannot state, and passes. Such rules need the database, the caller or another field
("Registration is closed", "Only a published round can be closed", a player who is not in the
round, a game the competition does not play, one of two keys that must be given, two values that
contradict each other). An error about the shape still fails the check: an unknown key, a value
of the wrong type (``null`` where it is not nullable included), a refused character, a text too
long or nested too deep. So does any other status the check refuses. One exception: an
object-valued field sent with a key that is not a number (``{"3": ...}`` is keyed by an entry's
or a hand's number; house rules by the game's options): OpenAPI 3.0 cannot constrain an
object's keys (it has no ``propertyNames``). The codes are those of ``scoring.messages``.
"""

from __future__ import annotations

import json
import re

import schemathesis
from schemathesis.checks import CHECKS
from schemathesis.specs.openapi import checks as builtin

#: The codes of an error about the request's shape, which the schema states.
SHAPE = {"unknown_key", "type", "control_character", "too_deep", "too_long"}


def _errors(response) -> list[dict]:
    try:
        body = json.loads(response.content or b"{}")
    except ValueError:
        return []
    errors = body.get("errors") if isinstance(body, dict) else None
    return errors if isinstance(errors, list) else []


def _is_shape(error: dict, body: object) -> bool:
    code, field = error.get("code"), str(error.get("field") or "")
    top = re.split(r"[.\[]", field, maxsplit=1)[0]
    sent = body.get(top) if isinstance(body, dict) else None
    if isinstance(sent, dict) and not all(str(key).isdigit() for key in sent):
        return False  # an object-valued field sent with a key that is not a number
    return code in SHAPE


CHECKS.unregister("positive_data_acceptance")  # replaced by this one, which calls it


@schemathesis.check
def positive_data_acceptance(ctx, response, case):
    if (
        response.status_code == 400
        and case.meta is not None
        and case.meta.generation.mode.is_positive
    ):
        errors = _errors(response)
        if errors and not any(_is_shape(error, case.body) for error in errors):
            return None
        if any(e.get("field") == "ruleset" and e.get("code") == "choice" for e in errors):
            return None  # a hand of another game than this one's: its keys follow from that
    if response.status_code in (409, 422) and _key_reused(response):
        return None  # the generator sent one Idempotency-Key again with another body
    return builtin.positive_data_acceptance(ctx, response, case)


def _key_reused(response) -> bool:
    """An Idempotency-Key refusal: the key was used before (``reused``) or is being answered
    (``in_flight``), a rule about earlier requests that no schema states."""
    return any(
        e.get("field") == "Idempotency-Key" and e.get("code") in ("reused", "in_flight")
        for e in _errors(response)
    )


CHECKS.unregister("negative_data_rejection")  # replaced by this one, which calls it


@schemathesis.check
def negative_data_rejection(ctx, response, case):
    """Schemathesis' own check, except for a replayed first answer (``Idempotent-Replayed:
    true``): a resend with the same key and body is not judged again, whatever its headers."""
    if response.headers.get("idempotent-replayed") in ("true", ["true"]):
        return None
    return builtin.negative_data_rejection(ctx, response, case)
