"""The authorization matrix (test_authorization_matrix.py, test_authorization_urls.py): the
personas, ``EXPECTED`` (one row per URL: who may read, write and know its object, the levels
explained in test_authorization_matrix.py), and the URL tree of the project it must cover."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.views import APIView

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
    #: Write methods whose level is not ``write``: ``(("delete", "login"),)``.
    by_method: tuple[tuple[str, str], ...] = ()

    def level(self, method: str) -> str:
        """Who may call ``method`` (``get``: ``read``)."""
        if method == "get":
            return self.read
        return dict(self.by_method).get(method, self.write)


def R(target, read, write="read-only", **flags) -> list[Row]:
    return [Row(target, read, write, **flags)]


PUBLIC_PAGE = R("competition", "anyone") + R("competition:private", "members")
GET_ONLY_PAGE = R("competition", "anyone", "nobody") + R("competition:private", "members", "nobody")

EXPECTED: dict[str, list[Row]] = {
    # -- scoring pages ----------------------------------------------------------------------------
    "healthz": R("none", "anyone"),
    "home": R("none", "anyone"),
    "password_reset": R("none", "anyone", "anyone"),
    "password_reset_done": R("none", "anyone", "nobody"),
    "password_reset_complete": R("none", "anyone", "nobody"),
    "club-new": R("none", "login", "login", login=True),
    "my-games": R("none", "login", login=True),
    "my-token": R("none", "login", "login", login=True),
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
    # Issue 35: who beat whom, and the results picture (a round's once it is closed).
    # They answer GET (and HEAD) only: 405 to any write.
    "public-head-to-head": GET_ONLY_PAGE,
    "results-picture": GET_ONLY_PAGE,
    "round-picture": R(
        "round:closed", "anyone", "nobody"
    ),  # a round not closed: 404 (test_results_picture)
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
    # Anyone asks for a token with a password; its DELETE revokes the caller's own.
    "api-token": R("none", "nobody", "anyone", by_method=(("delete", "login"),)),
    # Any account starts a club (and becomes its owner).
    "api-clubs": R("none", "anyone", "login"),
    # The club's players, as its Players page: its members read and add them.
    "api-players": R("club:A", "members", "members")
    + R("club:B", "members", "members", known="anyone"),
    "api-club-invitations": R("club:A", "managers", "managers", known="members")
    + R("club:B", "managers", "managers", known="anyone"),
    "api-club-invitation": R("club:A", "nobody", "managers", known="members"),
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
    "api-head-to-head": PUBLIC_PAGE,
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
    "api-mixed-team-standings": R("teams:mixed", "anyone"),
    "api-team-head-to-head": R("teams", "anyone"),
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
