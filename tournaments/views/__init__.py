"""Competition pages, one module per audience: ``organizer`` (a competition, its entries),
``rounds`` (a round and its table cards), ``public`` (standings, rounds, "where do I sit?",
projector), ``exports`` (iCalendar, CSV) and ``club`` (the block on a club page). ``access``
holds the shared look-ups and permission checks; view-model code is ``tournaments.presenters``.
"""

# The app config registers the club page block by this name.
from tournaments.views.club import club_section

__all__ = ["club_section"]
