"""A competition's prize list: the club's rules (how tied entries share, whether an entry may
win an overall and a category prize) and the prizes by rank, overall or in a category. Who wins
is worked out from the standings (``tournaments.selectors.prizes.awarded``), never stored.

Each write locks the competition (``_common.lock``) and records its event; the list is part of
the results, so a final competition refuses changes until it is reopened (``record_event``).
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from scoring.rules import RuleViolation
from scoring.services import Actor, violation
from scoring.validators import text_problem
from tournaments import selectors
from tournaments.models import Competition, Prize, PrizeRules, Ties
from tournaments.models.prizes import OVERALL, PRIZE_MAX_CENTS, PRIZE_RANK_MAX, TAG
from tournaments.services._common import lock, record_event, require_manager
from tournaments.services.fees import cents


def categories_of(competition: Competition) -> list[str]:
    """The category keys a prize of ``competition`` may name (``selectors.categories``)."""
    return [key for key, _label in selectors.categories(competition)]


def set_prize_rules(*, competition: Competition, ties: Any, both: Any, by: Actor) -> PrizeRules:
    """How tied entries share money prizes (``split`` or ``tie_break``) and whether an entry
    may take an overall and a category prize (``both``)."""
    require_manager(by, competition.club)
    if ties not in Ties.values:
        raise violation("ties", "choice", choices=Ties.values, value=ties)
    if not isinstance(both, bool):
        raise violation("both", "type", expected="boolean")
    with transaction.atomic():
        lock(competition)
        rules, _created = PrizeRules.objects.get_or_create(competition=competition)
        rules.ties, rules.both = ties, both
        rules.save(update_fields=["ties", "both"])
        record_event(competition, by, "prize_rules", ties=ties, both=both)
    return rules


def _checked(competition: Competition, category: Any, rank: Any, amount: Any, object_: Any):
    if category not in categories_of(competition):
        raise violation("category", "choice", choices=categories_of(competition), value=category)
    if not isinstance(rank, int) or isinstance(rank, bool):
        raise violation("rank", "type", expected="integer")
    if not 1 <= rank <= PRIZE_RANK_MAX:
        raise violation("rank", "range", min=1, max=PRIZE_RANK_MAX, value=rank)
    if not isinstance(object_, str):
        raise violation("object", "type", expected="string")
    object_ = " ".join(object_.split())
    if amount is not None and object_:
        raise violation("amount_cents", "conflict", other="object")
    if amount is None and not object_:
        raise violation("amount_cents", "required", reason="money_or_object")
    if amount is not None:
        amount = cents(amount, "amount_cents", PRIZE_MAX_CENTS)
        if amount == 0:
            raise violation("amount_cents", "range", min=1, max=PRIZE_MAX_CENTS, value=amount)
    if len(object_) > Prize.OBJECT_MAX:
        raise violation("object", "too_long", max=Prize.OBJECT_MAX, value=len(object_))
    problem = text_problem(object_, "object")
    if problem is not None:
        raise RuleViolation([problem])
    return amount, object_


def add_prize(
    *,
    competition: Competition,
    rank: Any,
    by: Actor,
    category: Any = OVERALL,
    amount_cents: Any = None,
    object: Any = "",
) -> Prize:
    """The prize for ``rank`` of ``category``: money (``amount_cents``) or an ``object``.
    Refused when that rank of that category has a prize already."""
    require_manager(by, competition.club)
    amount, thing = _checked(competition, category, rank, amount_cents, object)
    with transaction.atomic():
        lock(competition)
        kind, tag = (
            (TAG, int(category.split(":")[1])) if category.startswith("tag:") else (category, None)
        )
        if Prize.objects.filter(
            competition=competition, category=kind, tag_id=tag, rank=rank
        ).exists():
            raise violation("rank", "duplicate", reason="prize_rank", value=rank)
        try:
            with transaction.atomic():
                prize = Prize.objects.create(
                    competition=competition,
                    category=kind,
                    tag_id=tag,
                    rank=rank,
                    amount_cents=amount,
                    object=thing,
                )
        except IntegrityError:
            raise violation("rank", "duplicate", reason="prize_rank", value=rank) from None
        record_event(
            competition,
            by,
            "add_prize",
            prize=prize.pk,
            category=category,
            rank=rank,
            amount_cents=amount,
            object=thing,
        )
    return prize


def remove_prize(*, prize: Prize, by: Actor) -> None:
    """Take ``prize`` off the list."""
    competition = prize.competition
    require_manager(by, competition.club)
    with transaction.atomic():
        lock(competition)
        row = Prize.objects.filter(pk=prize.pk, competition=competition).first()
        if row is None:
            raise violation("prize", "not_found", value=prize.pk)
        record_event(
            competition,
            by,
            "remove_prize",
            prize=row.pk,
            category=row.key,
            rank=row.rank,
            amount_cents=row.amount_cents,
            object=row.object,
        )
        row.delete()
