"""Creating a competition, changing its settings, and declaring its results final.

``create_competition`` checks every field at once (one ``RuleViolation`` naming each bad field)
and checks the house rules against every number of players a game may have
(``Competition.game_sizes``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring import services as scoring
from scoring.models import Club, Game, LockReason
from scoring.rules import RULESETS, RuleViolation
from scoring.rules.base import Problems
from scoring.services import Actor, Locked, queue, violation
from tournaments import standings as pure
from tournaments.models import (
    BRACKET_FORMATS,
    STAGE_LENGTHS,
    Competition,
    Format,
    Kind,
    RoundStatus,
)
from tournaments.services._common import (
    lock,
    record_event,
    require_manager,
    required_reason,
)
from tournaments.services.stages import check_stage
from tournaments.services.standings import refresh_standings_later

NAME_MAX = Competition._meta.get_field("name").max_length


def unlike_units_problems(problems, rulesets: Sequence[str], scheme: str, tie_breaks) -> None:
    """A league mixing games may not add up the games' own figures (a Terziglio total and a
    Briscola count of hands won are not the same unit): refused as the scheme or on the
    tie-break's own row."""
    if len(set(rulesets)) < 2:
        return
    if scheme == "game_score":
        problems.add("scheme", "inconsistent", reason="unlike_units")
    for index, key in enumerate(tie_breaks):
        if key in pure.GAME_UNIT_TIE_BREAKS:
            problems.add(f"tie_breaks[{index}]", "inconsistent", reason="unlike_units")


def create_competition(
    *,
    club: Club,
    by: Actor,
    name: str,
    rulesets: Sequence[str],
    kind: str = Kind.TOURNAMENT,
    format: str = Format.ROTATION,
    options: Mapping[str, Any] | None = None,
    slug: str = "",
    table_size: int | None = None,
    min_table_size: int | None = None,
    max_table_size: int | None = None,
    planned_rounds: int | None = None,
    double_round: bool = False,
    third_place: bool = False,
    bracket_reset: bool = True,
    cut_to: int | None = None,
    early_rounds_hands_to_win: int | None = None,
    semi_final_hands_to_win: int | None = None,
    final_hands_to_win: int | None = None,
    scheme: str = pure.DEFAULT_SCHEME,
    placement_points: Mapping[str, Sequence[Any]] | None = None,
    tie_breaks: Sequence[str] | None = None,
    best_of: int | None = None,
    min_rounds: int = 0,
    start_date: dt.date | None = None,
    end_date: dt.date | None = None,
    public: bool = True,
    notify_entrants: bool = False,
    description: str = "",
    hands_must_be_accepted: bool = False,
) -> Competition:
    """A new league or tournament. Raises RuleViolation naming every bad field."""
    require_manager(by, club)
    problems = Problems()
    # The arguments named in ``CHECKED``, as given (all of them are parameters of this function).
    checked = _check_settings(problems, {k: v for k, v in locals().items() if k in CHECKED})
    slug = _check_slug(problems, club, slug, checked["name"])
    rulesets, options = _check_games(problems, kind, format, rulesets, options)
    _check_table_range(problems, rulesets, checked)
    unlike_units_problems(problems, rulesets, scheme, checked["tie_breaks"])
    _check_cut(problems, format, rulesets, cut_to, planned_rounds)
    check_stage(problems, format, cut_to, checked | {"third_place": third_place})
    problems.raise_if_any()
    sizes = {k: checked[k] for k in ("table_size", "min_table_size", "max_table_size")}
    _check_house_rules(Competition(club=club, kind=kind, format=format, **sizes), rulesets, options)
    with transaction.atomic():
        # The club's row, locked: of two competitions created at once under one address, the
        # second sees the first (and is told) instead of failing on the unique constraint.
        Club.objects.select_for_update(no_key=True).only("pk").get(pk=club.pk)
        if Competition.objects.filter(club=club, slug=slug).exists():
            raise violation("slug", "duplicate", value=slug)
        competition = Competition.objects.create(
            club=club,
            slug=slug,
            kind=kind,
            rulesets=rulesets,
            options={k: dict(v) for k, v in options.items()},
            format=format,
            double_round=double_round,
            third_place=third_place,
            bracket_reset=bool(bracket_reset),
            cut_to=cut_to,
            public=public,
            notify_entrants=notify_entrants,
            description=description,
            hands_must_be_accepted=bool(hands_must_be_accepted),
            created_by=by.user,
            **checked,
        )
        record_event(competition, by, "create_competition", name=checked["name"])
    return competition


def _check_slug(problems: Problems, club: Club, slug: str, name: str) -> str:
    """The address of a new competition (made from its name when empty): free in the club."""
    slug = slugify(slug or name)[:60]
    if name and not slug:
        problems.add("slug", "required")
    elif slug and Competition.objects.filter(club=club, slug=slug).exists():
        problems.add("slug", "duplicate", value=slug)
    return slug


