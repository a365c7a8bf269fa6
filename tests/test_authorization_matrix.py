"""Who may read and write what, for every URL of the project, in one table.

The URL resolver is walked: every named pattern of our own apps and of the API must have a row
in ``EXPECTED`` (a new URL without a row fails ``test_every_url_has_a_row``, naming it), and
every row is tried for every persona, once for reading (GET) and once for each write method the
pattern answers (POST, PUT, PATCH, DELETE), each its own test id.

A row names the object its URL is filled from (``TARGETS``: a private club and a public one, a
public competition with a closed, a published and a draft round, a private competition, a game
with a table link, another game of the same club, a finished game of the public club) and who
may read and write it, as a level relative to that object's club:

    anyone      everybody, signed in or not
    login       any signed-in account
    members     a role in the object's club (scorer, organizer, owner)
    managers    owner or organizer of the object's club
    owners      an owner of the object's club (no persona is one: all of them are refused)
    table       members, and the session that opened this game's table link with its PIN
    nobody      the method is not served (405)
    read-only   (writes) the URL writes nothing: a POST answers as a GET would, or 405

``known`` says who may know that the object exists (by default: who may read it). Allowed means
2xx/3xx (or 400 for a write with an empty body: it got past authorization). Refused means a 302
to the login page where the page needs a login, {401, 403} for an API caller without
credentials, 403 for a caller who knows the object and 404 for one who must not learn it exists.

Personas: ``anonymous``; ``member``, an account that plays in club A (a player of the club is
linked to it) but holds no role there; ``scorer`` and ``organizer`` of club A; ``other``, the
organizer of club B; ``table``, an anonymous session that opened the table link of club A's
game with its PIN.

The world is built once for the module inside a transaction that is rolled back at the end;
each test runs in its own savepoint, so a write that gets through changes nothing for the next.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient
from rest_framework.views import APIView

from circuits import services as circuit_services
from registration import services as registration_services
from scoring import services as scoring
from scoring.models import Game, Player, TableLink
from scoring.services import Actor
from teams.services import team_draw
from teams.services import teams as team_services
from tests.builders import join, new_club
from tournaments import services
from tournaments.models import Round
from tournaments.services import calls as call_services

#: Parts of the URL tree this matrix does not cover, each with its reason.
SKIPPED = {
    "admin": "Django's admin: staff accounts only, its own login and permissions",
    "set_language": "Django's language switch (i18n/): no object behind it",
    "api-schema": "the OpenAPI schema: public documentation, no data",
    "api-docs": "the API's documentation page: public, no data",
    "signup": "decided by the SIGNUP setting and an invitation's token (tests/scoring/test_signup.py)",
    "signup-verify": "the signed link is the authorization (tests/scoring/test_signup.py)",
    "password_reset_confirm": "Django's reset link: its token is the authorization",
    "invitation": "the invitation's token is the authorization (tests/scoring/test_members.py)",
    "unsubscribe": "the signed token is the authorization (tests/tournaments/test_results_mail.py)",
    "registration-link": "the registration link's token is the authorization "
    "(tests/tournaments/test_registration_api.py)",
    "registration-stream": "the registration link's token is the authorization "
    "(tests/tournaments/test_your_table.py)",
    "push-subscription": "a device's own subscription, for an account with a linked player, "
    "404 while Web Push is not configured (tests/scoring/test_push.py)",
}

PERSONAS = ["anonymous", "member", "scorer", "organizer", "other", "table"]
SIGNED_IN = {"member", "scorer", "organizer", "other"}
#: Roles of the personas, per club ("A" is private, "B" has public results).
ROLES = {"A": {"scorer": "scorer", "organizer": "organizer"}, "B": {"other": "organizer"}}
MANAGER_ROLES = {"owner", "organizer"}
WRITE_METHODS = ("post", "put", "patch", "delete")


@dataclass(frozen=True)
class Row:
    """Who may read (GET) and write one URL filled from ``target``."""

    target: str
    read: str
    write: str = "read-only"
    known: str | None = None
    #: A page behind ``login_required``: callers without an account are sent to log in.
    login: bool = False
    #: An API view that needs an account before it looks at anything (401/403 without one).
    auth: bool = False


def R(target, read, write="read-only", **flags) -> list[Row]:
    return [Row(target, read, write, **flags)]


PUBLIC_PAGE = R("competition", "anyone") + R("competition:private", "members")

EXPECTED: dict[str, list[Row]] = {
    # -- scoring pages ----------------------------------------------------------------------------
    "healthz": R("none", "anyone"),
    "home": R("none", "anyone"),
    "password_reset": R("none", "anyone", "anyone"),
    "password_reset_done": R("none", "anyone", "nobody"),
    "password_reset_complete": R("none", "anyone", "nobody"),
    "club-new": R("none", "login", "login", login=True),
    "my-games": R("none", "login", login=True),
    # The live streams (scoring/live/): read as the page they follow; a stream never sends to the
    # login page (an EventSource cannot follow it), it refuses.
    "my-stream": R("none", "login", "nobody"),
    "club-members": R("club:A", "managers", "managers", known="members", login=True)
    + R("club:B", "managers", "managers", known="members", login=True),
    "player-claim": R("club:A", "nobody", "members", known="members", login=True)
    + R("club:B", "nobody", "members", known="members", login=True),
    "login": R("none", "anyone", "anyone"),
    "logout": R("none", "nobody", "anyone"),
    "club": R("club:A", "members") + R("club:B", "anyone"),
    "club-settings": R("club:A", "owners", "owners", known="members", login=True)
    + R("club:B", "owners", "owners", known="members", login=True),
    "club-players": R("club:A", "members", "members") + R("club:B", "members", "members"),
    "player-active": R("club:A", "nobody", "managers", known="members")
    + R("club:B", "nobody", "managers", known="anyone"),
    "start-game": R("club:A", "members", "members", login=True)
    + R("club:B", "members", "members", known="anyone", login=True),
    "game": R("game:table", "table") + R("game:other", "members") + R("game:public", "anyone"),
    "game-live": R("game:table", "table") + R("game:public", "anyone"),
    "game-stream": R("game:table", "table", "nobody") + R("game:public", "anyone", "nobody"),
    "record-hand": R("game:table", "nobody", "table", known="table")
    + R("game:other", "nobody", "members", known="members")
    + R("game:public", "nobody", "members", known="anyone"),
    "hand": R("game:table", "table", "table")
    + R("game:other", "members", "members")
    + R("game:public", "anyone", "members"),
    "hand-answer": R("game:table", "nobody", "table", known="table")
    + R("game:other", "nobody", "members", known="members")
    + R("game:public", "nobody", "members", known="anyone"),
    "abandon-game": R("game:table", "nobody", "members", known="table")
    + R("game:public", "nobody", "members", known="anyone"),
    "game-export": R("game:table", "table") + R("game:public", "anyone"),
    # A seated phone reads its table's card (to let the next phone in), never renews the link.
    "table-card": R("game:table", "table", "managers", known="table")
    + R("game:public", "members", "managers", known="anyone"),
    "table-link": R("game:table", "anyone", "anyone"),
    "reopen-game": R("game:table", "nobody", "managers", known="table")
    + R("game:public", "nobody", "managers", known="anyone"),
    "lock-game": R("game:table", "nobody", "managers", known="table")
    + R("game:public", "nobody", "managers", known="anyone"),
    "club-players-bulk": R("club:A", "nobody", "managers", known="members", login=True)
    + R("club:B", "nobody", "managers", known="members", login=True),
    "player-email": R("club:A", "managers", "managers", known="members", login=True)
    + R("club:B", "managers", "managers", known="members", login=True),
    # Organizers set a player's tags on the player's page.
    "player": R("club:A", "members", "managers") + R("club:B", "anyone", "managers"),
    "leaderboard": R("club:A", "members") + R("club:B", "anyone"),
    "manifest": R("none", "anyone"),
    "service-worker": R("none", "anyone"),
    "favicon": R("none", "anyone"),
    "game-board": R("game:table", "table") + R("game:public", "anyone"),
    "game-board-live": R("game:table", "table") + R("game:public", "anyone"),
    "undo-hand": R("game:table", "nobody", "table", known="table")
    + R("game:other", "nobody", "members", known="members")
    + R("game:public", "nobody", "members", known="anyone"),
    "rematch": R("game:table", "nobody", "members", known="table", login=True)
    + R("game:public", "nobody", "members", known="anyone", login=True),
    # -- competition pages ------------------------------------------------------------------------
    "competition-new": R("club:A", "managers", "managers", known="members", login=True)
    + R("club:B", "managers", "managers", known="anyone", login=True),
    "competition": R("competition", "members", "managers", known="anyone", login=True)
    + R("competition:private", "members", "managers", login=True),
    "competition-entries": R("competition", "members", "managers", known="anyone", login=True)
    + R("competition:private", "members", "managers", login=True),
    "round": R("round:draft", "members", "managers", known="anyone", login=True)
    + R("round:published", "members", "managers", known="anyone", login=True)
    + R("round:closed", "members", "managers", known="anyone", login=True),
    "round-cards": R("round:published", "managers", known="anyone", login=True),
    "competition-settings": R("competition", "managers", "managers", known="anyone", login=True)
    + R("competition:private", "managers", "managers", known="members", login=True),
    "round-sheets": R("round:published", "managers", known="anyone", login=True),
    # The desk's books: organizers only, reads too.
    "competition-desk": R("competition", "managers", "managers", known="anyone", login=True)
    + R("competition:private", "managers", "managers", known="members", login=True),
    "competition-desk-stream": R("competition", "managers", "nobody", known="anyone")
    + R("competition:private", "managers", "nobody", known="members"),
    "competition-cash-report": R("competition", "managers", known="anyone", login=True)
    + R("competition:private", "managers", known="members", login=True),
    "competition-cash-csv": R("competition", "managers", known="anyone", login=True)
    + R("competition:private", "managers", known="members", login=True),
    "competition-prizes": R("competition", "members", "managers", known="anyone", login=True)
    + R("competition:private", "members", "managers", login=True),
    "competition-results-sheet": R("competition", "members", known="anyone", login=True)
    + R("competition:private", "members", login=True),
    "public-competition": PUBLIC_PAGE,
    "public-standings": PUBLIC_PAGE,
    "competition-stream": R("competition", "anyone", "nobody")
    + R("competition:private", "members", "nobody"),
    "public-round": R("round:draft", "managers")
    + R("round:published", "anyone")
    + R("round:closed", "anyone"),
    "public-where": PUBLIC_PAGE,
    "public-projector": PUBLIC_PAGE,
    "public-bracket": PUBLIC_PAGE,
    "public-entry": PUBLIC_PAGE,
    "public-standings-how": PUBLIC_PAGE,
    "public-timer": PUBLIC_PAGE,
    "public-calendar": PUBLIC_PAGE,
    "public-standings-csv": PUBLIC_PAGE,
    # Registration (issue 24): the organizer's page and posters, the public form and check-in.
    "competition-registration": R("competition", "managers", "managers", known="anyone", login=True)
    + R("competition:private", "managers", "managers", known="members", login=True),
    "registration-poster": R("competition", "managers", known="anyone", login=True),
    "registration-check-in-poster": R("competition", "managers", known="anyone", login=True),
    "registration-register": R("competition", "anyone", "anyone")
    + R("competition:private", "members", "members"),
    "registration-check-in": R("competition", "anyone", "login")
    + R("competition:private", "members", "members"),
    # -- scoring API ------------------------------------------------------------------------------
    "api-token": R("none", "nobody", "anyone"),
    "api-clubs": R("none", "anyone"),
    "api-rulesets": R("none", "anyone"),
    "api-club": R("club:A", "members", "owners") + R("club:B", "anyone", "owners"),
    "api-club-games": R("club:A", "members", "members") + R("club:B", "anyone", "members"),
    "api-game": R("game:table", "table") + R("game:other", "members") + R("game:public", "anyone"),
    "api-game-stream": R("game:table", "table", "nobody")
    + R("game:other", "members", "nobody")
    + R("game:public", "anyone", "nobody"),
    "api-game-export": R("game:table", "table") + R("game:public", "anyone"),
    "api-game-hands": R("game:table", "nobody", "table", known="table")
    + R("game:other", "nobody", "members", known="members")
    + R("game:public", "nobody", "members", known="anyone"),
    "api-game-hand": R("game:table", "table", "table")
    + R("game:other", "members", "members")
    + R("game:public", "anyone", "members"),
    "api-game-corrections": R("game:table", "nobody", "table", known="table")
    + R("game:public", "nobody", "members", known="anyone"),
    "api-game-hand-accept": R("game:table", "nobody", "table", known="table")
    + R("game:public", "nobody", "members", known="anyone"),
    "api-game-hand-reject": R("game:table", "nobody", "table", known="table")
    + R("game:public", "nobody", "members", known="anyone"),
    "api-game-abandon": R("game:table", "nobody", "members", known="table", auth=True)
    + R("game:public", "nobody", "members", known="anyone", auth=True),
    "api-game-audit": R("game:table", "table") + R("game:public", "members"),
    "api-game-reopen": R("game:table", "nobody", "managers", known="table", auth=True)
    + R("game:public", "nobody", "managers", known="anyone", auth=True),
    "api-game-lock": R("game:table", "nobody", "managers", known="table", auth=True)
    + R("game:public", "nobody", "managers", known="anyone", auth=True),
    "api-club-ratings": R("club:A", "members") + R("club:B", "anyone"),
    "api-club-leaderboard": R("club:A", "members") + R("club:B", "anyone"),
    "api-player": R("club:A", "members") + R("club:B", "anyone"),
    "api-players-bulk": R("club:A", "nobody", "managers", known="members")
    + R("club:B", "nobody", "managers", known="anyone"),
    "api-player-email": R("club:A", "managers", "managers", known="members")
    + R("club:B", "managers", "managers", known="anyone"),
    # -- competition API --------------------------------------------------------------------------
    "api-club-competitions": R("club:A", "anyone", "managers") + R("club:B", "anyone", "managers"),
    "api-competition": R("competition", "anyone", "managers")
    + R("competition:private", "members", "managers"),
    "api-competition-stream": R("competition", "anyone", "nobody")
    + R("competition:private", "members", "nobody"),
    "api-competition-entry-reinstate": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-competition-season": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-competition-entries": R("competition", "anyone", "managers")
    + R("competition:private", "members", "managers"),
    "api-competition-entry-withdraw": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-competition-rounds": R("competition", "anyone", "managers")
    + R("competition:private", "members", "managers"),
    "api-competition-round": R("round:draft", "members", "managers")
    + R("round:published", "anyone", "managers"),
    "api-round-check-ins": R("round:draft", "nobody", "managers", known="members")
    + R("round:published", "nobody", "managers", known="anyone"),
    "api-round-generate": R("round:draft", "nobody", "managers", known="members"),
    "api-round-swap": R("round:draft", "nobody", "managers", known="members")
    + R("round:published", "nobody", "managers", known="anyone"),
    "api-round-replace": R("round:published", "nobody", "managers", known="anyone"),
    "api-round-redraw": R("round:published", "nobody", "managers", known="anyone"),
    "api-round-unpublish": R("round:published", "nobody", "managers", known="anyone"),
    "api-round-move": R("round:draft", "nobody", "managers", known="members")
    + R("round:published", "nobody", "managers", known="anyone"),
    # The round's clock and the director's calls (issue 37): the table's readers see them, its
    # phones and scorers call, the organizers answer and set the clock.
    # (The playing table's game is of a public competition: anyone reads it.)
    "table-call": R("table:playing", "anyone", "members"),
    "table-clock": R("table:playing", "anyone", "nobody"),
    "api-game-call": R("table:playing", "anyone", "members"),
    "api-game-clock": R("table:playing", "anyone", "nobody"),
    "director-calls": R("competition", "members", known="anyone"),
    "director-call-answer": R("competition", "nobody", "managers", known="anyone"),
    "api-calls": R("competition", "members", "nobody", known="members"),
    "api-call-answer": R("competition", "nobody", "managers", known="members"),
    "round-clock": R("round:published", "nobody", "managers", known="anyone"),
    "api-round-clock": R("round:published", "nobody", "managers", known="anyone"),
    "api-table-extra-time": R("round:published", "nobody", "managers", known="anyone"),
    "api-round-publish": R("round:draft", "nobody", "managers", known="members"),
    "api-round-close": R("round:draft", "nobody", "managers", known="members")
    + R("round:published", "nobody", "managers", known="anyone"),
    "api-round-reopen": R("round:closed", "nobody", "managers", known="anyone"),
    "api-table-forfeit": R("round:published", "nobody", "managers", known="anyone"),
    "api-competition-standings": PUBLIC_PAGE,
    "api-competition-finalize": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-competition-reopen": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-schedule-preview": R("none", "nobody", "login", auth=True),
    # -- circuits (club A organizes; B takes part in "circuit", is only invited to the other) ----
    "club-circuits": R("club:A", "members", "managers", login=True)
    + R("club:B", "members", "managers", login=True),
    "circuit": R("circuit", "members", "managers", login=True),
    "public-circuit": R("circuit", "anyone"),
    "circuit-stream": R("circuit", "anyone", "nobody"),
    "public-circuit-projector": R("circuit", "anyone"),
    "public-circuit-csv": R("circuit", "anyone"),
    "api-club-circuits": R("club:A", "anyone", "managers") + R("club:B", "anyone", "managers"),
    "api-circuit": R("circuit", "anyone", "managers"),
    "api-circuit-clubs": R("circuit", "nobody", "managers", known="anyone"),
    "api-circuit-club-accept": R("circuit:guest", "nobody", "managers", known="anyone"),
    "api-circuit-club-leave": R("circuit:guest", "nobody", "managers", known="anyone"),
    "api-circuit-competitions": R("circuit:invited", "nobody", "managers", known="anyone"),
    "api-circuit-competition": R("circuit", "nobody", "managers", known="anyone"),
    "api-circuit-links": R("circuit", "nobody", "managers", known="anyone"),
    "api-circuit-link": R("circuit", "nobody", "managers", known="anyone"),
    "api-circuit-standings": R("circuit", "anyone"),
    # -- competitions between teams ---------------------------------------------------------------
    "competition-teams": R("teams", "members", "managers", known="anyone", login=True),
    "competition-team": R("teams", "members", "managers", known="anyone", login=True),
    "competition-team-match": R("teams", "members", "managers", known="anyone", login=True),
    "public-team-standings": R("teams", "anyone"),
    "api-team-rules": R("teams", "anyone", "managers"),
    "api-teams": R("teams", "anyone", "managers"),
    "api-team-roster": R("teams", "nobody", "managers", known="anyone"),
    "api-team-matches": R("teams", "anyone", "managers"),
    "api-team-match": R("teams", "anyone"),
    "api-team-match-lineup": R("teams", "nobody", "managers", known="anyone"),
    "api-team-match-confirm": R("teams", "nobody", "managers", known="anyone"),
    "api-team-round-schedule": R("teams", "nobody", "managers", known="anyone"),
    "api-team-match-schedule": R("teams", "nobody", "managers", known="anyone"),
    "api-team-standings": R("teams", "anyone"),
    # Registration (issue 24): the links' tokens in the body are the authorization.
    "api-registration": R("competition", "anyone", "managers")
    + R("competition:private", "members", "managers"),
    "api-registration-close": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-registrations": R("competition", "managers", "anyone", known="anyone")
    + R("competition:private", "managers", "members", known="members"),
    "api-registration-withdraw": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-registration-promote": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-registration-confirm-partner": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-registration-merge": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-waiting-list": R("competition", "managers", "managers", known="anyone")
    + R("competition:private", "managers", "managers", known="members"),
    "api-round-self-check-in": R("round:draft", "managers", "managers", known="members")
    + R("round:published", "managers", "managers", known="anyone"),
    "api-registration-confirm": R("none", "nobody", "anyone"),
    "api-registration-withdraw-by-link": R("none", "nobody", "anyone"),
    "api-registration-check-in": R("none", "nobody", "anyone"),
    # The desk's books: organizers only, reads too.
    "api-competition-fee": R("competition", "managers", "managers", known="anyone")
    + R("competition:private", "managers", "managers", known="members"),
    "api-competition-payments": R("competition", "managers", known="anyone")
    + R("competition:private", "managers", known="members"),
    "api-cash-report": R("competition", "managers", known="anyone")
    + R("competition:private", "managers", known="members"),
    "api-entry-payment": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-entry-payment-undo": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-competition-prizes": R("competition", "anyone", "managers")
    + R("competition:private", "members", "managers"),
    "api-competition-prize": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    "api-prize-rules": R("competition", "nobody", "managers", known="anyone")
    + R("competition:private", "nobody", "managers", known="members"),
    # The prizes won: the club's members until the results are final (these are not).
    "api-competition-awards": R("competition", "members") + R("competition:private", "members"),
}


# -- the URL tree -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Url:
    name: str
    callback: Any
    api: bool
    #: The URL's arguments, filled from the row's target.
    keys: tuple[str, ...]

    def methods(self) -> list[str]:
        """The write methods this pattern answers: an API view's handlers, POST for a page."""
        cls = getattr(self.callback, "cls", None)
        if cls is not None and issubclass(cls, APIView):
            return [m for m in WRITE_METHODS if hasattr(cls, m)]
        return ["post"]


