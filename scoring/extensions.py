"""Hooks through which apps that build on scoring (tournaments) add to its pages and commands, so
that the dependency stays one-way: they register here in their ``AppConfig.ready``.

``CLUB_PAGE_SECTIONS``: callables ``(request, club, role) -> str`` (safe HTML) shown on the club
page below the games.

``DEMO_LOADERS``: callables ``(club, user) -> list[str]`` that ``manage.py loaddemo`` calls after
building the demo club, in the same transaction, with the club and the demo login. Each adds
what its app shows of the club (and leaves alone what is already there: loaddemo may run again)
and returns lines for the command's summary.

``GAME_AUDIENCES``: ``{Game.context: callable () -> Q}``. Of the games an app started for its
own purposes (``Game.context``, e.g. a competition's tables), the callable's filter on ``Game``
picks those anyone may read, from the app's rows as they are now (a competition made private
takes its games with it at once). A context with no entry here is readable by its club's
members only (``scoring.selectors.public_games``).
"""

CLUB_PAGE_SECTIONS: list = []
DEMO_LOADERS: list = []
GAME_AUDIENCES: dict = {}
