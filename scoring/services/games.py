"""A game's life outside its hands: starting one (players matched or created, seats, imported
hands replayed and stored, its table link), importing a whole game document, and abandoning it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from scoring import selectors
from scoring.etags import Tag, game_tag
from scoring.models import (
    MANAGERS,
    AuditAction,
    Club,
    Game,
    GameStatus,
    Hand,
    Player,
    Seat,
    TableLink,
)
from scoring.rules import RULESETS, RuleViolation, engine
from scoring.rules.base import Problems, Reader
from scoring.services import audit
from scoring.services._game_row import (
    CACHE_FIELDS,
    _cache_fields,
    _locked,
    _refuse_if_abandoned,
    _refuse_if_locked,
    refuse_unfinishing,
)
from scoring.services.actors import Actor, Conflict, VersionConflict, authorize_club, violation
from scoring.services.clubs import new_player
from scoring.services.hands import hand_row
from scoring.signals import announce_game_changed, publish_game
from scoring.validators import text_problem


def _match_players(club: Club, entries: Sequence[Any]) -> list[Player | str]:
    """The club's players for ``entries`` (Player, id or name), or the cleaned new names.
    Raises RuleViolation for unknown ids, blanks and a player listed twice. Creates nothing."""
    problems = Problems()
    # An id no database column holds matches no player (and is never sent to the database).
    ids = [e for e in entries if isinstance(e, int) and not isinstance(e, bool) and 0 < e < 2**63]
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
            control = text_problem(name, path)
            if control is not None:
                problems.items.append(control)
                continue
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


def _checked_start(club: Club, ruleset, players, options, title, first_dealer):
    """The ruleset, the resolved options and the players matched (a Player or a new name) of a
    game about to start; a RuleViolation listing every problem otherwise."""
    problems = Problems()
    rules = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    if rules is None:
        problems.add("ruleset", "choice", choices=tuple(RULESETS), value=ruleset)
    if not isinstance(players, list | tuple):
        problems.add("players", "type", expected="list")
    problems.raise_if_any()
    assert rules is not None
    resolved_options: dict[str, Any] = {}
    try:
        resolved_options = rules.resolve_options(options, len(players))
    except RuleViolation as error:
        problems.items.extend(error.problems)
    matched: list[Player | str] = []
    try:
        matched = _match_players(club, players)
    except RuleViolation as error:
        problems.items.extend(error.problems)
    if (control := text_problem(title, "title")) is not None:
        problems.items.append(control)
    if first_dealer is not None and (
        not isinstance(first_dealer, int)
        or isinstance(first_dealer, bool)
        or not 0 <= first_dealer < len(players)
    ):
        problems.add("first_dealer", "range", min=0, max=len(players) - 1, value=first_dealer)
    problems.raise_if_any()
    return rules, resolved_options, matched


def start_game(
    *,
    club: Club,
    ruleset: str,
    players: Sequence[Any],
    by: Actor,
    options: Mapping[str, Any] | None = None,
    hands: Iterable[Any] = (),
    title: str = "",
    context: str = "",
    first_dealer: int | None = None,
    hands_need_acceptance: bool = False,
) -> Game:
    """A new game of ``ruleset`` with ``players`` in seat order (Player, id, or a new name).
    ``first_dealer``: the seat decided to deal hand 1 (a competition's draw), else anyone may.
    ``hands`` (an import) are replayed and stored too. Raises RuleViolation listing every
    problem; nothing is created then."""
    authorize_club(by, club)
    rules, resolved_options, matched = _checked_start(
        club, ruleset, players, options, title, first_dealer
    )
    hands = list(hands)
    scored = engine.replay(rules, resolved_options, len(players), hands)
    action = AuditAction.IMPORT_GAME if hands else AuditAction.START_GAME
    with transaction.atomic():
        seated = [p if isinstance(p, Player) else new_player(club, p) for p in matched]
        game = Game(
            club=club,
            ruleset=rules.key,
            options=resolved_options,
            title=title.strip(),
            created_by=by.user,
            context=context,
            first_dealer=first_dealer,
            hands_need_acceptance=bool(hands_need_acceptance),
        )
        _cache_fields(game, scored)
        game.last_hand_serial = len(scored.hands)  # an import's hands: serials 1, 2, 3...
        game.save()
        sides = rules.sides(resolved_options, len(players))
        side_of = {seat: i for i, side in enumerate(sides or ()) for seat in side}
        Seat.objects.bulk_create(
            Seat(game=game, index=i, player=p, side=side_of.get(i) if sides else None)
            for i, p in enumerate(seated)
        )
        now = timezone.now()
        Hand.objects.bulk_create(
            hand_row(game=game, scored_hand=h, by=by, serial=h.number, at=now) for h in scored.hands
        )
        TableLink.objects.create(game=game)
        if game.status == GameStatus.FINISHED:  # an import of a whole game: ratings follow
            announce_game_changed(game, was_finished=False, change="start")
        audit.record(
            by,
            action,
            club_id=club.pk,
            game=game,
            after=selectors.export_game(
                game, [p.display_name for p in seated], [dict(h.document) for h in scored.hands]
            ),
        )
    return game


def import_game(
    *, club: Club, document: Any, by: Actor, hands_need_acceptance: bool = False
) -> Game:
    """A whole game document (``{"ruleset", "options", "players", "hands"}``) stored at once.
    The caller is authorised before the document is read: an outsider learns nothing from it."""
    authorize_club(by, club)
    problems = Problems()
    doc = Reader.of(document, problems, "")
    if doc is None:
        raise RuleViolation(problems.items)
    doc.only(engine.GAME_KEYS + engine.GAME_RECORD_KEYS)
    players = doc.read_list("players")
    hands = doc.read_list("hands", required=False)
    title = doc.obj.get("title", "")
    if not isinstance(title, str):
        problems.add("title", "type", expected="string")
    if "ruleset" not in doc.obj:
        problems.add("ruleset", "required")
    status = doc.read_choice("status", tuple(GameStatus.values), required=False)
    reason = doc.obj.get("abandon_reason")
    if status == GameStatus.ABANDONED and not (isinstance(reason, str) and reason.strip()):
        problems.add("abandon_reason", "required")
    elif status != GameStatus.ABANDONED and reason is not None:
        problems.add("abandon_reason", "not_allowed")
    problems.raise_if_any()
    with transaction.atomic():
        game = start_game(
            club=club,
            ruleset=doc.obj["ruleset"],
            players=players,
            options=doc.obj.get("options"),
            hands=hands or (),
            title=title,
            by=by,
            hands_need_acceptance=hands_need_acceptance,
        )
        if status == GameStatus.ABANDONED:
            game = abandon_game(game=game, by=by, reason=reason)
        elif status is not None and status != game.status:
            # The hands decide whether a game is finished: a document that says otherwise
            # contradicts itself, and nothing is stored.
            raise violation("status", "inconsistent", value=status, expected=game.status)
    return game


def abandon_game(
    *, game: Game | int, by: Actor, reason: str, expected: Collection[Tag] | None = None
) -> Game:
    """Stop a game for good (players left, cards lost…). Its hands stay readable. Members of
    the club only, not a table link. ``expected``: the game's validators the client read
    (``scoring.etags``); unless one names the game at its version, ``VersionConflict``."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked = _locked(game, by, table_link_may=False)
        if expected is not None and game_tag(locked) not in expected:
            raise VersionConflict(locked.pk, locked.version, reason="game")
        _refuse_if_abandoned(locked)
        _refuse_if_locked(locked)
        refuse_unfinishing(locked)
        before = {"status": locked.status}
        was_finished = locked.status == GameStatus.FINISHED
        locked.status = GameStatus.ABANDONED
        locked.abandon_reason = reason.strip()
        locked.finished_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "abandon_reason", "finished_at", "version"])
        announce_game_changed(locked, was_finished=was_finished, change="status")
        audit.record(
            by,
            AuditAction.ABANDON_GAME,
            club_id=locked.club_id,
            game=locked,
            before=before,
            after={"status": locked.status},
            reason=reason.strip(),
        )
    return locked