def _walk(patterns, prefix: str = "") -> list[tuple[str, URLPattern]]:
    found = []
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            found.extend(_walk(pattern.url_patterns, route))
        else:
            found.append((route, pattern))
    return found


def _walk_keys(resolver, name: str) -> list[str]:
    """The keyword arguments of the named URL, as the resolver reverses it."""
    return list(resolver.reverse_dict.getlist(name)[0][0][0][1])


def _project_urls() -> dict[str, Url]:
    urls: dict[str, Url] = {}
    for route, pattern in _walk(get_resolver().url_patterns):
        if route.startswith("admin/") or pattern.name in SKIPPED:
            continue
        assert pattern.name, f"an unnamed URL pattern: {route} (name it and give it a row)"
        keys = tuple(_walk_keys(get_resolver(), pattern.name))
        urls[pattern.name] = Url(pattern.name, pattern.callback, route.startswith("api/"), keys)
    return urls


URLS = _project_urls()


def test_every_url_has_a_row():
    missing = sorted(set(URLS) - set(EXPECTED))
    assert not missing, f"URLs with no row in EXPECTED (decide who may use them): {missing}"


def test_every_row_is_a_url():
    assert not sorted(set(EXPECTED) - set(URLS))


def _cases():
    for name in sorted(set(URLS) & set(EXPECTED)):
        url = URLS[name]
        for row in EXPECTED[name]:
            for persona in PERSONAS:
                for method in ["get", *url.methods()]:
                    yield pytest.param(
                        name, row, persona, method, id=f"{name}[{row.target}]-{persona}-{method}"
                    )


