"""Forms of the competition pages, one module per idea: ``competitions`` (a new competition and
its settings), ``entries``, ``rounds``, ``draw``, ``changes`` (a published round changed) and
``settlement``. Like the scoring forms they
only translate: fields in, the keyword arguments of a ``tournaments.services`` call out, and the
rule problems that come back placed next to the field they name
(``scoring.forms.errors.RuleErrorsMixin``, with the sentences of ``scoring.messages``). No
competition rule is decided here. Every form is importable from here.
"""

from tournaments.forms.changes import (
    MoveForm,
    RedrawForm,
    ReopenForm,
    ReplaceForm,
    UnpublishForm,
)
from tournaments.forms.competitions import CompetitionForm, CompetitionSettingsForm
from tournaments.forms.draw import GenerateForm, SwapForm
from tournaments.forms.entries import EntriesForm, PairForm, WhereForm, WithdrawForm
from tournaments.forms.rounds import CheckInForm, RoundForm, SeasonForm, next_round_initial
from tournaments.forms.settlement import AdjustForm, ForfeitForm

__all__ = [
    "AdjustForm",
    "CheckInForm",
    "CompetitionForm",
    "CompetitionSettingsForm",
    "EntriesForm",
    "ForfeitForm",
    "GenerateForm",
    "MoveForm",
    "PairForm",
    "RedrawForm",
    "ReopenForm",
    "ReplaceForm",
    "RoundForm",
    "SeasonForm",
    "SwapForm",
    "UnpublishForm",
    "WhereForm",
    "WithdrawForm",
    "next_round_initial",
]
