"""A club's players in bulk and their e-mail settings: players added from a list (pasted lines
or a CSV file, read by ``scoring.players_list``), a player's address, language and "receives
results by e-mail" changed by an organizer, and the unsubscribe link of a results e-mail.

Adding from a list is all or nothing: every row is checked first (an address that is not one, a
language the site does not speak, a name too long or listed twice), each refusal naming its
line, and nothing is written while one stands. A name already in the club is not created again:
it is reported (``Added.existing``). All three write in one transaction, audited
(``ADD_PLAYERS``, ``UPDATE_PLAYER``); the club's organizers only, but for the unsubscribe link,
whose signed token is the proof (``scoring.links.unsubscribe_token``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from scoring import links, lookalike
from scoring.models import MANAGERS, AuditAction, Club, Player, Via
from scoring.players_list import Listed
from scoring.rules import Problem, RuleViolation
from scoring.services import audit
from scoring.services.actors import Actor, authorize_club, violation
from scoring.validators import text_problem

NAME_MAX = Player._meta.get_field("display_name").max_length
EMAIL_MAX = Player._meta.get_field("email").max_length
LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


@dataclass(frozen=True)
class Added:
    """What a list added: the new players, and the club's players it named already (not
    created again)."""

    created: list[Player] = field(default_factory=list)
    existing: list[Player] = field(default_factory=list)
    #: The names of ``existing`` as the list wrote them.
    named: list[str] = field(default_factory=list)


def _email_problem(value: str, field_: str, **where: Any) -> Problem | None:
    if len(value) > EMAIL_MAX:
        return Problem(field_, "too_long", {"max": EMAIL_MAX, "value": len(value), **where})
    try:
        validate_email(value)
    except ValidationError:
        reason = {"reason": "list_email"} if where else {}
        return Problem(field_, "invalid", {"value": value, **reason, **where})
    return None


def _row_problems(row: Listed, field_: str, seen: dict[str, int]) -> list[Problem]:
    where = {"line": row.line}
    problems = []
    if not row.name:
        problems.append(Problem(field_, "required", {"reason": "list_name", **where}))
    elif len(row.name) > NAME_MAX:
        params = {"reason": "list_name", "max": NAME_MAX, "value": len(row.name), **where}
        problems.append(Problem(field_, "range", params))
    elif (problem := text_problem(row.name, field_)) is not None:
        problems.append(Problem(field_, problem.code, {**problem.params, **where}))
    elif row.name.lower() in seen:
        params = {"reason": "list_name", "value": row.name, "first": seen[row.name.lower()]}
        problems.append(Problem(field_, "duplicate", {**params, **where}))
    else:
        seen[row.name.lower()] = row.line
    if row.email and (problem := _email_problem(row.email, field_, **where)) is not None:
        problems.append(problem)
    if row.language and row.language not in LANGUAGES:
        params = {"reason": "list_language", "choices": LANGUAGES, "value": row.language}
        problems.append(Problem(field_, "choice", {**params, **where}))
    return problems


def _look_alikes(club: Club, rows: Sequence[Listed], field_: str) -> list[Problem]:
    """The rows whose name reads as a player's of the club, or an earlier row's, without being
    it (``scoring.lookalike``): refused with their line."""
    names = list(Player.objects.filter(club=club).values_list("display_name", flat=True))
    problems = []
    for row in rows:
        try:
            lookalike.refuse(field_, row.name, names, reason="player_name")
        except RuleViolation as refused:
            where = {"reason": "list_name", "line": row.line}
            problems += [Problem(p.field, p.code, {**p.params, **where}) for p in refused.problems]
        names.append(row.name)
    return problems


def add_players(
    *, club: Club, rows: Sequence[Listed], by: Actor, field_name: str = "lines"
) -> Added:
    """The players of ``rows`` added to the club, all or none (see the module docstring).
    ``field_name``: the field the list came in, named by every refusal."""
    authorize_club(by, club, MANAGERS)
    if not rows:
        raise violation(field_name, "required", reason="list_empty")
    seen: dict[str, int] = {}
    problems = [p for row in rows for p in _row_problems(row, field_name, seen)]
    if not problems:
        problems = _look_alikes(club, rows, field_name)
    if problems:
        raise RuleViolation(problems)
    try:
        with transaction.atomic():
            # Folded in Python, as ``seen`` is: SQLite's lower() leaves "É" as it is.
            taken = {player.display_name.lower(): player for player in club.players.all()}
            added = Added()
            for row in rows:
                if row.name.lower() in taken:
                    added.existing.append(taken[row.name.lower()])
                    added.named.append(row.name)
                    continue
                added.created.append(
                    Player.objects.create(
                        club=club, display_name=row.name, email=row.email, language=row.language
                    )
                )
            if added.created:
                audit.record(
                    by,
                    AuditAction.ADD_PLAYERS,
                    club_id=club.pk,
                    after={"players": [p.display_name for p in added.created]},
                )
    except IntegrityError:  # one of the names created meanwhile by another request
        raise violation(field_name, "duplicate", reason="list_taken") from None
    return added


#: What ``update_player`` changes.
PLAYER_SETTINGS = ("email", "language", "results_by_email")


def _checked(changes: dict[str, Any]) -> dict[str, Any]:
    checked = {}
    if "email" in changes:
        email = str(changes["email"] or "").strip()
        if email and (problem := _email_problem(email, "email")) is not None:
            raise RuleViolation([problem])
        checked["email"] = email
    if "language" in changes:
        language = changes["language"] or ""
        if language and language not in LANGUAGES:
            raise violation("language", "choice", choices=LANGUAGES, value=language)
        checked["language"] = language
    if "results_by_email" in changes:
        if not isinstance(changes["results_by_email"], bool):
            raise violation("results_by_email", "type", expected="boolean")
        checked["results_by_email"] = changes["results_by_email"]
    return checked


def _save(player: Player, by: Actor, changes: dict[str, Any]) -> Player:
    with transaction.atomic():
        locked = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
        before = {k: getattr(locked, k) for k in changes if getattr(locked, k) != changes[k]}
        after = {k: changes[k] for k in before}
        if after:
            for name, value in after.items():
                setattr(locked, name, value)
            locked.save(update_fields=list(after))
            audit.record(
                by,
                AuditAction.UPDATE_PLAYER,
                club_id=player.club_id,
                before={"player": player.display_name, **before},
                after={"player": player.display_name, **after},
            )
    for name in PLAYER_SETTINGS:
        setattr(player, name, getattr(locked, name))
    return player


def update_player(*, player: Player, by: Actor, **changes: Any) -> Player:
    """Change a player's e-mail settings (those given, of ``PLAYER_SETTINGS``): an address (blank:
    their account's, if any), a language (blank: the club's) and whether they receive results
    by e-mail. The club's organizers only; audited with the fields that changed."""
    unknown = set(changes) - set(PLAYER_SETTINGS)
    if unknown:
        raise TypeError(f"update_player() got unexpected fields {sorted(unknown)}")
    authorize_club(by, player.club, MANAGERS)
    return _save(player, by, _checked(changes))


def unsubscribe(*, token: str) -> tuple[Player, bool]:
    """Stop the results e-mails of the player a results e-mail's unsubscribe link names: the
    player, and whether they were still receiving them (False: unsubscribed already). A token
    that is not ours raises ``RuleViolation`` (``token``, ``invalid``)."""
    player_id = links.unsubscribed_player(token)
    player = Player.objects.select_related("club").filter(pk=player_id).first()
    if player_id is None or player is None:
        raise violation("token", "invalid", reason="unsubscribe_token")
    was = player.results_by_email
    by = Actor.system(via=Via.PAGE)
    _save(player, by, {"results_by_email": False})
    return player, was