# -- the world --------------------------------------------------------------------------------


def _build() -> dict[str, Any]:
    User = get_user_model()
    users = {
        name: User.objects.create_user(name)
        for name in ("olga", "oscar", "sara", "bea", "ugo", "mario")
    }
    club_a = new_club(users["olga"], name="Circolo Uno", slug="uno")
    join(club_a, users["oscar"], "organizer")
    join(club_a, users["sara"], "scorer")
    club_b = new_club(users["bea"], name="Circolo Due", slug="due", results_public=True)
    join(club_b, users["ugo"], "organizer")
    by_a, by_b = Actor.for_user(users["olga"]), Actor.for_user(users["bea"])
    a_players = [
        scoring.add_player(club=club_a, display_name=n, by=by_a) for n in ("Anna", "Bruno", "Carla")
    ]
    Player.objects.create(club=club_a, display_name="Mario", user=users["mario"])
    b_players = [
        scoring.add_player(club=club_b, display_name=n, by=by_b)
        for n in ("Elena", "Franco", "Gina")
    ]
    hand = {
        "dealer": 0,
        "outcome": "played",
        "soloist": 1,
        "contract": "chiamo",
        "soloist_points": 5,
    }
    win = {
        "dealer": 1,
        "outcome": "played",
        "soloist": 2,
        "contract": "scegliete",
        "soloist_points": 8,
    }

    def game(club, players, by, hands):
        g = scoring.start_game(club=club, ruleset="terziglio", players=players, by=by)
        for document in hands:
            scoring.record_hand(game=g, document=document, by=by)
        return Game.objects.get(pk=g.pk)

    table_game = game(club_a, a_players, by_a, [hand])
    other_game = game(club_a, a_players, by_a, [hand])
    public_game = game(club_b, b_players, by_b, [hand, win])
    assert public_game.status == "finished"

    competition = services.create_competition(
        club=club_a, by=by_a, name="Torneo", rulesets=["terziglio"], planned_rounds=3
    )
    private = services.create_competition(
        club=club_a, by=by_a, name="Interno", rulesets=["terziglio"], public=False
    )
    entries = [
        services.add_entry(competition=competition, player=n, by=by_a)
        for n in ("Anna", "Bruno", "Carla")
    ]
    services.add_entry(competition=private, player="Anna", by=by_a)
    # Registration open on both, one registration each (issue 24).
    registrations = {}
    for open_on in (competition, private):
        registration_services.set_registration(
            competition=open_on,
            by=by_a,
            opens_at=timezone.now() - timedelta(days=1),
            closes_at=timezone.now() + timedelta(days=1),
            capacity=10,
        )
        registrations[open_on.pk] = registration_services.register(
            competition=open_on, by=Actor(), name="Zoe", email="zoe@example.org"
        ).pk
    prizes = {
        c.pk: services.add_prize(competition=c, rank=1, amount_cents=100, by=by_a).pk
        for c in (competition, private)
    }
    for _ in range(3):
        services.add_round(competition=competition, by=by_a)
    rounds = {r.number: r for r in Round.objects.filter(competition=competition)}
    services.generate_round(round_=rounds[1], by=by_a)
    for number in (1, 2):
        round_ = Round.objects.get(pk=rounds[number].pk)
        services.publish_round(round_=round_, by=by_a)
    closing = Round.objects.get(pk=rounds[1].pk)
    played = closing.tables.get().game
    for document in (hand, win):
        scoring.record_hand(game=played, document=document, by=by_a)
    services.close_round(round_=Round.objects.get(pk=rounds[1].pk), by=by_a)
    published_table = Round.objects.get(pk=rounds[2].pk).tables.get()
    call = call_services.call_director(table=published_table, by=by_a, reason="rules")
    team_match = _team_competition(club_a, by_a)

    def game_target(g):
        return {
            "club": {"uno": "A", "due": "B"}[g.club.slug],
            "game": g.pk,
            "game_id": g.pk,
            "number": 1,
            "token": TableLink.objects.get(game=g).token,
        }

    circuit = circuit_services.create_circuit(club=club_a, by=by_a, name="Circuito")
    circuit_services.invite_club(circuit=circuit, by=by_a, club=club_b)
    circuit_services.accept_invitation(circuit=circuit, by=by_b, club=club_b)
    circuit_services.add_competition(circuit=circuit, by=by_a, competition=competition)
    link = circuit_services.link_players(circuit=circuit, by=by_a, a=a_players[0], b=b_players[0])
    invited = circuit_services.create_circuit(club=club_a, by=by_a, name="Invito")
    circuit_services.invite_club(circuit=invited, by=by_a, club=club_b)

    competition_kwargs = {
        "club": "A",
        "club_slug": "uno",
        "slug": competition.slug,
        "competition_id": competition.pk,
        "entry_id": entries[0].pk,
        "registration_id": registrations[competition.pk],
        "prize_id": prizes[competition.pk],
        "call_id": call.pk,
    }
    targets = {
        "none": {"club": None},
        "club:A": {"club": "A", "slug": "uno", "player_id": a_players[0].pk},
        "club:B": {"club": "B", "slug": "due", "player_id": b_players[0].pk},
        "game:table": game_target(table_game),
        "game:other": game_target(other_game),
        "game:public": game_target(public_game),
        "table:playing": {"club": "A", "game_id": published_table.game_id, "number": 1},
        "competition": competition_kwargs,
        "competition:private": {
            "club": "A",
            "club_slug": "uno",
            "slug": private.slug,
            "competition_id": private.pk,
            "entry_id": private.entries.get().pk,
            "registration_id": registrations[private.pk],
            "prize_id": prizes[private.pk],
        },
        "teams": {
            "club": "A",
            "club_slug": "uno",
            "slug": team_match.competition.slug,
            "competition_id": team_match.competition_id,
            "team_id": team_match.home_id,
            "match_id": team_match.pk,
            "round_number": team_match.round_number,
        },
        "round:closed": competition_kwargs | {"number": 1},
        "round:published": competition_kwargs
        | {"number": 2, "table_id": published_table.pk, "table": published_table.number},
        "round:draft": competition_kwargs | {"number": 3},
        "circuit": {
            "club": "A",
            "club_slug": "uno",
            "slug": circuit.slug,
            "circuit_id": circuit.pk,
            "competition_id": competition.pk,
            "link_id": link.pk,
        },
        "circuit:invited": {
            "club": "A",
            "club_slug": "uno",
            "slug": invited.slug,
            "circuit_id": invited.pk,
        },
        "circuit:guest": {"club": "B", "club_slug": "due", "circuit_id": invited.pk},
    }
    assert [r.status for r in Round.objects.filter(competition=competition).order_by("number")] == [
        "closed",
        "published",
        "draft",
    ]
    assert Round.objects.get(competition=competition, number=3).tables.exists()  # a drawn draft
    return {
        "users": users,
        "targets": targets,
        "table_link": TableLink.objects.get(game=table_game),
    }


