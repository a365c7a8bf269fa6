"""The census of ``Idempotency-Key`` (issue 34, point 3): every write operation of the schema
(POST, PUT, PATCH, DELETE) declares the header and, sent twice with one key, runs once and
replays its first answer (status, body, ``Location``, ``ETag``, ``Idempotent-Replayed: true``);
the same key with another body is refused (422). The views' own code is stood in for by a
handler that counts its calls, so that each operation is walked through its real URL, its
real view class and DRF's real dispatch, whatever its body needs; tests/scoring/
test_idempotency.py sends real writes. ``EXCEPTIONS`` names the operations left out, and why."""

from __future__ import annotations

import json
import re
from itertools import count

import pytest
from django.urls import resolve
from drf_spectacular.generators import SchemaGenerator
from rest_framework.response import Response

from scoring.api.errors import Refused
from scoring.api.idempotency import HEADER, KEY_MAX, accepts_key, checked_key

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")
#: Write operations that do not go through ``scoring.api.idempotency``, and why.
EXCEPTIONS = {
    "POST /api/v1/auth/token/": "answers the account's one token however often it is asked "
    "(nothing is made twice), and a first answer kept would be a credential kept",
    "POST /api/v1/games/{game_id}/hands/": "keeps its own first answers (IdempotencyRecord), "
    "in the hand's transaction (services.record_hand), its key required; replayed in "
    "tests/scoring/test_idempotent_replays.py and test_idempotency.py",
}


def write_operations() -> list[tuple[str, str, dict]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in WRITES
    ]


OPERATIONS = write_operations()


def concrete(path: str) -> str:
    """The path with its parameters filled (slugs: the club ``uno``)."""
    return re.sub(r"\{(\w+)\}", lambda m: "uno" if "slug" in m.group(1) else "7", path)


def test_the_census_covers_every_write_and_its_exceptions_exist():
    names = {f"{method} {path}" for method, path, _op in OPERATIONS}
    assert len(names) > 70
    assert set(EXCEPTIONS) <= names


@pytest.mark.parametrize(
    ("method", "path", "operation"),
    OPERATIONS,
    ids=[f"{method} {path}" for method, path, _op in OPERATIONS],
)
def test_every_write_declares_the_key(method, path, operation):
    declared = [p for p in operation.get("parameters", []) if p["name"] == HEADER]
    view = resolve(concrete(path)).func.view_class()
    if f"{method} {path}" in EXCEPTIONS:
        assert not accepts_key(view, method)  # the exception is real: the table stays honest
        return
    assert accepts_key(view, method)
    (parameter,) = declared
    assert parameter["in"] == "header" and not parameter["required"]
    assert parameter["schema"]["maxLength"] == KEY_MAX
    assert {"400", "409", "422"} <= set(operation["responses"])
    successes = [code for code in operation["responses"] if code[0] == "2"]
    assert successes
    for code in successes:
        assert "Idempotent-Replayed" in operation["responses"][code].get("headers", {})


@pytest.mark.parametrize(
    ("method", "path"),
    [(m, p) for m, p, _op in OPERATIONS if f"{m} {p}" not in EXCEPTIONS],
    ids=[f"{m} {p}" for m, p, _op in OPERATIONS if f"{m} {p}" not in EXCEPTIONS],
)
def test_every_write_runs_once_and_replays_its_first_answer(
    method, path, monkeypatch, olga, client
):
    url = concrete(path)
    view_class = resolve(url).func.view_class
    calls = count(1)
    ran = []

    def handler(self, request, *args, **kwargs):
        ran.append(next(calls))
        headers = {"Location": f"{url}made/{len(ran)}/", "ETag": f'"{len(ran)}"'}
        return Response({"made": len(ran)}, status=201, headers=headers)

    monkeypatch.setattr(view_class, method.lower(), handler)
    client.force_login(olga)

    def send(body):
        return client.generic(
            method,
            url,
            json.dumps(body),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="census-1",
        )

    first = send({"a": 1})
    assert first.status_code == 201, first.content
    again = send({"a": 1})
    assert ran == [1], "the resend ran the view again"
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() == {"made": 1}
    assert (again["Location"], again["ETag"]) == (first["Location"], first["ETag"])
    other = send({"a": 2})
    assert other.status_code == 422 and ran == [1]
    assert other.json()["errors"][0]["field"] == HEADER


@pytest.mark.parametrize(
    ("key", "valid"),
    [("6f1c3a2e-8a4b", True), ("k" * 255, True), ("", False), ("   ", False),
     ("k" * 256, False), ("a\x01b", False), ("tab\there", False), ("a\u202eb", False)],
)  # fmt: skip
def test_the_declared_key_is_the_one_the_server_takes(key, valid):
    """A generator (schemathesis) sends what the schema allows: the server takes exactly that."""
    schema = next(p for _m, _p, op in OPERATIONS for p in op.get("parameters", [])
                  if p["name"] == HEADER and not p["required"])["schema"]  # fmt: skip
    declared = len(key) <= schema["maxLength"] and bool(re.search(schema["pattern"], key))
    assert declared == valid
    try:
        checked_key(key)
    except Refused:
        taken = False
    else:
        taken = True
    assert taken == valid
