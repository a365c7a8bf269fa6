"""Hooks through which the apps built on competitions (``registration``, ``teams``,
``circuits``) add to its pages, streams, calendar and club document, so that ``tournaments``
never imports them: they register here in their ``AppConfig.ready``, as ``tournaments`` itself
does in ``scoring.extensions``.

``COMPETITION_BUTTONS``: callables ``(competition) -> list[tuple[str, str]]`` — ``(label, url)``
of the buttons an app adds to the organizer's competition page.

``PUBLIC_BUTTONS``: callables ``(competition) -> list[tuple[str, str]]`` — the same on the
competition's public page (shown first, as its main action: "Register"). The competition comes
from ``tournaments.views.access``, which loads the one-to-one rows named in
``COMPETITION_RELATED`` with it (no query per button).

``COMPETITION_RELATED``: names of one-to-one relations of ``Competition`` that the public and
organizer pages load with it (``select_related``).

``CLUB_LINKS``: callables ``(club, role) -> list[tuple[str, str]]`` — links an app adds to the
competitions' section of the club page.

``ROUND_PAGE_SECTIONS``: callables ``(request, round_) -> str`` (safe HTML, "" for nothing)
shown on the organizer's page of a round (self check-in: who is here, who is missing).

``CALENDAR_ENTRIES``: callables ``(request, competition) -> list[CalendarEntry]`` — dated
events an app adds to the competition's ``calendar.ics`` (a palio's team matches).

``STANDINGS_LISTENERS``: callables ``(competition_id, version) -> None`` run after commit when a
competition's standings change, after its own ``standings`` event (a circuit's standings follow).

``SEAT_CHANNELS``: callables ``(round_id) -> dict[int, list[str]]`` — for entries seated in the
round, the live channels besides their players' own that hear where they sit (the page of a
registration's e-mailed link, for a player without an account).

``COMPETITION_PLACES``: callables ``(competition_ids) -> dict[int, int]`` — how many entries
each of these competitions takes, where an app limits it (registration's places); a competition
no hook names has no known limit.

``DRAW_AVOIDANCES``: callables ``(competition) -> dict[tuple[int, int], int]`` — pairs of
entries the draw keeps apart where it can, each counted as that many earlier meetings (the
members of one team at mixed tables).

``DRAW_GROUPS``: callables ``(competition) -> list[tuple[str, list[int]]]`` — named groups of
entries whose members the draw keeps apart (a team's members at mixed tables): the draw's
quality panel counts the tables that seat two of one group, and a swap's preview warns of them.

``CLUB_DATA_TABLES``: ``tournaments.services.club_data.Table`` rows an app adds to the club
document, after the competitions' own tables (parents before children). ``CLUB_DATA_LEFT_OUT``:
``{model label: why}`` of the app's models that the document leaves out.
"""

COMPETITION_BUTTONS: list = []
PUBLIC_BUTTONS: list = []
COMPETITION_RELATED: list = []
CLUB_LINKS: list = []
ROUND_PAGE_SECTIONS: list = []
CALENDAR_ENTRIES: list = []
STANDINGS_LISTENERS: list = []
SEAT_CHANNELS: list = []
COMPETITION_PLACES: list = []
DRAW_AVOIDANCES: list = []
DRAW_GROUPS: list = []
CLUB_DATA_TABLES: list = []
CLUB_DATA_LEFT_OUT: dict = {}


def add(hooks: list, hook) -> None:
    """Register ``hook`` once (``AppConfig.ready`` may run more than once in tests)."""
    if hook not in hooks:
        hooks.append(hook)
