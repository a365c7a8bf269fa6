"""Each operation's declared security is the access the server gives (issue 34, point 2).

The authorization matrix (tests/authorization_helpers.py, run by test_authorization_matrix.py)
says, per URL and persona, who may read and write; the server is tested against it. Here each
operation of /api/schema/ is matched with its URL's row: an operation anyone may call (some row
lets ``anyone`` read, or write, by that method) declares ``security: []``; every other one
declares the token and the session, and never ``{}`` (anonymous too).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.authorization_helpers import EXPECTED, _walk

METHODS = ("get", "post", "put", "patch", "delete")
CREDENTIALS = [{"tokenAuth": []}, {"cookieAuth": []}]

#: API URLs the matrix leaves out (tests/authorization_helpers.py SKIPPED): what their token
#: or link already decides, and so who may call them.
OUTSIDE_THE_MATRIX = {
    "api-schema": {"get": True},
}


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _openapi_path(route: str) -> str:
    """``api/v1/games/<int:game_id>/`` as drf-spectacular writes it: ``/api/v1/games/{game_id}/``."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)


def url_names() -> dict[str, str]:
    """Each API path of the schema -> the name of its URL pattern."""
    return {
        _openapi_path(route): pattern.name
        for route, pattern in _walk(get_resolver().url_patterns)
        if route.startswith("api/") and pattern.name
    }


def anyone_may(name: str, method: str) -> bool:
    """What the matrix says: may an anonymous caller use ``method`` on some object of ``name``?"""
    if name in OUTSIDE_THE_MATRIX:
        return OUTSIDE_THE_MATRIX[name].get(method, False)
    rows = EXPECTED[name]
    return any(row.level(method) == "anyone" for row in rows)


def operations(schema):
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def test_every_operation_declares_the_access_the_server_gives(schema):
    names = url_names()
    wrong = []
    for path, method, operation in operations(schema):
        name = names.get(path) or names[path.removesuffix("events/")]
        declared = operation.get("security")
        if anyone_may(name, method):
            if declared != []:
                wrong.append(f"{method.upper()} {path} ({name}): anyone may; declares {declared}")
        elif declared != CREDENTIALS:
            wrong.append(f"{method.upper()} {path} ({name}): needs a user; declares {declared}")
    assert not wrong, "\n".join(wrong)


def test_some_operations_are_public_and_most_need_a_user(schema):
    """The split is real both ways (a test that cannot see either side cannot fail)."""
    declared = [operation.get("security") for _, _, operation in operations(schema)]
    public = declared.count([])
    assert public >= 20, public
    assert declared.count(CREDENTIALS) >= 60
    assert public + declared.count(CREDENTIALS) == len(declared)


def _filled(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: "x" if m[1] in ("slug", "token") else "1", path)


@pytest.mark.django_db
def test_a_bad_token_is_refused_even_where_anyone_may_call(schema):
    """The choice documented in scoring/api/access.py and docs/api.md: a token the server does
    not know is a 401, on every operation, the public ones included; without the header the
    same public call goes through (anything but 401)."""
    public = [(p, m) for p, m, op in operations(schema) if op.get("security") == []]
    bad, plain = APIClient(HTTP_AUTHORIZATION="Token nope"), APIClient()
    answered = {}
    for path, method in public:
        url = _filled(path)
        refused = getattr(bad, method)(url, {}, format="json")
        assert refused.status_code == 401, (method, path, refused.status_code)
        assert refused.json()["errors"][0]["code"] == "authentication_failed", (method, path)
        answered[(method, path)] = getattr(plain, method)(url, {}, format="json").status_code
    assert all(status != 401 for status in answered.values()), answered
