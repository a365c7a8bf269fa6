"""The demo club built: whole games dealt from the plans and entered through the services, as a
scorer at the table would."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from scoring import services
from scoring.demo.hands import HAND_MAKERS, PASSING_GAMES, TYPO_MAKERS
from scoring.demo.plans import CLUB_NAME, CLUB_SLUG, PLANS, PLAYER_NAMES, SEED, Document, Plan
from scoring.models import Club, Game, GameStatus, Hand
from scoring.rules import RULESETS, RuleViolation, engine
from scoring.services import Actor

# ---------------------------------------------------------------------------------------------
# Whole games


def deal_game(
    ruleset: str, options: Mapping[str, Any], n: int, rng: random.Random, plan: Plan
) -> list[Document]:
    """Hand documents for ``plan``: until the game is over (in ``plan.min_hands`` hands or
    more), or ``plan.hands`` hands that leave it in progress. Checked through the rules engine
    as they are made."""
    for _ in range(100):
        documents, game = deal_once(ruleset, options, n, rng, plan)
        if game.finished != plan.finish:
            continue
        if plan.finish and not plan.min_hands <= len(documents) <= plan.max_hands:
            continue
        if not plan.finish and len(documents) != plan.hands:
            continue
        has_passed_out = any(d.get("outcome") == "passed_out" for d in documents)
        if plan.finish and ruleset in PASSING_GAMES and not has_passed_out:
            continue  # a whole game of these shows at least one passed-out hand
        return documents
    raise AssertionError(f"the demo game {plan.title!r} did not end as planned")


def deal_once(
    ruleset: str, options: Mapping[str, Any], n: int, rng: random.Random, plan: Plan
) -> tuple[list[Document], engine.ScoredGame]:
    rules, make = RULESETS[ruleset], HAND_MAKERS[ruleset]
    game = engine.start(rules, options, n)
    documents: list[Document] = []
    dealer = rng.randrange(n)  # anyone may deal the first hand
    limit = plan.max_hands + 1 if plan.finish else plan.hands
    while len(documents) < limit and not game.finished:
        document = make(rng, n, options, dealer)
        after = engine.play(game, document)
        if after.finished and not plan.finish:
            for _ in range(50):  # this game is still going on: deal a hand that does not end it
                document = make(rng, n, options, dealer)
                after = engine.play(game, document)
                if not after.finished:
                    break
            else:
                break
        game = after
        documents.append(document)
        dealer = (dealer + 1) % n
    return documents, game


def plan_typo(
    ruleset: str,
    options: Mapping[str, Any],
    n: int,
    documents: list[Document],
    names: list[str],
    rng: random.Random,
) -> tuple[int, Document, str]:
    """A hand to enter wrong (its index, the wrong document, the reason of its correction),
    such that the game with the wrong hand still replays up to the last hand."""
    rules, make = RULESETS[ruleset], TYPO_MAKERS[ruleset]
    candidates = list(range(len(documents)))
    rng.shuffle(candidates)
    for index in candidates:
        typo = make(rng, n, options, documents[index], names)
        if typo is None:
            continue
        entered = [*documents[:index], typo[0], *documents[index + 1 :]]
        try:
            engine.replay(rules, options, n, entered)
        except RuleViolation:
            continue
        return index, *typo
    raise AssertionError(f"no hand of the demo game {ruleset} can be entered wrong")


def build_game(
    club: Club, by: Actor, players: Mapping[str, Any], plan: Plan, rng: random.Random
) -> Game:
    """Start the game of ``plan`` and enter its hands, the mistaken one and its correction."""
    game = services.start_game(
        club=club,
        ruleset=plan.ruleset,
        players=[players[name] for name in plan.players],
        options=dict(plan.options),
        title=plan.title,
        by=by,
    )
    documents = deal_game(plan.ruleset, game.options, game.n, rng, plan)
    entered = list(documents)
    fix_after = fix = None
    if plan.corrected:
        index, typo, reason = plan_typo(
            plan.ruleset, game.options, game.n, documents, list(plan.players), rng
        )
        entered[index] = typo
        # Someone notices a couple of hands later (or at the end of the game).
        fix_after = min(index + 1 + rng.randint(0, 2), len(entered))
        fix = (index + 1, documents[index], reason)
    for number, document in enumerate(entered, start=1):
        services.record_hand(game=game, document=document, by=by)
        if number == fix_after and fix is not None:
            hand, document, reason = fix
            services.correct_hand(game=game, number=hand, document=document, by=by, reason=reason)
    if plan.abandon:
        services.abandon_game(game=game, by=by, reason=plan.abandon)
    return game


# ---------------------------------------------------------------------------------------------
# The club


def summary(club: Club) -> str:
    """One line: the club, its players, its games by status, hands and corrections."""
    statuses = Counter(club.games.values_list("status", flat=True))
    hands = Hand.objects.filter(game__club=club)
    games = ", ".join(f"{statuses.get(status, 0)} {label}" for status, label in GameStatus.choices)
    return (
        f"{club.name} ({club.slug}): {club.players.count()} players; games: {games}; "
        f"{hands.count()} hands, {hands.filter(version__gt=1).count()} corrected."
    )


def load(user) -> tuple[Club, bool]:
    """The demo club owned by ``user``; built the first time, left alone afterwards.
    Returns the club and whether it was created now."""
    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is not None:
        return club, False
    rng = random.Random(SEED)
    by = Actor.for_user(user)
    with transaction.atomic():
        club = services.create_club(
            name=CLUB_NAME, slug=CLUB_SLUG, by=by, language="it", results_public=True
        )
        players = {
            name: services.add_player(club=club, display_name=name, by=by) for name in PLAYER_NAMES
        }
        for plan in PLANS:
            build_game(club, by, players, plan, rng)
    return club, True
