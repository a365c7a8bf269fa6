"""Browser hardening (issue 22, point 10): the Content-Security-Policy header, CSRF for table-link
sessions on the API, and request bodies refused by their announced size before being read.
(tests/browser/test_csp.py loads every page in Chromium under the policy.)"""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from django.core import mail
from django.test import Client

from config.asgi import application as asgi_application
from scoring.models import Hand, TableLink

pytestmark = pytest.mark.django_db

HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}


def test_pages_and_api_answers_carry_the_policy(terziglio):
    for url in ("/", "/login/", "/api/v1/rulesets/"):
        policy = Client().get(url)["Content-Security-Policy"]
        directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ")}
        assert directives["default-src"] == ["'self'"]
        assert directives["script-src"] == ["'self'"]
        assert directives["style-src"] == ["'self'"]
        assert directives["img-src"] == ["'self'", "data:"]
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["form-action"] == ["'self'"]
        assert directives["base-uri"] == ["'self'"]
        assert directives["object-src"] == ["'none'"]


# -- a table link held in a session cookie needs the CSRF token on the API -----------------------


def _table_phone(terziglio) -> Client:
    link = TableLink.objects.get(game=terziglio)
    phone = Client(enforce_csrf_checks=True)
    page = phone.get(f"/t/{link.token}/")
    token = page.cookies["csrftoken"].value
    opened = phone.post(f"/t/{link.token}/", {"pin": link.pin, "csrfmiddlewaretoken": token})
    assert opened.status_code == 302
    return phone


def test_a_foreign_origin_cannot_write_with_a_table_link_cookie(terziglio):
    phone = _table_phone(terziglio)
    response = phone.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        json.dumps(HAND),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
        HTTP_ORIGIN="https://evil.example",
    )
    assert response.status_code == 403
    assert "CSRF" in response.json()["errors"][0]["message"]
    assert not Hand.objects.filter(game=terziglio).exists()


def test_the_table_phone_with_its_csrf_token_still_writes(terziglio):
    phone = _table_phone(terziglio)
    assert phone.get(f"/api/v1/games/{terziglio.pk}/").status_code == 200  # reads need none
    response = phone.post(
        f"/api/v1/games/{terziglio.pk}/hands/",
        json.dumps(HAND),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k1",
        HTTP_X_CSRFTOKEN=phone.cookies["csrftoken"].value,
        HTTP_ORIGIN="http://testserver",
    )
    assert response.status_code == 201
    assert Hand.objects.filter(game=terziglio).count() == 1


# -- bodies over REQUEST_MAX_BYTES are refused before they are read -------------------------------


class Unreadable(io.BytesIO):
    """A request body that fails the test if anyone reads it."""

    def read(self, *args):
        raise AssertionError("the body was read")

    readline = read


def _announce(client: Client, path: str, length: int, content_type: str):
    return client.generic(
        "POST",
        path,
        b"",
        content_type=content_type,
        CONTENT_LENGTH=str(length),
        **{"wsgi.input": Unreadable()},
    )


def test_a_100_mb_upload_to_the_password_reset_is_413_unread(olga):
    olga.email = "olga@example.com"
    olga.save()
    response = _announce(
        Client(), "/password-reset/", 100 * 1024 * 1024, "multipart/form-data; boundary=x"
    )
    assert response.status_code == 413
    assert "too large" in response.content.decode()
    assert mail.outbox == []


def test_an_oversized_api_body_is_413_in_the_error_shape_unread(terziglio, api):
    response = _announce(
        Client(), f"/api/v1/games/{terziglio.pk}/hands/", 10**9, "application/json"
    )
    assert response.status_code == 413
    assert response.json()["errors"][0]["code"] == "too_large"


def _asgi(body_parts: list[bytes], content_length: int | None) -> tuple[int, bool]:
    """Runs one POST to /password-reset/ through the ASGI application; its status, and whether
    the body was read to its end."""
    headers = [(b"host", b"testserver"), (b"content-type", b"application/x-www-form-urlencoded")]
    if content_length is not None:
        headers.append((b"content-length", str(content_length).encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/password-reset/",
        "raw_path": b"/password-reset/",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    parts = list(body_parts)
    sent = []

    async def receive():
        if not parts:
            return {"type": "http.disconnect"}
        body = parts.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(parts)}

    async def send(message):
        sent.append(message)

    asyncio.run(asgi_application(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], not parts


def test_a_streamed_body_over_the_limit_is_cut_short_under_asgi(settings):
    chunk = b"x" * 65536
    status, read_all = _asgi([chunk] * 200, content_length=None)  # 13 MB, no length announced
    assert status == 413 and not read_all
    status, _ = _asgi([chunk], content_length=100 * 1024 * 1024)
    assert status == 413