def _team_competition(club, by):
    """A public palio of two teams with one drawn match (the ``teams`` target)."""
    palio = services.create_competition(
        club=club, by=by, name="Palio", rulesets=["briscola"], format="round_robin"
    )
    team_services.set_team_rules(competition=palio, by=by, boards=1)
    for name in ("Borgo", "Castello"):
        roster = [scoring.new_player(club, f"{name} {i}").pk for i in (1, 2)]
        team_services.add_team(competition=palio, name=name, players=roster, by=by)
    (match,) = team_draw.draw_team_round(competition=palio, by=by)
    return match


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with (
        django_db_blocker.unblock(),
        override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
    ):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = _build()
            # Sessions and validators made once: each test's writes are rolled back.
            built["clients"] = {persona: _client(built, persona) for persona in PERSONAS}
            built["etags"] = {
                key: _etag(built, target)
                for key, target in built["targets"].items()
                if key.startswith("game:")
            } | {
                key: _round_etag(built, target)
                for key, target in built["targets"].items()
                if key.startswith("round:")
            }
            yield built
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def _client(built, persona: str) -> APIClient:
    client = APIClient()
    user = {"member": "mario", "scorer": "sara", "organizer": "oscar", "other": "ugo"}.get(persona)
    if user is not None:
        client.force_login(built["users"][user])
    if persona == "table":
        link = built["table_link"]
        response = client.post(reverse("table-link", args=[link.token]), {"pin": link.pin})
        assert response.status_code == 302, "the table link with its PIN opens the game"
    return client


