"""Helpers shared by the competition API tests (test_api_*.py): the error fields of an answer,
seats of a round answer, the competition URLs."""

from __future__ import annotations


def fields(response) -> set[tuple[str | None, str]]:
    """(field, code) of every error; every error also has a hand (None) and a message."""
    errors = response.json()["errors"]
    assert all(set(e) >= {"hand", "field", "code", "message"} and e["message"] for e in errors)
    return {(e["field"], e["code"]) for e in errors}


def seats(response) -> list[list[int]]:
    """Entry ids of each table of a round answer, in seat order."""
    return [[s["entry"] for s in t["seats"]] for t in response.json()["tables"]]


def url(competition, rest: str = "") -> str:
    return f"/api/v1/competitions/{competition.pk}/{rest}"
