"""API clients for the database tests: a plain helper, importable by any test module (a
conftest is not meant to be imported), and used by the root conftest's ``api`` fixture."""

from rest_framework.test import APIClient


def api_as(user):
    """An API client authenticated as ``user``, or anonymous when ``user`` is None."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