def _etag(built, target) -> str:
    """A hand's validator as the API gives it (read by its club's owner)."""
    client = APIClient()
    client.force_authenticate(built["users"]["olga" if target["club"] == "A" else "bea"])
    path = reverse("api-game-hand", kwargs={"game_id": target["game_id"], "number": 1})
    return client.get(path)["ETag"]


def _round_etag(built, target) -> str:
    """A round's validator as the API gives it (read by its club's owner): deleting a round
    needs it."""
    client = APIClient()
    client.force_authenticate(built["users"]["olga"])
    kwargs = {"competition_id": target["competition_id"], "number": target["number"]}
    return client.get(reverse("api-competition-round", kwargs=kwargs))["ETag"]


# -- expectations -----------------------------------------------------------------------------


def who(level: str, target: dict[str, Any]) -> set[str]:
    roles = ROLES.get(target["club"], {})
    members = set(roles)
    if level == "anyone":
        return set(PERSONAS)
    if level == "login":
        return set(SIGNED_IN)
    if level == "members":
        return members
    if level == "managers":
        return {p for p, role in roles.items() if role in MANAGER_ROLES}
    if level == "owners":
        return {p for p, role in roles.items() if role == "owner"}
    if level == "table":
        return members | {"table"}
    if level in ("nobody", "read-only"):
        return set()
    raise AssertionError(f"unknown level {level!r}")


