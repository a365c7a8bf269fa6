"""Every write of the scoring app goes through one of these functions.

Pages, the API, the admin, management commands, Celery tasks and test setup all call them, with
keyword-only arguments. Each one runs in a single transaction: it locks the game row (PostgreSQL
``SELECT … FOR UPDATE``; on SQLite the IMMEDIATE transaction already serialises writers), asks the
rules engine for the new figures, writes the rows, and appends an audit event.

A problem the player can fix raises :class:`~scoring.rules.RuleViolation` (HTTP 400 / an error
next to the field); nothing is written then. Other refusals have their own exceptions below.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, F
from django.db.models.functions import Lower
from django.utils import timezone

from scoring import selectors
from scoring.models import (
    AuditAction,
    AuditEvent,
    Club,
    Game,
    GameStatus,
    Hand,
    IdempotencyRecord,
    Membership,
    Player,
    Role,
    Seat,
    TableLink,
    Via,
)
from scoring.rules import RULESETS, Problem, RuleViolation, ScoredGame, ScoredHand, engine
from scoring.rules.base import Problems, Reader
from scoring.signals import announce_game_changed

# ---------------------------------------------------------------------------------------------
# Who is writing, and the refusals that are not rule problems


@dataclass(frozen=True)
class Actor:
    """Who makes a change and through which door. ``client`` scopes idempotency keys: a user
    account, or the table link of one game for players without an account."""

    user: Any = None
    via: str = Via.PAGE
    client: str = ""
    #: The one game a table link opens, for players without an account.
    table_game: int | None = None
    #: Management commands and data migrations act for the club itself.
    trusted: bool = False

    @classmethod
    def for_user(cls, user, via: str = Via.PAGE) -> Actor:
        return cls(user=user, via=via, client=f"user:{user.pk}")

    @classmethod
    def for_table(cls, game_id: int, via: str = Via.TABLE) -> Actor:
        return cls(user=None, via=via, client=f"table:{game_id}", table_game=game_id)

    @classmethod
    def system(cls, via: str = Via.IMPORT) -> Actor:
        return cls(user=None, via=via, client="system", trusted=True)


class NotAllowed(Exception):
    """The actor may not make this change (HTTP 403, or 404 where it may not even read)."""


class IdempotencyConflict(Exception):
    """The idempotency key was already used for a different request (HTTP 422)."""


class VersionConflict(Exception):
    """The hand changed since the client read it (HTTP 412)."""

    def __init__(self, number: int, current: int):
        self.number, self.current = number, current
        super().__init__(f"hand {number} is at version {current}")


class HandNotFound(Exception):
    def __init__(self, number: int):
        self.number = number
        super().__init__(f"no hand {number}")


HAND_WRITERS = (Role.OWNER, Role.ORGANIZER, Role.SCORER)
MANAGERS = (Role.OWNER, Role.ORGANIZER)


def _role_subquery(user):
    from django.db.models import OuterRef, Subquery

    return Subquery(
        Membership.objects.filter(
            club=OuterRef("club_id"), user_id=getattr(user, "pk", None)
        ).values("role")[:1]
    )


def _authorize(
    by: Actor, *, role: str | None, roles: Sequence[str], table_game: int | None = None
) -> None:
    """Pass if ``by`` is trusted, holds one of ``roles``, or holds the table link of
    ``table_game``; raise NotAllowed otherwise."""
    if by.trusted or role in roles or (table_game is not None and by.table_game == table_game):
        return
    raise NotAllowed()


def authorize_club(by: Actor, club: Club, roles: Sequence[str] = HAND_WRITERS) -> None:
    """Raise NotAllowed unless ``by`` holds one of ``roles`` in ``club`` (one query)."""
    role = None
    if by.user is not None and not by.trusted:
        role = (
            Membership.objects.filter(club=club, user=by.user)
            .values_list("role", flat=True)
            .first()
        )
    _authorize(by, role=role, roles=roles)


def violation(field: str, code: str, **params: Any) -> RuleViolation:
    return RuleViolation([Problem(field, code, params)])


# ---------------------------------------------------------------------------------------------
# Clubs and players


def create_club(
    *, name: str, slug: str, owner, language: str = "it", results_public: bool = False
) -> Club:
    with transaction.atomic():
        club = Club.objects.create(
            name=name, slug=slug, language=language, results_public=results_public
        )
        Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def set_membership(*, club: Club, user, role: str) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def add_player(*, club: Club, display_name: str, by: Actor, user=None) -> Player:
    """A new player of the club. Raises RuleViolation if the name is blank or already taken."""
    authorize_club(by, club)
    return _create_player(club, display_name, user)


def _create_player(club: Club, display_name: str, user=None) -> Player:
    name = " ".join(str(display_name).split())
    if not name:
        raise violation("display_name", "required")
    if len(name) > 80:
        raise violation("display_name", "range", min=1, max=80, value=len(name))
    if club.players.filter(display_name__iexact=name).exists():
        raise violation("display_name", "duplicate", value=name)
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, display_name=name, user=user)
    except IntegrityError:  # a concurrent request created the same name
        raise violation("display_name", "duplicate", value=name) from None


def set_player_active(*, player: Player, active: bool, by: Actor) -> Player:
    authorize_club(by, player.club, MANAGERS)
    Player.objects.filter(pk=player.pk).update(active=active)
    player.active = active
    return player


# ---------------------------------------------------------------------------------------------
# Games


def _match_players(club: Club, entries: Sequence[Any]) -> list[Player | str]:
    """The club's players for ``entries`` (Player, id or name), or the cleaned new names.
    Raises RuleViolation for unknown ids, blanks and a player listed twice. Creates nothing."""
    problems = Problems()
    ids = [e for e in entries if isinstance(e, int) and not isinstance(e, bool)]
    names = [" ".join(e.split()).lower() for e in entries if isinstance(e, str)]
    by_id = {p.pk: p for p in club.players.filter(pk__in=ids)} if ids else {}
    by_name = {}
    if names:
        found = club.players.annotate(lname=Lower("display_name")).filter(lname__in=names)
        by_name = {p.lname: p for p in found}
    matched: list[Player | str] = []
    seen: set[Any] = set()
    for index, entry in enumerate(entries):
        path = f"players[{index}]"
        item: Player | str | None = None
        if isinstance(entry, Player):
            item = entry if entry.club_id == club.pk else None
        elif isinstance(entry, int) and not isinstance(entry, bool):
            item = by_id.get(entry)
        elif isinstance(entry, str) and entry.strip():
            name = " ".join(entry.split())
            item = by_name.get(name.lower(), name[:80])
        else:
            problems.add(path, "type", expected="player")
            continue
        if item is None:
            problems.add(path, "not_found", value=getattr(entry, "pk", entry))
            continue
        marker = item.pk if isinstance(item, Player) else item.lower()
        if marker in seen:
            problems.add(path, "duplicate", value=str(item))
        seen.add(marker)
        matched.append(item)
    problems.raise_if_any()
    return matched


def _cache_fields(game: Game, scored: ScoredGame) -> None:
    """Copy the engine's figures into the game row's cache."""
    game.hand_count = scored.state.hands_played
    game.totals = list(scored.totals)
    game.card_points = None if scored.state.card_points is None else list(scored.state.card_points)
    game.last_dealer = scored.state.last_dealer
    if game.status != GameStatus.ABANDONED:
        was = game.status
        game.status = scored.status
        if scored.status == GameStatus.FINISHED and was != GameStatus.FINISHED:
            game.finished_at = timezone.now()
        elif scored.status == GameStatus.IN_PROGRESS:
            game.finished_at = None


def hand_fields(scored_hand: ScoredHand) -> dict[str, Any]:
    """The columns of a ``Hand`` row that the engine decides, from its scored hand: the one
    place a scored hand becomes stored values (new rows and corrected ones alike)."""
    return {
        "document": dict(scored_hand.document),
        "deltas": list(scored_hand.deltas),
        "side_points": None if scored_hand.side_points is None else list(scored_hand.side_points),
    }


def hand_row(*, game: Game, scored_hand: ScoredHand, by: Actor, at=None) -> Hand:
    """A new, unsaved ``Hand`` row of ``game`` for ``scored_hand``, entered by ``by`` (now, or
    ``at``)."""
    at = at or timezone.now()
    return Hand(
        game=game,
        number=scored_hand.number,
        entered_by=by.user,
        entered_via=by.via,
        created_at=at,
        updated_at=at,
        **hand_fields(scored_hand),
    )


CACHE_FIELDS = [
    "hand_count",
    "totals",
    "card_points",
    "last_dealer",
    "status",
    "finished_at",
    "version",
]


def start_game(
    *,
    club: Club,
    ruleset: str,
    players: Sequence[Any],
    by: Actor,
    options: Mapping[str, Any] | None = None,
    hands: Iterable[Any] = (),
    title: str = "",
    public_live: bool = False,
    context: str = "",
) -> Game:
    """A new game of ``ruleset`` with ``players`` in seat order (Player, id, or a new name).
    ``hands`` (an import) are replayed and stored too. Raises RuleViolation listing every
    problem; nothing is created then."""
    authorize_club(by, club)
    problems = Problems()
    rules = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    if rules is None:
        problems.add("ruleset", "choice", choices=tuple(RULESETS), value=ruleset)
    if not isinstance(players, list | tuple):
        problems.add("players", "type", expected="list")
    problems.raise_if_any()
    assert rules is not None
    try:
        resolved_options = rules.resolve_options(options, len(players))
    except RuleViolation as error:
        problems.items.extend(error.problems)
    matched: list[Player | str] = []
    try:
        matched = _match_players(club, players)
    except RuleViolation as error:
        problems.items.extend(error.problems)
    problems.raise_if_any()
    hands = list(hands)
    scored = engine.replay(rules, resolved_options, len(players), hands)
    action = AuditAction.IMPORT_GAME if hands else AuditAction.START_GAME
    with transaction.atomic():
        seated = [p if isinstance(p, Player) else _create_player(club, p) for p in matched]
        game = Game(
            club=club,
            ruleset=rules.key,
            options=resolved_options,
            title=title.strip(),
            created_by=by.user,
            public_live=public_live,
            context=context,
        )
        _cache_fields(game, scored)
        game.save()
        sides = rules.sides(resolved_options, len(players))
        side_of = {seat: i for i, side in enumerate(sides or ()) for seat in side}
        Seat.objects.bulk_create(
            Seat(game=game, index=i, player=p, side=side_of.get(i) if sides else None)
            for i, p in enumerate(seated)
        )
        now = timezone.now()
        Hand.objects.bulk_create(
            hand_row(game=game, scored_hand=h, by=by, at=now) for h in scored.hands
        )
        TableLink.objects.create(game=game)
        AuditEvent.objects.create(
            club=club,
            game=game,
            action=action,
            actor=by.user,
            via=by.via,
            after=selectors.export_game(
                game, [p.display_name for p in seated], [dict(h.document) for h in scored.hands]
            ),
        )
    return game


def import_game(*, club: Club, document: Any, by: Actor) -> Game:
    """A whole game document (``{"ruleset", "options", "players", "hands"}``) stored at once."""
    problems = Problems()
    doc = Reader.of(document, problems, "")
    if doc is None:
        raise RuleViolation(problems.items)
    doc.only(("ruleset", "options", "players", "hands", "title"))
    players = doc.read_list("players")
    hands = doc.read_list("hands", required=False)
    title = doc.obj.get("title", "")
    if not isinstance(title, str):
        problems.add("title", "type", expected="string")
    if "ruleset" not in doc.obj:
        problems.add("ruleset", "required")
    problems.raise_if_any()
    return start_game(
        club=club,
        ruleset=doc.obj["ruleset"],
        players=players,
        options=doc.obj.get("options"),
        hands=hands or (),
        title=title,
        by=by,
    )


def _locked(
    game: Game | int, by: Actor, *, table_link_may: bool = True, idempotency_key: str | None = None
) -> Game:
    """The game row, locked for the rest of the transaction, once ``by`` may change it: any
    member of the club, or (unless ``table_link_may`` is false) the game's table link.
    One query: the actor's role, and whether ``idempotency_key`` was seen, come along as
    subqueries."""
    pk = game.pk if isinstance(game, Game) else game
    rows = (
        Game.objects.select_for_update(of=("self",))
        .select_related("club")
        .annotate(actor_role=_role_subquery(by.user))
    )
    if idempotency_key:
        seen = IdempotencyRecord.objects.filter(client=by.client, key=idempotency_key)
        rows = rows.annotate(seen_key=Exists(seen))
    locked = rows.get(pk=pk)
    _authorize(
        by,
        role=locked.actor_role,
        roles=HAND_WRITERS,
        table_game=locked.pk if table_link_may else None,
    )
    return locked


def _refuse_if_abandoned(game: Game) -> None:
    if game.status == GameStatus.ABANDONED:
        raise violation("game", "game_abandoned")


def fingerprint(document: Any) -> str:
    return hashlib.sha256(
        json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


@dataclass(frozen=True)
class Recorded:
    """The answer to a hand entry: the stored hand's payload, and whether it is a resend."""

    payload: dict[str, Any]
    replayed: bool = False
    hand: Hand | None = None


