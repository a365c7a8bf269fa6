"""A competition's prize list and who wins it: ``categories`` (what a prize may be for),
``prize_list``, ``prize_rules`` and ``awarded`` (the pure ``tournaments.standings.prizes``
applied to the overall standings and to the players' tags).

An entry belongs to a category when every one of its players does: a pair is in "Women" when
both players are tagged "Women", and a newcomer pair when neither player has entered an earlier
competition of the club. An earlier competition is one created before this one.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.models import PlayerTag, TaggedPlayer
from tournaments.models import Competition, Entry, Prize, PrizeRules, Ties
from tournaments.models.prizes import NEWCOMER, OVERALL
from tournaments.money import format_money
from tournaments.selectors.standings import standings_of
from tournaments.standings import prizes as pure


def categories(competition: Competition) -> list[tuple[str, str]]:
    """(key, label) of every category a prize may name: overall, newcomer, each club tag. One
    query."""
    tags = PlayerTag.objects.filter(club_id=competition.club_id).order_by("name")
    return [
        (OVERALL, gettext("Overall")),
        (NEWCOMER, gettext("Best newcomers")),
        *((f"tag:{t.pk}", t.name) for t in tags),
    ]


def prize_rules(competition: Competition) -> PrizeRules:
    """The club's rules for the competition's prizes (the defaults when none were set)."""
    rules = PrizeRules.objects.filter(competition=competition).first()
    return rules or PrizeRules(competition=competition, ties=Ties.SPLIT, both=False)


def prize_text(prize: Prize | None, currency: str, amount: int | None = None) -> str:
    """A prize as read: its money in the reader's language, or its object."""
    if amount is not None:
        return format_money(amount, currency)
    if prize is None:
        return ""
    if prize.amount_cents is not None:
        return format_money(prize.amount_cents, currency)
    return prize.object


def prize_list(competition: Competition) -> list[dict[str, Any]]:
    """The prizes by category (in ``categories`` order) and rank, with the category's label and
    the prize as read. Two queries."""
    labels = dict(categories(competition))
    order = list(labels)
    currency = competition.club.currency
    prizes = sorted(
        Prize.objects.filter(competition=competition),
        key=lambda p: (order.index(p.key) if p.key in order else len(order), p.rank),
    )
    return [
        {
            "prize": p,
            "category": p.key,
            "category_label": labels.get(p.key, p.key),
            "text": prize_text(p, currency),
        }
        for p in prizes
    ]


def entry_categories(competition: Competition) -> dict[int, frozenset[str]]:
    """The categories each entry belongs to (``tag:<id>``, ``newcomer``). Three queries."""
    entries = list(competition.entries.values_list("pk", "player_id", "partner_id"))
    players = {p for _pk, a, b in entries for p in (a, b) if p}
    tagged: dict[int, set[str]] = {}
    through = TaggedPlayer.objects.filter(tag__club_id=competition.club_id, player_id__in=players)
    for player, tag in through.values_list("player_id", "tag_id"):
        tagged.setdefault(player, set()).add(f"tag:{tag}")
    earlier = Entry.objects.filter(
        competition__club_id=competition.club_id,
        competition__created_at__lt=competition.created_at,
    ).values_list("player_id", "partner_id")
    veterans = {p for pair in earlier for p in pair if p}
    result = {}
    for pk, a, b in entries:
        members = [p for p in (a, b) if p]
        shared = set.intersection(*(tagged.get(p, set()) for p in members))
        if not any(p in veterans for p in members):
            shared.add(NEWCOMER)
        result[pk] = frozenset(shared)
    return result


def _place(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def awarded(competition: Competition) -> list[dict[str, Any]]:
    """THE allocation of the prizes: the prize page, the printed results sheet, the public
    page, ``GET …/awards/`` and the final e-mails all read this and nothing else. Who wins
    which prize on the final ranking the competition shows now (the bracket's after a
    knockout stage, the standings' otherwise): overall first, then each
    category, by place. Each row: ``category``, ``category_label``, ``place`` ("1", or "3–4"
    for tied entries sharing pooled money), ``first``, ``last``, ``entry``, ``name``,
    ``amount_cents`` (its share, 0 for an object), ``object``, ``prize`` (as read). Whether the
    results are final is the caller's business (``Competition.finalized_at``)."""
    listed = prize_list(competition)
    if not listed:
        return []
    rules = prize_rules(competition)
    data = standings_of(competition)
    standings = data["tables"][0]
    names = {row["entry"]: row["name"] for row in standings["rows"]}
    # The final ranking the competition shows: a bracket's (a knockout, or the knockout after
    # a Swiss cut) shares places by the bracket, whatever the points of the entries.
    by_rank = bool(data.get("bracket")) or competition.bracket_format
    placed = pure.placed_from(
        standings["rows"], by_rank=by_rank, categories=entry_categories(competition)
    )
    specs = [
        pure.PrizeSpec(
            category=item["category"],
            rank=item["prize"].rank,
            amount_cents=item["prize"].amount_cents,
            object=item["prize"].object,
        )
        for item in listed
    ]
    labels = {item["category"]: item["category_label"] for item in listed}
    labels.setdefault(OVERALL, gettext("Overall"))
    currency = competition.club.currency
    return [
        {
            "category": award.category,
            "category_label": labels[award.category],
            "place": _place(award.first, award.last),
            "first": award.first,
            "last": award.last,
            "entry": award.entry,
            "name": names.get(award.entry, "?"),
            "amount_cents": award.amount_cents,
            "object": award.object,
            "prize": award.object or prize_text(None, currency, award.amount_cents),
        }
        for award in pure.allocate(placed, specs, ties=rules.ties, both=rules.both)
    ]
