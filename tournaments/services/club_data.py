"""A club's data as one versioned JSON document, to move a club whole: from one server to another,
into a fresh install, or out of Segnapunti altogether.

The document holds every row that belongs to the club — its settings, members (user names and
e-mail addresses; never passwords or tokens), players, games with every hand, their versions,
statuses, titles, reasons and audit trail, competitions with entries, rounds, tables, seats,
check-ins, byes, adjustments and their event log — and nothing derived that can be recomputed
(standings snapshots) or secret (table links: an imported game gets a new link and PIN) or
transient (idempotency records).

Rows are written generically, field by field, from the models themselves, so a field added to a
model travels without a change here; a model added to any app must be listed in ``TABLES`` or
``LEFT_OUT``, or by its app in ``tournaments.extensions`` (a test checks that every model is in
one of them). Inside the document, rows refer
to each other by reference numbers (their position in their table, in primary-key order), never
by database ids, so a club imports into any database, empty or not, and export → import → export
gives the same document.

Competitions between teams travel whole: team rules, teams, rosters, matches, boards and
lineups. A team may come from a visiting club, and a match may be played at a visiting club's
venue: a reference to a club other than the exported one is written as an object
``{"club": "<slug>", "name": "<name>"}`` instead of a reference number. On import it becomes
the club with that slug on this server if there is one, otherwise the imported club itself (the
team keeps its own name, so the palio still reads the same; exported again, it is then the
club's own team). Only such fields may name another club: in the field that makes a row the
club's (its table's club path: a player's, a game's, a membership's club) the object is refused,
or a document could write into another club of this server. Roster players, captains and
lineups are always players of the host club, so no other foreign reference exists.

The document's version is still 1: these tables were added without changing any other, and a
document written before them (without the team tables) still imports, with no teams.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from scoring.models import Club, Game, Role, TableLink
from scoring.rules import Problem, RuleViolation
from scoring.services.clubs import check_club_address
from scoring.services.ratings import recompute_club
from tournaments.extensions import CLUB_DATA_LEFT_OUT, CLUB_DATA_TABLES
from tournaments.models import Competition
from tournaments.services.standings import store_standings

FORMAT = "segnapunti-club"
VERSION = 1


@dataclass(frozen=True)
class Table:
    """One model's rows in the document: ``club_path`` leads from the model to its club.
    ``label`` names the table in the document; ``model`` is the model's label when it differs
    (a model that moved to another app keeps its table's name, so documents read the same)."""

    label: str
    club_path: str
    model: str = ""

    @property
    def model_label(self) -> str:
        return self.model or self.label


#: The club's tables, parents before children (the order of import).
TABLES = (
    Table("scoring.club", "pk"),  # the club itself (filtered by its primary key)
    Table("scoring.membership", "club"),
    Table("scoring.player", "club"),
    Table("scoring.playertag", "club"),
    Table("scoring.taggedplayer", "tag__club"),
    Table("scoring.game", "club"),
    Table("scoring.seat", "game__club"),
    Table("scoring.hand", "game__club"),
    Table("scoring.auditevent", "club"),
    Table("tournaments.competition", "club"),
    Table("tournaments.entry", "competition__club"),
    Table("tournaments.round", "competition__club"),
    Table("tournaments.checkin", "round__competition__club"),
    Table("tournaments.table", "round__competition__club"),
    Table("tournaments.tableseat", "table__round__competition__club"),
    Table("tournaments.bye", "round__competition__club"),
    Table("tournaments.adjustment", "competition__club"),
    Table("tournaments.competitionevent", "competition__club"),
    Table("tournaments.fee", "competition__club"),
    Table("tournaments.payment", "entry__competition__club"),
    Table("tournaments.prizerules", "competition__club"),
    Table("tournaments.prize", "competition__club"),
)

#: Models of scoring and the competitions that the document leaves out, and why.
LEFT_OUT = {
    "scoring.tablelink": "secret: an imported game gets a new table link and PIN",
    "scoring.idempotencyrecord": "transient: first answers kept for phones that resend",
    "scoring.idempotentrequest": "transient: first answers kept for clients that resend",
    "scoring.pendingtask": "transient: tasks waiting for the broker, run within a minute",
    "scoring.formsubmission": "transient: one-time tokens of forms already sent",
    "scoring.pushsubscription": "a device's, not the club's: a player turns notifications on again",
    "scoring.pushreceipt": "transient: which Web Push messages each device was already sent",
    "scoring.guesscounter": "transient: wrong guesses counted while the cache was down, forgotten",
    "tournaments.standingssnapshot": "derived: recomputed from the games after an import",
    "scoring.rating": "derived: recomputed from the games after an import",
    "scoring.ratingstep": "derived: recomputed from the games after an import",
    "scoring.invitation": "secret: pending invitations carry tokens; invite again after an import",
    "scoring.playerclaim": "transient: a claim's outcome travels as the player's account",
    "tournaments.resultsmail": "transient: which results e-mails were already sent",
    "tournaments.directorcall": "transient: a table's call of the director, answered that "
    "evening; each call and its answers travel in the competition's events",
}

#: What travels of a user: enough to find or create the account, never a password or a token.
USER_FIELDS = ("username", "email", "first_name", "last_name")


def all_tables() -> tuple[Table, ...]:
    """Every table of the document: the competitions' own, then those the apps built on them
    add (``tournaments.extensions.CLUB_DATA_TABLES``: a palio's teams, matches and lineups)."""
    return TABLES + tuple(CLUB_DATA_TABLES)


def all_left_out() -> dict[str, str]:
    """Every model left out of the document, and why (the apps' too)."""
    return LEFT_OUT | CLUB_DATA_LEFT_OUT


def _model(label: str) -> type[models.Model]:
    return apps.get_model(label)


def _fields(model: type[models.Model]) -> list[models.Field]:
    """The concrete fields of ``model`` that the document carries (all but the primary key)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _plain(value: Any) -> Any:
    """A field value as JSON."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, bytes | memoryview):
        return base64.b64encode(bytes(value)).decode()
    return value


# -- export ----------------------------------------------------------------------------------------


def export_club(*, club: Club) -> dict[str, Any]:
    """The club's document (see the module docstring)."""
    user_model = get_user_model()
    refs: dict[str, dict[int, int]] = {}
    users: dict[int, int] = {}
    user_rows: list[dict[str, Any]] = []

    def user_ref(pk: int | None) -> int | None:
        if pk is None:
            return None
        if pk not in users:
            account = user_model.objects.get(pk=pk)
            users[pk] = len(user_rows) + 1
            user_rows.append({name: getattr(account, name) for name in USER_FIELDS})
        return users[pk]

    tables: dict[str, list[dict[str, Any]]] = {}
    for table in all_tables():
        model = _model(table.model_label)
        rows = model.objects.filter(**{table.club_path: club.pk}).order_by("pk")
        refs[table.model_label] = {}
        out = []
        for position, row in enumerate(rows, start=1):
            refs[table.model_label][row.pk] = position
            out.append(_export_row(row, refs, user_ref))
        tables[table.label] = out
    return {"format": FORMAT, "version": VERSION, "users": user_rows, "tables": tables}


def _export_row(
    row: models.Model, refs: dict[str, dict[int, int]], user_ref: Callable[[int | None], int | None]
) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for field in _fields(type(row)):
        value = field.value_from_object(row)
        if field.is_relation:
            target = field.related_model._meta.label_lower
            if field.related_model is get_user_model():
                value = user_ref(value)
            elif field.related_model is Club and value is not None and value not in refs[target]:
                value = _foreign_club(value)
            elif value is not None:
                value = refs[target][value]
        data[field.name] = _plain(value)
    return data


def _foreign_club(pk: int) -> dict[str, str]:
    """A club other than the exported one (a visiting team's, a venue's), by slug and name."""
    slug, name = Club.objects.filter(pk=pk).values_list("slug", "name").get()
    return {"club": slug, "name": name}


# -- import ----------------------------------------------------------------------------------------


def _refuse(field: str, code: str, **params: Any) -> RuleViolation:
    return RuleViolation([Problem(field, code, params)])


def _check_document(document: Any) -> dict[str, Any]:
    """The document's envelope, before any row is read."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refuse("format", "not_allowed", reason="not_a_club_document")
    if document.get("version") != VERSION:
        raise _refuse(
            "version", "not_allowed", reason="club_document_version", value=document.get("version")
        )
    given = document.get("tables")
    if not isinstance(given, dict) or not isinstance(document.get("users"), list):
        raise _refuse("tables", "inconsistent", reason="club_document_broken", value="tables")
    unknown = set(given) - {t.label for t in all_tables()}
    if unknown:
        raise _refuse(
            "tables",
            "inconsistent",
            reason="club_document_broken",
            value=", ".join(sorted(unknown)),
        )
    clubs = given.get("scoring.club")
    if not isinstance(clubs, list) or len(clubs) != 1 or not isinstance(clubs[0], dict):
        raise _refuse("tables", "inconsistent", reason="club_document_broken", value="scoring.club")
    return document


def import_club(
    *, document: Any, slug: str | None = None, owner=None, keep_accounts: bool = True
) -> Club:
    """Create the club of ``document`` (a new slug may be given) with all its rows, in one
    transaction. Users are matched by user name, or created without a usable password (they set
    one through "forgotten password"). With ``keep_accounts`` false, the accounts that already
    exist here are not attached to the club (``accounts_already_here``): no membership, no
    player linked to them (a copy of a club on its own server, whose "My games" would otherwise
    list every game twice); what they did stays in the history. ``owner``, if given and not
    already a member, becomes an owner of the imported club. Raises RuleViolation for a document
    that cannot be imported (wrong format or version, a slug already taken or invalid, a row
    that breaks a constraint, a club left without an owner)."""
    document = _check_document(document)
    club_row = document["tables"]["scoring.club"][0]
    slug = slug or club_row.get("slug")
    check_club_address(slug)
    if Club.objects.filter(slug=slug).exists():
        raise _refuse("slug", "duplicate", reason="club_slug", value=slug)
    try:
        with transaction.atomic():
            users, existing = _import_users(document["users"])
            left_out = set() if keep_accounts else existing
            refs: dict[str, dict[int, int]] = {}
            for table in all_tables():
                rows = _unattached(table.label, document["tables"].get(table.label, []), left_out)
                overrides = {"slug": slug} if table.label == "scoring.club" else {}
                refs[table.model_label] = _import_rows(table, rows, refs, users, overrides)
            club = Club.objects.get(pk=refs["scoring.club"][1])
            games = Game.objects.filter(club=club)
            TableLink.objects.bulk_create(TableLink(game=game) for game in games)
            if owner is not None and not club.memberships.filter(user=owner).exists():
                club.memberships.create(user=owner, role=Role.OWNER)
            if not club.memberships.filter(role=Role.OWNER).exists():
                raise _refuse("owner", "required", reason="club_import_owner")
    except (
        KeyError,
        TypeError,
        ValueError,
        LookupError,
        ValidationError,
        IntegrityError,
    ) as broken:
        raise _refuse(
            "tables", "inconsistent", reason="club_document_broken", value=str(broken)[:200]
        ) from None
    for competition in Competition.objects.filter(club=club):
        store_standings(competition=competition)
    recompute_club(club=club.pk)
    return club


def accounts_already_here(document: Any) -> list[str]:
    """The user names of ``document`` that already have an account on this server (those that
    ``import_club(keep_accounts=False)`` leaves unattached), sorted; [] for a broken document."""
    rows = document.get("users") if isinstance(document, dict) else None
    names = [r.get("username") for r in rows or () if isinstance(r, dict)]
    found = get_user_model().objects.filter(username__in=[n for n in names if isinstance(n, str)])
    return sorted(found.values_list("username", flat=True))


def _import_users(rows: list[dict[str, Any]]) -> tuple[dict[int, int], set[int]]:
    """Reference number → account, and the reference numbers of the accounts that were here
    already."""
    user_model = get_user_model()
    users: dict[int, int] = {}
    existing: set[int] = set()
    for position, row in enumerate(rows, start=1):
        values = {name: row.get(name) or "" for name in USER_FIELDS}
        account = user_model.objects.filter(username=values["username"]).first()
        if account is None:
            account = user_model(**values)
            account.set_unusable_password()
            account.full_clean(exclude=["password"])
            account.save()
        else:
            existing.add(position)
        users[position] = account.pk
    return users, existing


def _unattached(label: str, rows: Any, accounts: set[int]) -> Any:
    """``rows`` without the links that attach ``accounts`` (reference numbers) to the club:
    their memberships are left out and the players linked to them unlinked. (No row refers to
    a membership, so leaving some out renumbers nothing that is used.)"""
    if not accounts or not isinstance(rows, list):
        return rows
    if label == "scoring.membership":
        return [r for r in rows if not (isinstance(r, dict) and r.get("user") in accounts)]
    if label == "scoring.player":
        return [
            r | {"user": None} if isinstance(r, dict) and r.get("user") in accounts else r
            for r in rows
        ]
    return rows


def _club_here(
    value: dict[str, Any], refs: dict[str, dict[int, int]], table: Table, name: str
) -> int:
    """The club here for a foreign club object ``{"club": slug, "name": name}`` in field
    ``name`` of ``table``: the club with that slug on this server, otherwise the imported
    club itself. Never in the field that makes the row the club's (its table's club path: a
    player's, a game's, a membership's club), or a document could write into another club."""
    slug, shown = value.get("club"), value.get("name")
    if (
        set(value) != {"club", "name"}
        or not (isinstance(slug, str) and slug)
        or not isinstance(shown, str)
        or table.club_path.split("__")[0] == name
    ):
        raise _refuse(
            "tables", "inconsistent", reason="club_document_broken", value=f"{table.label}.{name}"
        )
    found = Club.objects.filter(slug=slug).values_list("pk", flat=True).first()
    return found if found is not None else refs["scoring.club"][1]


def _import_rows(
    table: Table,
    rows: list[dict[str, Any]],
    refs: dict[str, dict[int, int]],
    users: dict[int, int],
    overrides: dict[str, Any],
) -> dict[int, int]:
    """Insert one table's rows in bulk (primary keys come back on PostgreSQL and SQLite) and
    return reference number → new primary key."""
    model = _model(table.model_label)
    fields = _fields(model)
    known = {f.name for f in fields}
    # ``auto_now_add`` stamps the time of the insert: the original times are written back after.
    stamped = [
        f.attname
        for f in fields
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
    ]
    instances = []
    for row in rows:
        unknown = set(row) - known
        if unknown:
            raise _refuse(
                "tables",
                "inconsistent",
                reason="club_document_broken",
                value=f"{table.label}: {sorted(unknown)}",
            )
        values: dict[str, Any] = {}
        for field in fields:
            if field.name not in row and field.name not in overrides:
                continue
            value = overrides.get(field.name, row.get(field.name))
            if not field.is_relation:
                values[field.attname] = None if value is None else field.to_python(value)
            elif value is None:
                values[field.attname] = None
            elif field.related_model is get_user_model():
                values[field.attname] = users[value]
            elif field.related_model is Club and isinstance(value, dict):
                values[field.attname] = _club_here(value, refs, table, field.name)
            else:
                values[field.attname] = refs[field.related_model._meta.label_lower][value]
        instances.append(model(**values))
    originals = [{name: getattr(i, name) for name in stamped} for i in instances]
    model.objects.bulk_create(instances)
    for instance, values in zip(instances, originals, strict=True):
        if values:
            model.objects.filter(pk=instance.pk).update(**values)
    return {position: i.pk for position, i in enumerate(instances, start=1)}