def record_hand(
    *, game: Game | int, document: Any, by: Actor, idempotency_key: str | None = None
) -> Recorded:
    """Validate, score and store the next hand of ``game``.

    With an ``idempotency_key``, a resend of the same document returns the first answer and
    stores nothing; the same key with another document raises IdempotencyConflict."""
    document_print = fingerprint(document)
    try:
        with transaction.atomic():
            locked = _locked(game, by, idempotency_key=idempotency_key)
            if idempotency_key and locked.seen_key:
                first = _first_answer(by.client, idempotency_key, locked.pk, document_print)
                if first is not None:
                    return first
            _refuse_if_abandoned(locked)
            was_finished = locked.status == GameStatus.FINISHED
            scored = engine.play(locked.scored(), document)
            hand = hand_row(game=locked, scored_hand=scored.hands[-1], by=by)
            hand.save(force_insert=True)
            _cache_fields(locked, scored)
            locked.version += 1
            locked.save(update_fields=CACHE_FIELDS)
            AuditEvent.objects.create(
                club_id=locked.club_id,
                game=locked,
                hand_number=hand.number,
                action=AuditAction.RECORD_HAND,
                actor=by.user,
                via=by.via,
                after={"document": hand.document, "deltas": hand.deltas},
            )
            announce_game_changed(locked, was_finished=was_finished)
            payload = selectors.hand_payload(hand, locked, scored)
            if idempotency_key:
                IdempotencyRecord.objects.create(
                    client=by.client,
                    key=idempotency_key,
                    game=locked,
                    fingerprint=document_print,
                    status_code=201,
                    response=payload,
                )
            return Recorded(payload=payload, hand=hand)
    except (IntegrityError, RuleViolation):
        # A concurrent request with the same key won the race. On PostgreSQL the lock query's
        # "key seen?" subquery reads the snapshot taken before the wait, so the resend is then
        # played as a new hand: refused (wrong dealer, game over…) or stopped by the unique key.
        # Either way the first answer, now committed, is the one to give.
        if idempotency_key:
            first = _first_answer(
                by.client,
                idempotency_key,
                game.pk if isinstance(game, Game) else game,
                document_print,
            )
            if first is not None:
                return first
        raise