def expected(
    url: Url, row: Row, target: dict[str, Any], persona: str, method: str
) -> tuple[str, set[int] | None]:
    """("allowed", None) or ("refused", the statuses that say so)."""
    level = row.read if method == "get" else row.write
    signed_in = persona in SIGNED_IN
    if row.auth and not signed_in:
        return "refused", {401, 403}
    if level == "nobody":
        return "refused", {405}
    if level == "read-only":
        if url.api:
            return "refused", {405}
        kind, codes = expected(url, row, target, persona, "get")
        return kind, None if codes is None else codes | {405}
    if persona in who(level, target):
        return "allowed", None
    known = persona in who(row.known or row.read, target)
    if row.login and not signed_in:
        return "refused", {302}
    if url.api and not signed_in and (row.auth or known):
        return "refused", {401, 403}
    return "refused", {403} if known else {404}


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "row", "persona", "method"), list(_cases()))
def test_authorization(world, name, row, persona, method):
    url = URLS[name]
    target = world["targets"][row.target]
    path = reverse(name, kwargs={k: target[k] for k in url.keys})
    client = world["clients"][persona]
    headers = {}
    if method in ("put", "delete") and url.api and row.target in world["etags"]:
        headers["HTTP_IF_MATCH"] = world["etags"][row.target]  # hands, rounds need a precondition
    cookies = copy.deepcopy(client.cookies)  # logging out must not sign the persona out for good
    send = getattr(client, method)
    response = (
        send(path, format="json", **headers)
        if url.api and method != "get"
        else send(path, **headers)
    )
    kind, codes = expected(url, row, target, persona, method)
    status = response.status_code
    client.cookies = cookies
    if kind == "allowed":
        # A write let through may still be refused by its values (400) or by the data's state
        # (409: e.g. no table of the round left to draw again): neither is an access answer.
        ok = 200 <= status < 400 or (method != "get" and status in (400, 409))
        assert ok, f"{persona} {method.upper()} {path}: expected allowed, got {status}"
    else:
        assert status in codes, (
            f"{persona} {method.upper()} {path}: expected {sorted(codes)}, got {status}"
        )
        if status == 302:
            assert response["Location"].startswith(reverse("login"))