def _check_games(
    problems: Problems, kind: str, format: str, rulesets, options
) -> tuple[list[str], dict[str, Any]]:
    """The kind, the format, the games and their house rules of a new competition: several games
    only in a league, two-sided formats for Briscola only, house rules only for games played.
    Returns the games as a list and the house rules that say anything."""
    if kind not in Kind.values:
        problems.add("kind", "choice", choices=tuple(Kind.values), value=kind)
    if format not in Format.values:
        problems.add("format", "choice", choices=tuple(Format.values), value=format)
    rulesets = list(rulesets or [])
    if not rulesets:
        problems.add("rulesets", "required")
    for index, key in enumerate(rulesets):
        if key not in RULESETS:
            problems.add(f"rulesets[{index}]", "choice", choices=tuple(RULESETS), value=key)
    if len(set(rulesets)) != len(rulesets):
        problems.add("rulesets", "duplicate", value=", ".join(rulesets))
    if len(rulesets) > 1 and kind != Kind.LEAGUE:
        problems.add("rulesets", "inconsistent", reason="mixed_needs_league")
    if options is not None and not isinstance(options, Mapping):
        problems.add("options", "type", expected="object")
        options = {}
    options = {k: v for k, v in (options or {}).items() if v}
    for key, value in options.items():
        if key not in rulesets:
            problems.add(f"options.{key}", "unknown_key")
        elif not isinstance(value, Mapping):
            problems.add(f"options.{key}", "type", expected="object")
    if format in (Format.ROUND_ROBIN, *BRACKET_FORMATS) and rulesets != ["briscola"]:
        problems.add("format", "inconsistent", reason="two_sided_needs_briscola")
    return rulesets, options


def _check_house_rules(draft: Competition, rulesets: list[str], options: dict[str, Any]) -> None:
    """The house rules of each game, checked at every number of players a game of the
    ``draft`` competition may have (``Competition.game_sizes``); one RuleViolation naming
    each bad option."""
    draft.rulesets, draft.options = rulesets, options
    problems = Problems()
    for key in rulesets:
        if not isinstance(options.get(key) or {}, Mapping):
            continue
        for n in draft.game_sizes(key):
            try:
                RULESETS[key].resolve_options(options.get(key) or {}, n)
            except RuleViolation as error:
                for p in error.problems:
                    path = p.field.replace("options", f"options.{key}", 1)
                    problems.add(path, p.code, **dict(p.params))
                break
    problems.raise_if_any()


def _check_cut(problems: Problems, format: str, rulesets, cut_to, planned_rounds) -> None:
    """A Swiss that ends in a knockout of its top ``cut_to``: Briscola (a knockout seats two
    sides), with the number of Swiss rounds planned."""
    if cut_to is None:
        return
    if not isinstance(cut_to, int) or isinstance(cut_to, bool) or not 2 <= cut_to <= CUT_MAX:
        problems.add("cut_to", "range", min=2, max=CUT_MAX, value=cut_to)
    elif format != Format.SWISS:
        problems.add("cut_to", "inconsistent", reason="cut_needs_swiss")
    elif list(rulesets) != ["briscola"]:
        problems.add("cut_to", "inconsistent", reason="cut_needs_briscola")
    elif not planned_rounds:
        problems.add("planned_rounds", "required", reason="cut_needs_rounds")


#: The largest knockout a Swiss may cut to.
CUT_MAX = 256


def _check_settings(problems: Problems, settings: Mapping[str, Any]) -> dict[str, Any]:
    """Check the settings a competition is created with and may change later (``CHECKED``; each
    problem added to ``problems``); return them cleaned: the name's spaces collapsed, the
    tie-breaks a list (the default ones when none is given), the placement points as stored and
    the attendance 0 when not given."""
    name = " ".join(str(settings["name"] or "").split())
    if not name:
        problems.add("name", "required")
    elif len(name) > NAME_MAX:
        problems.add("name", "range", min=1, max=NAME_MAX, value=len(name))
    scheme = settings["scheme"]
    if scheme not in pure.SCHEMES:
        problems.add("scheme", "choice", choices=tuple(pure.SCHEMES), value=scheme)
    ties = settings["tie_breaks"]
    tie_breaks = list(ties if ties is not None else pure.DEFAULT_TIE_BREAKS)
    for index, key in enumerate(tie_breaks):
        if key not in pure.TIE_BREAKS:
            problems.add(
                f"tie_breaks[{index}]", "choice", choices=tuple(pure.TIE_BREAKS), value=key
            )
    if len(set(tie_breaks)) != len(tie_breaks):
        problems.add("tie_breaks", "duplicate", value=", ".join(tie_breaks))
    for field_, lo, hi in (
        ("table_size", 2, 8),
        ("min_table_size", 2, 8),
        ("max_table_size", 2, 8),
        ("planned_rounds", 1, 60),
        ("best_of", 1, 100),
        ("min_rounds", 0, 100),
    ):
        value = settings[field_]
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi
        ):
            problems.add(field_, "range", min=lo, max=hi, value=value)
    start_date, end_date = settings["start_date"], settings["end_date"]
    if start_date and end_date and end_date < start_date:
        problems.add("end_date", "inconsistent", reason="ends_before_it_starts")
    return {key: settings[key] for key in CHECKED} | {
        "name": name,
        "tie_breaks": tie_breaks,
        "min_rounds": settings["min_rounds"] or 0,
        "placement_points": _placement_points(problems, settings["placement_points"]),
    }