def _first_answer(client: str, key: str, game_id: int, document_print: str) -> Recorded | None:
    """The stored first answer to ``key``, if any; IdempotencyConflict when the key was used
    for another document (``document_print`` is the new one's fingerprint) or another game."""
    record = IdempotencyRecord.objects.filter(client=client, key=key).first()
    if record is None:
        return None
    if record.fingerprint != document_print or record.game_id != game_id:
        raise IdempotencyConflict(key)
    return Recorded(payload=record.response, replayed=True)


def correct_hands(
    *,
    game: Game | int,
    changes: Mapping[int, Any],
    by: Actor,
    expected_versions: Mapping[int, int] | None = None,
    reason: str = "",
) -> Game:
    """Replace the documents of recorded hands (docs/rules/README.md §9): the game is replayed from
    hand 1; if every hand is valid the new documents and figures are stored, otherwise nothing
    changes and the RuleViolation names the hand that failed. Several hands may change at once.
    """
    with transaction.atomic():
        locked = _locked(game, by)
        _refuse_if_abandoned(locked)
        hands = list(locked.hands.order_by("number"))
        by_number = {h.number: h for h in hands}
        for number in changes:
            if number not in by_number:
                raise HandNotFound(number)
        for number, version in (expected_versions or {}).items():
            if by_number[number].version != version:
                raise VersionConflict(number, by_number[number].version)
        documents = [changes.get(h.number, h.document) for h in hands]
        scored = engine.replay(locked.rules, locked.options, locked.n, documents)
        now = timezone.now()
        changed = []
        for hand, new in zip(hands, scored.hands, strict=True):
            if hand.number in changes and dict(new.document) != hand.document:
                before = {"document": hand.document, "deltas": hand.deltas}
                for column, value in hand_fields(new).items():
                    setattr(hand, column, value)
                hand.version += 1
                hand.updated_at = now
                changed.append((hand, before))
        if not changed:
            return locked
        Hand.objects.bulk_update(
            [h for h, _ in changed], ["document", "deltas", "side_points", "version", "updated_at"]
        )
        was_finished = locked.status == GameStatus.FINISHED
        _cache_fields(locked, scored)
        announce_game_changed(locked, was_finished=was_finished)
        locked.version += 1
        locked.save(update_fields=CACHE_FIELDS)
        AuditEvent.objects.bulk_create(
            AuditEvent(
                club_id=locked.club_id,
                game=locked,
                hand_number=hand.number,
                action=AuditAction.CORRECT_HAND,
                actor=by.user,
                via=by.via,
                at=now,
                before=before,
                after={"document": hand.document, "deltas": hand.deltas},
                reason=reason.strip(),
            )
            for hand, before in changed
        )
    return locked


