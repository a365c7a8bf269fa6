"""The competition API under ``/api/v1/``: competitions of a club, their entries, rounds, tables
and standings, and a schedule preview. One module per resource; ``common`` holds who may read
and write, ``payloads`` the shapes of the answers.

Views translate: a nested ``InputSerializer`` (``scoring.api.inputs``) reads the body strictly,
then one service or selector is called and its answer shaped. Errors have the scoring API's one
shape, ``{"errors": [{"hand", "field", "code", "message"}]}``, mapped from exceptions in
``scoring.api.errors``.
"""

from tournaments.api.competitions import ClubCompetitions, CompetitionDetail
from tournaments.api.entries import Entries, EntryWithdraw
from tournaments.api.rounds import (
    RoundCheckIns,
    RoundClose,
    RoundDetail,
    RoundGenerate,
    RoundPublish,
    Rounds,
    RoundSwap,
    TableForfeit,
)
from tournaments.api.schedule import SchedulePreview
from tournaments.api.standings import Standings

__all__ = [
    "ClubCompetitions",
    "CompetitionDetail",
    "Entries",
    "EntryWithdraw",
    "RoundCheckIns",
    "RoundClose",
    "RoundDetail",
    "RoundGenerate",
    "RoundPublish",
    "RoundSwap",
    "Rounds",
    "SchedulePreview",
    "Standings",
    "TableForfeit",
]
