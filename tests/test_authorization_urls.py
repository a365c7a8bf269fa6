"""Every URL of the project has a row in the authorization matrix, and every row is a URL
(the matrix itself: test_authorization_matrix.py)."""

from __future__ import annotations

from tests.authorization_helpers import EXPECTED, URLS


def test_every_url_has_a_row():
    missing = sorted(set(URLS) - set(EXPECTED))
    assert not missing, f"URLs with no row in EXPECTED (decide who may use them): {missing}"


def test_every_row_is_a_url():
    assert not sorted(set(EXPECTED) - set(URLS))