def reseat_game(
    *,
    game: Game | int,
    players: Sequence[Any],
    by: Actor,
    reason: str,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """Seat other players at a game that has no hand yet (a competition's table changed after
    its round was published): the same game, so its page and its table link (and the phones
    holding it) stay, with ``players`` in seat order, one fewer or more if the ruleset allows
    (``options``: the house rules to resolve again for that number, else the game's own).
    Refused once a hand was entered (``game: has_hands``), and for an abandoned or locked game.
    Managers of the club only. Audited with the seats before and after. When the seats change,
    the game's ``seating`` goes up by one: a hand typed for the seats before is refused."""
    if not isinstance(reason, str) or not reason.strip():
        raise violation("reason", "required")
    with transaction.atomic():
        locked = _locked(game, by, table_link_may=False, roles=MANAGERS)
        _refuse_if_abandoned(locked)
        _refuse_if_locked(locked)
        if locked.hands.exists():
            raise Conflict("game", "has_hands")
        rules = RULESETS[locked.ruleset]
        given = locked.options if options is None else options
        _rules, resolved, matched = _checked_start(
            locked.club, locked.ruleset, list(players), given, locked.title, None
        )
        was = list(locked.seats.select_related("player"))
        seated = [p if isinstance(p, Player) else new_player(locked.club, p) for p in matched]
        locked.seats.all().delete()
        sides = rules.sides(resolved, len(seated))
        side_of = {seat: i for i, side in enumerate(sides or ()) for seat in side}
        Seat.objects.bulk_create(
            Seat(game=locked, index=i, player=p, side=side_of.get(i) if sides else None)
            for i, p in enumerate(seated)
        )
        locked.options = resolved
        if locked.first_dealer is not None and locked.first_dealer >= len(seated):
            locked.first_dealer = 0
        _cache_fields(locked, engine.replay(rules, resolved, len(seated), ()))
        locked.version += 1
        # Other players, or the same in other seats: a hand typed for the seats before is
        # refused from now on (``hands.record_hand``); the audit event names the seating it
        # made, to say who replaced whom.
        if [(p.pk, side_of.get(i)) for i, p in enumerate(seated)] != [
            (s.player_id, s.side) for s in was
        ]:
            locked.seating += 1
        locked.save(update_fields=[*CACHE_FIELDS, "options", "first_dealer", "seating"])
        publish_game(locked, "reseat")
        audit.record(
            by,
            AuditAction.RESEAT_GAME,
            club_id=locked.club_id,
            game=locked,
            before={"players": [s.player.display_name for s in was]},
            after={"players": [p.display_name for p in seated], "seating": locked.seating},
            reason=reason.strip(),
        )
    return locked


def rematch(*, game: Game, by: Actor) -> Game:
    """A new game of the same ruleset with the same players in the same seats and the same
    options and title, once ``game`` is finished (audited as any game started; its context
    names the game it follows). Not a game an app started for its own purposes (a competition's
    table: its next game is its round's), which would otherwise repeat outside the competition."""
    if game.status != GameStatus.FINISHED:
        raise violation("game", "not_finished")
    if game.context:
        raise violation("game", "not_allowed", reason="app_game")
    players = [seat.player for seat in game.seats.select_related("player").order_by("index")]
    return start_game(
        club=game.club,
        ruleset=game.ruleset,
        players=players,
        options=game.options,
        title=game.title,
        by=by,
    )
