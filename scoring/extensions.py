"""Hooks through which apps that build on scoring (tournaments) add to its pages and commands, so
that the dependency stays one-way: they register here in their ``AppConfig.ready``.

``CLUB_PAGE_SECTIONS``: callables ``(request, club, role) -> str`` (safe HTML) shown on the club
page below the games.

``PLAYER_PAGE_SECTIONS``: callables ``(request, player, role) -> str`` (safe HTML, "" for
nothing) shown on a player's page below the statistics.

``GAME_PAGE_SECTIONS``: callables ``(request, game, role) -> str`` (safe HTML, "" for nothing)
shown on the game page and on the scoreboard, above the totals (a competition's table: the
round's clock, calling the director).

``DEMO_LOADERS``: callables ``(club, user) -> list[str]`` that ``manage.py loaddemo`` calls after
building the demo club, in the same transaction, with the club and the demo login. Each adds
what its app shows of the club (and leaves alone what is already there: loaddemo may run again)
and returns lines for the command's summary.

``UNFINISHING_GUARDS``: callables ``(game) -> None`` run under the game row's lock when a write
would take a finished game back to unfinished or abandon it (a hand removed, undone or corrected,
the game abandoned), before it commits; one raises a ``RuleViolation`` to refuse the write (a
competition keeps the games of a closed round finished). They read, never lock: the game's lock is
the last an app takes before the hands (docs/architecture.md, "Locks").

``GAME_CHECKS``: callables ``(club: str | None, *, since=None, games=None) -> Iterable`` that
``check_games`` (the command and the nightly task) runs after replaying the games, for the club
of that slug or every club; each item is one finding, read with ``str()`` (a closed round with a
game still in progress...). The nightly task gives ``since`` (a datetime) and ``games`` (the ids
of the games changed since then): a check looks only at what changed since then.

``GAME_AUDIENCES``: ``{Game.context: callable () -> Q}``. Of the games an app started for its
own purposes (``Game.context``, e.g. a competition's tables), the callable's filter on ``Game``
picks those anyone may read, from the app's rows as they are now (a competition made private
takes its games with it at once). A context with no entry here is readable by its club's
members only (``scoring.selectors.public_games``).
"""

CLUB_PAGE_SECTIONS: list = []
PLAYER_PAGE_SECTIONS: list = []
GAME_PAGE_SECTIONS: list = []
DEMO_LOADERS: list = []
UNFINISHING_GUARDS: list = []
GAME_CHECKS: list = []
GAME_AUDIENCES: dict = {}