def _check_table_range(problems: Problems, rulesets, settings: Mapping[str, Any]) -> None:
    """The smallest and largest table (checked in range by ``_check_settings``): in order, the
    preferred size between them, and each game left at least one of its own sizes."""
    low, high, preferred = (settings[k] for k in ("min_table_size", "max_table_size", "table_size"))
    if {p.field for p in problems.items} & {"min_table_size", "max_table_size", "table_size"}:
        return
    if low is not None and high is not None and low > high:
        problems.add("max_table_size", "inconsistent", reason="largest_below_smallest")
        return
    if preferred is not None and not (low or 2) <= preferred <= (high or 8):
        problems.add("table_size", "inconsistent", reason="preferred_out_of_range")
    draft = Competition(min_table_size=low, max_table_size=high)
    for key in rulesets:
        rules = RULESETS.get(key)
        if rules is not None and not draft.table_range(key):
            field = (
                "min_table_size" if low is not None and low > rules.max_seats else "max_table_size"
            )
            problems.add(
                field,
                "inconsistent",
                reason="no_table_of_game",
                game=rules.name,
                min=rules.min_seats,
                max=rules.max_seats,
            )


def _placement_points(problems: Problems, placement_points) -> dict[str, list[Any]] | None:
    """The placement points per table size as stored (``{"3": [4, 2, 0]}``), each size's
    list as long as the size; None when there are none."""
    if not placement_points:
        return None
    points_table = {}
    for size, points in placement_points.items():
        try:
            size_ = int(size)
            values = [float(p) for p in points]
        except (TypeError, ValueError):
            problems.add(f"placement_points.{size}", "type", expected="list")
            continue
        if not 2 <= size_ <= 8 or len(values) != size_:
            problems.add(f"placement_points.{size}", "length", expected=size_, value=len(values))
            continue
        points_table[str(size_)] = [int(v) if v.is_integer() else v for v in values]
    return points_table


#: The settings checked alike when a competition is created and when they change.
CHECKED = (
    "name",
    "scheme",
    "tie_breaks",
    "table_size",
    "min_table_size",
    "max_table_size",
    "planned_rounds",
    "best_of",
    "min_rounds",
    "start_date",
    "end_date",
    "placement_points",
    *STAGE_LENGTHS,
)
#: Settings that change the standings already counted (``update_competition`` asks to confirm).
COUNTED = ("scheme", "placement_points", "tie_breaks", "best_of", "min_rounds")
#: Settings ``update_competition`` changes; the kind, format, games and address stay.
EDITABLE = (
    "name",
    "description",
    "table_size",
    "min_table_size",
    "max_table_size",
    "planned_rounds",
    "double_round",
    "third_place",
    "bracket_reset",
    "cut_to",
    *STAGE_LENGTHS,
    *COUNTED,
    "start_date",
    "end_date",
    "public",
    "notify_entrants",
)


def update_competition(
    *, competition: Competition, by: Actor, confirm: bool = False, **changes: Any
) -> list[str]:
    """Change the settings of a competition (``EDITABLE``; arguments left out keep their value)
    and return the names of those that changed. A change of how standings are counted
    (``COUNTED``) once a round is played is refused unless ``confirm``: the standings are then
    computed again (the snapshot refreshed after commit). Audited with the values before and
    after."""
    require_manager(by, competition.club)
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise violation(unknown[0], "unknown_key")
    with transaction.atomic():
        row = lock(competition)
        current = {key: getattr(row, key) for key in EDITABLE}
        wanted = _checked_changes(row, current, current | changes)
        changed = [key for key in EDITABLE if wanted[key] != current[key]]
        counted = [key for key in changed if key in COUNTED]
        played = row.rounds.exclude(status=RoundStatus.DRAFT).exists()
        if counted and played and not confirm:
            raise violation("confirm", "required", reason="counted_results")
        if not changed:
            return []
        for key in changed:
            setattr(row, key, wanted[key])
        row.save(update_fields=changed)
        record_event(
            row,
            by,
            "update_competition",
            changed=changed,
            before={k: _plain(current[k]) for k in changed},
            after={k: _plain(wanted[k]) for k in changed},
            recomputed=bool(counted and played),
        )
        if counted:
            refresh_standings_later(row)
    competition.refresh_from_db()
    return changed


