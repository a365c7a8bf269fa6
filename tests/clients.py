"""Clients and page readers for the database tests: plain helpers, importable by any test module
(a conftest is not meant to be imported), used by the conftests' fixtures too."""

import re

from django.test import Client
from rest_framework.test import APIClient

from scoring.models import TableLink


def api_as(user):
    """An API client authenticated as ``user``, or anonymous when ``user`` is None."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def login(user) -> Client:
    """A page client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def with_pin(game) -> Client:
    """A phone let in to ``game`` by its table link and PIN."""
    client = Client()
    link = TableLink.objects.get(game=game)
    assert client.post(f"/t/{link.token}/", {"pin": link.pin}).status_code == 302
    return client


def field_error(html: str, name: str) -> str | None:
    """The error shown next to the form field ``name``: the ``.error`` inside its own block (up
    to the next field's block), or None."""
    marker = f'data-field="{name}"'
    if marker not in html:
        return None
    block = html.split(marker, 1)[1].split("data-field=", 1)[0]
    match = re.search(r'<p class="error"[^>]*>(.*?)</p>', block, re.S)
    return match.group(1) if match else None
