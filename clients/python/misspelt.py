"""A hand with a misspelt field: ``mypy --strict`` must refuse it, naming the field
(.ci/clients asserts both)."""

from segnapunti_client.models import (
    TerziglioPassedOutHandRequest,
    TerziglioPassedOutHandRequestOutcome,
    TerziglioPassedOutHandRequestRuleset,
)

HAND = TerziglioPassedOutHandRequest(
    ruleset=TerziglioPassedOutHandRequestRuleset.TERZIGLIO,
    dealr=0,
    outcome=TerziglioPassedOutHandRequestOutcome.PASSED_OUT,
)