def _checked_changes(
    row: Competition, current: dict[str, Any], wanted: dict[str, Any]
) -> dict[str, Any]:
    """The settings ``wanted`` for the locked competition ``row`` (its ``current`` ones changed),
    checked (one RuleViolation naming every bad setting) and cleaned."""
    problems = Problems()
    checked = _check_settings(problems, wanted)
    _check_table_range(problems, row.rulesets, checked)
    if wanted["scheme"] != current["scheme"] or checked["tie_breaks"] != list(
        current["tie_breaks"]
    ):
        # A league mixing games may not start adding up unlike figures (an older setting
        # left unchanged stays, so the rest of the settings remain editable).
        unlike_units_problems(problems, row.rulesets, wanted["scheme"], checked["tie_breaks"])
    if (
        wanted["cut_to"] != current["cut_to"]
        or wanted["planned_rounds"] != current["planned_rounds"]
    ):
        _check_cut(problems, row.format, row.rulesets, wanted["cut_to"], wanted["planned_rounds"])
        if (
            row.knockout_from
            and row.rounds.filter(number__gte=row.knockout_from, bracket__isnull=False).exists()
        ):
            problems.add("cut_to", "not_allowed", reason="bracket_drawn")
    check_stage(problems, row.format, wanted["cut_to"], wanted | checked)
    problems.raise_if_any()
    return (
        wanted
        | checked
        | {
            "description": str(wanted["description"] or ""),
            "public": bool(wanted["public"]),
            "notify_entrants": bool(wanted["notify_entrants"]),
            "double_round": bool(wanted["double_round"]),
            "third_place": bool(wanted["third_place"]),
            "bracket_reset": bool(wanted["bracket_reset"]),
        }
    )


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.date) else value


def finalize_competition(*, competition: Competition, by: Actor, reason: str = "") -> Competition:
    """Declare the results final: every game of the competition is locked for that reason (an
    organizer cannot reopen one of them alone), and no write of the competition is accepted
    (``_common.record_event``) until ``reopen_competition``. Refused while a published round is
    still open (close it first) and while nobody has entered: nothing would be final."""
    require_manager(by, competition.club)
    with transaction.atomic():
        row = Competition.objects.select_for_update(no_key=True).get(pk=competition.pk)
        if row.finalized_at is not None:
            raise Locked("competition", "finalized", competition=row.name)
        open_round = (
            row.rounds.filter(status=RoundStatus.PUBLISHED)
            .order_by("number")
            .values_list("number", flat=True)
            .first()
        )
        if open_round is not None:
            raise violation("competition", "not_allowed", reason="round_open", round=open_round)
        if not row.entries.exists():
            raise violation("competition", "not_allowed", reason="no_entrants")
        scoring.lock_games(
            games=_games_of(row),
            by=by,
            reason=LockReason.FINALIZED,
            context={"competition": row.name},
        )
        row.finalized_at, row.finalized_by = timezone.now(), by.user
        row.save(update_fields=["finalized_at", "finalized_by"])
        record_event(row, by, "finalize", reason=str(reason or "").strip())
        # The final standings and prizes, e-mailed once to each player (``results_mail``).
        queue.mail_on_commit("tournaments.tasks.mail_final_results", row.pk)
    return row


def reopen_competition(*, competition: Competition, by: Actor, reason: str) -> Competition:
    """Accept writes again (a reason is required). The games stay locked: those the
    finalization locked are locked again for their closed round, and an organizer reopens each
    game that must change (``scoring.services.reopen_game``)."""
    require_manager(by, competition.club)
    reason = required_reason(reason)
    with transaction.atomic():
        row = Competition.objects.select_for_update(no_key=True).get(pk=competition.pk)
        if row.finalized_at is None:
            raise violation("competition", "not_allowed", reason="not_final")
        for round_ in row.rounds.filter(status=RoundStatus.CLOSED).order_by("number"):
            scoring.lock_games(
                games=Game.objects.filter(
                    competition_table__round=round_, lock_reason=LockReason.FINALIZED
                ).values_list("pk", flat=True),
                by=by,
                reason=LockReason.ROUND_CLOSED,
                context={"round": round_.number, "competition": row.name},
            )
        row.finalized_at, row.finalized_by = None, None
        row.save(update_fields=["finalized_at", "finalized_by"])
        record_event(row, by, "reopen", reason=reason)
    return row


def _games_of(competition: Competition) -> list[int]:
    return list(
        Game.objects.filter(competition_table__round__competition=competition).values_list(
            "pk", flat=True
        )
    )
