"""Competition pages. The organizer's, one module per feature: ``competitions`` (a new
competition, its dashboard, its settings), ``entries``, ``rounds`` (a round and its actions) and
``printouts`` (a round's table cards and score sheets); everyone's: ``public`` (standings,
rounds, "where do I sit?", bracket, projector), ``exports`` (iCalendar, CSV) and ``club`` (the
block on a club page). ``access`` holds the shared look-ups and permission checks; reads are
``tournaments.selectors``, view-model code is ``tournaments.presenters``.
"""

# The app config registers the club page block by this name.
from tournaments.views.club import club_section

__all__ = ["club_section"]