def correct_hand(
    *,
    game: Game | int,
    number: int,
    document: Any,
    by: Actor,
    expected_version: int | None = None,
    reason: str = "",
) -> Game:
    return correct_hands(
        game=game,
        changes={number: document},
        by=by,
        expected_versions=None if expected_version is None else {number: expected_version},
        reason=reason,
    )


def remove_hand(
    *, game: Game | int, number: int, by: Actor, reason: str, expected_version: int | None = None
) -> Game:
    """Remove a hand (a reason is required); later hands move up one number and the game is
    replayed. Refused, with the hand that fails named in the old numbering, if the replay fails."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked = _locked(game, by)
        _refuse_if_abandoned(locked)
        hands = list(locked.hands.order_by("number"))
        target = next((h for h in hands if h.number == number), None)
        if target is None:
            raise HandNotFound(number)
        if expected_version is not None and target.version != expected_version:
            raise VersionConflict(number, target.version)
        remaining = [h for h in hands if h.number != number]
        try:
            scored = engine.replay(
                locked.rules, locked.options, locked.n, [h.document for h in remaining]
            )
        except RuleViolation as error:
            raise RuleViolation(
                Problem(
                    p.field, p.code, p.params, p.hand + 1 if p.hand and p.hand >= number else p.hand
                )
                for p in error.problems
            ) from None
        target.delete()
        later = locked.hands.filter(number__gt=number)
        # Two steps so that no intermediate state breaks the unique (game, number) constraint.
        later.update(number=F("number") + 1_000_000)
        locked.hands.filter(number__gt=1_000_000).update(number=F("number") - 1_000_001)
        was_finished = locked.status == GameStatus.FINISHED
        _cache_fields(locked, scored)
        announce_game_changed(locked, was_finished=was_finished)
        locked.version += 1
        locked.save(update_fields=CACHE_FIELDS)
        AuditEvent.objects.create(
            club_id=locked.club_id,
            game=locked,
            hand_number=number,
            action=AuditAction.REMOVE_HAND,
            actor=by.user,
            via=by.via,
            before={"document": target.document, "deltas": target.deltas},
            reason=reason.strip(),
        )
    return locked


def abandon_game(*, game: Game | int, by: Actor, reason: str) -> Game:
    """Stop a game for good (players left, cards lost…). Its hands stay readable. Members of
    the club only, not a table link."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked = _locked(game, by, table_link_may=False)
        _refuse_if_abandoned(locked)
        before = {"status": locked.status}
        was_finished = locked.status == GameStatus.FINISHED
        locked.status = GameStatus.ABANDONED
        locked.abandon_reason = reason.strip()
        locked.finished_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "abandon_reason", "finished_at", "version"])
        announce_game_changed(locked, was_finished=was_finished)
        AuditEvent.objects.create(
            club_id=locked.club_id,
            game=locked,
            action=AuditAction.ABANDON_GAME,
            actor=by.user,
            via=by.via,
            before=before,
            after={"status": locked.status},
            reason=reason.strip(),
        )
    return locked


def check_pin(*, link: TableLink, pin: str, max_attempts: int, window_minutes: int) -> bool | None:
    """True for the right PIN, False for a wrong one, None while the link is locked after too
    many wrong PINs (a database counter per game, reset when its window has passed)."""
    with transaction.atomic():
        link = TableLink.objects.select_for_update().get(pk=link.pk)
        now = timezone.now()
        if (
            link.window_started
            and (now - link.window_started).total_seconds() > window_minutes * 60
        ):
            link.failures, link.window_started = 0, None
        if link.failures >= max_attempts:
            link.save(update_fields=["failures", "window_started"])
            return None
        if isinstance(pin, str) and pin.strip() == link.pin:
            link.failures, link.window_started = 0, None
            link.save(update_fields=["failures", "window_started"])
            return True
        link.failures += 1
        link.window_started = link.window_started or now
        link.save(update_fields=["failures", "window_started"])
        return False
