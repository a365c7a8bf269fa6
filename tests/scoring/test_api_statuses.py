"""One success status per operation (issue 34, point 6): a client generated from the schema
reads one 2xx answer per operation, so no operation declares two (a create answers 201 even
when it finds what it would make, Stripe-like; an action answers 200)."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _successes(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                codes = sorted(str(c) for c in operation["responses"] if str(c).startswith("2"))
                yield f"{method.upper()} {path}", operation["operationId"], codes


def test_every_operation_declares_exactly_one_success_status(schema):
    rows = list(_successes(schema))
    assert len(rows) > 100
    offenders = [
        f"{name} ({op_id}): {', '.join(codes) or 'none'}"
        for name, op_id, codes in rows
        if len(codes) != 1
    ]
    assert offenders == [], "operations without exactly one 2xx response:\n" + "\n".join(offenders)
