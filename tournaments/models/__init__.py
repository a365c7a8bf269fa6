"""The competitions' tables, one module per idea: ``competitions`` (a tournament or a league and
the facts that follow from its settings), ``entries`` (who plays), ``rounds`` (rounds, check-ins,
tables, seats and byes), ``settlement`` (adjustments of points), ``audit`` (the organizer's
append-only trail) and ``standings`` (the snapshot of the last standings).

Standings are never stored by hand: ``tournaments.selectors`` recomputes them from the games
(through the pure ``tournaments.standings``); ``StandingsSnapshot`` only caches the last result
so the public page and the projector are cheap to poll.

Every name is importable from here (``from tournaments.models import Round``).
"""

from tournaments.models.audit import CompetitionEvent
from tournaments.models.calls import CallReason, DirectorCall
from tournaments.models.competitions import (
    BRACKET_FORMATS,
    STAGE_LENGTH_MAX,
    STAGE_LENGTHS,
    Competition,
    Format,
    Kind,
    RepeatObjective,
)
from tournaments.models.entries import Entry, EntryStatus
from tournaments.models.fees import Fee, FeeBasis, Method, Payment, PaymentKind
from tournaments.models.prizes import Prize, PrizeRules, Ties
from tournaments.models.results_mail import ResultsMail
from tournaments.models.rounds import (
    Bye,
    CheckIn,
    LiveRounds,
    Round,
    RoundStatus,
    Table,
    TableSeat,
)
from tournaments.models.settlement import Adjustment
from tournaments.models.standings import StandingsSnapshot

__all__ = [
    "BRACKET_FORMATS",
    "STAGE_LENGTHS",
    "STAGE_LENGTH_MAX",
    "Adjustment",
    "Bye",
    "CallReason",
    "CheckIn",
    "Competition",
    "CompetitionEvent",
    "DirectorCall",
    "Entry",
    "EntryStatus",
    "Fee",
    "FeeBasis",
    "Format",
    "Kind",
    "LiveRounds",
    "Method",
    "Payment",
    "PaymentKind",
    "Prize",
    "PrizeRules",
    "RepeatObjective",
    "ResultsMail",
    "Round",
    "RoundStatus",
    "StandingsSnapshot",
    "Table",
    "TableSeat",
    "Ties",
]
