"""The Content-Security-Policy (issue 22, point 10): every kind of page carries it, and Chromium
reports no violation on any of them.

The demo club (games of every kind, a finished tournament, a running league) is crawled as its
owner: from the home page every link of this site is followed, at most ``PER_KIND`` pages per
URL name, so every template is reached without listing ids by hand; then the pages a stranger
sees (log in, sign up, password reset, a table link, the public league) in a fresh browser. A
page fails on a ``securitypolicyviolation`` event, a console line about the policy, or an
answer without the policy header.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import Resolver404, resolve, reverse
from playwright.sync_api import Error as PlaywrightError

from scoring.links import unsubscribe_token
from scoring.models import Game
from tournaments.models import Competition

from .conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Pages of one URL name visited (the first ones found): the same template with other data.
PER_KIND = 2
#: Every kind of page the crawl must have reached (a link removed from the pages, or a page
#: kind added without a link, shows here).
REQUIRED_KINDS = {
    "home",
    "club",
    "club-players",
    "player-email",
    "unsubscribe",
    "club-members",
    "player",
    "leaderboard",
    "start-game",
    "game",
    "hand",
    "table-card",
    "game-board",
    "my-games",
    "competition",
    "round",
    "public-competition",
    "competition-desk",
    "competition-cash-report",
    "competition-prizes",
    "competition-results-sheet",
    "api-docs",
    "admin:index",
    "admin:scoring_game_changelist",
    "admin:scoring_game_change",
    "admin:tournaments_competition_changelist",
}
#: Links not to follow: they end the session, answer files rather than pages, or leave.
SKIPPED_KINDS = {"logout", "game-export", "set_language", "admin:logout"}

#: Collects what Chromium reports about the policy, in every document before its own scripts.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline")
    + " at " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""
LINKS = """Array.from(document.querySelectorAll("a[href]"), a => a.href)"""


def url_name(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


class Visitor:
    """Loads pages in one browser context and keeps what went wrong on each."""

    def __init__(self, context, base_url: str):
        self.page = context.new_page()
        self.base = urlsplit(base_url)
        self.console: list[str] = []
        self.problems: list[str] = []
        self.page.on("console", lambda line: self.console.append(line.text))
        context.add_init_script(LISTEN)

    def visit(self, path: str) -> list[str]:
        """Load ``path``; the same-site links it holds."""
        self.console.clear()
        try:
            response = self.page.goto(path)
        except PlaywrightError as error:  # a file (CSV, iCal, JSON schema), not a page
            if "Download is starting" in str(error):
                return []
            raise
        self.page.wait_for_load_state("load")
        if path.startswith("/api/docs/"):  # Swagger draws the page from the schema it fetches
            self.page.wait_for_selector(".swagger-ui .info")
        self.page.wait_for_timeout(150)  # deferred scripts, htmx's first requests
        policy = response.headers.get("content-security-policy", "") if response else ""
        if "default-src 'self'" not in policy or "frame-ancestors 'none'" not in policy:
            self.problems.append(f"{path}: no Content-Security-Policy ({policy!r})")
        for violation in self.page.evaluate("window.__cspViolations || []"):
            self.problems.append(f"{path}: {violation}")
        for line in self.console:
            if "Content Security Policy" in line or "Content-Security-Policy" in line:
                self.problems.append(f"{path}: console: {line}")
        links = []
        for href in self.page.evaluate(LINKS):
            parts = urlsplit(href)
            if (parts.scheme, parts.netloc) == (self.base.scheme, self.base.netloc):
                links.append(parts.path + (f"?{parts.query}" if parts.query else ""))
        return links


def crawl(visitor: Visitor, start: list[str]) -> dict[str, list[str]]:
    """Every page reachable from ``start``, at most PER_KIND per URL name."""
    seen: dict[str, list[str]] = {}
    queue, queued = list(start), set(start)
    while queue:
        path = queue.pop(0)
        kind = url_name(urlsplit(path).path)
        if kind is None or kind in SKIPPED_KINDS or len(seen.get(kind, [])) >= PER_KIND:
            continue
        if kind.startswith("admin:") and len(seen.get(kind, [])) >= 1:
            continue  # Django's admin: one page of each kind (a list, a record, its history)
        seen.setdefault(kind, []).append(path)
        for link in visitor.visit(path):
            if link not in queued:
                queued.add(link)
                queue.append(link)
    return seen


def test_every_page_passes_the_content_security_policy(browser, live_server, settings):
    settings.DEBUG = True  # loaddemo refuses otherwise; the pages are the same
    call_command("loaddemo", verbosity=0)
    settings.DEBUG = False
    # The admin's pages too (the demo login is staff; a superuser sees every model).
    get_user_model().objects.filter(username="demo").update(is_superuser=True)
    settings.SIGNUP = "open"
    game = Game.objects.filter(club__slug="circolo-demo").order_by("pk").first()
    public = Competition.objects.filter(club__slug="circolo-demo").order_by("pk").first()

    owner = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 800}, has_touch=True
    )
    owner_visitor = Visitor(owner, live_server.url)
    log_in(owner_visitor.page, "demo", "demo")
    # The running league too: the club page lists the newest competitions first (a palio and a
    # registration with no rounds), and the crawl visits only PER_KIND pages of a kind.
    league = Competition.objects.get(club__slug="circolo-demo", kind="league")
    start = ["/", "/admin/", "/api/docs/", "/me/games/", f"/c/circolo-demo/k/{league.slug}/"]
    seen = crawl(owner_visitor, start)
    owner.close()

    stranger = browser.new_context(base_url=live_server.url)
    stranger_visitor = Visitor(stranger, live_server.url)
    strangers = [
        "/login/",
        "/admin/login/",
        "/signup/",
        "/password-reset/",
        "/password-reset/sent/",
        f"/t/{game.table_link.token}/",
        f"/p/circolo-demo/{public.slug}/",
        # A results e-mail's unsubscribe link: no page links to it.
        reverse("unsubscribe", args=[unsubscribe_token(public.entries.first().player_id)]),
    ]
    seen |= crawl(stranger_visitor, strangers)
    stranger.close()

    problems = owner_visitor.problems + stranger_visitor.problems
    assert not problems, "\n".join(problems)
    assert set(seen) >= REQUIRED_KINDS, sorted(REQUIRED_KINDS - set(seen))
