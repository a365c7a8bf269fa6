"""Circuits: creating one and changing its settings, inviting a club and its acceptance, a club
leaving, adding and removing competitions, linking two players as one person
(``docs/circuits.md``).

Who may: the owners and organizers of the organizing club run the circuit (settings, invitations,
links); the owners and organizers of another club accept its invitation, leave, and add or remove
their own club's competitions (its consent, each time). Every write locks the circuit's row
first (``_locked``: nothing else is locked, no competition, round or game), decides on what it
reads under that lock, and records a ``CircuitEvent`` naming the club it concerns, so that both
sides of an invitation read it. Refusals name their field and, where a club is at fault, the club.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from circuits.models import Circuit, CircuitClub, CircuitCompetition, CircuitEvent, CircuitLink
from circuits.standings import circuits as pure
from scoring.models import MANAGERS, Club, Membership, Player
from scoring.rules.reading import Problems, is_int
from scoring.services import Actor, NotAllowed, authorize_club, violation
from tournaments.models import Competition

#: The largest minimum attendance and best-N a circuit takes (a season of weekly events).
EVENTS_MAX = 100
#: The most places a points table lists, and the most points one place earns.
PLACES_MAX = 200
POINTS_MAX = 10_000
NAME_MAX = Circuit._meta.get_field("name").max_length
SEASON_MAX = Circuit._meta.get_field("season").max_length

SETTINGS = ("name", "season", "points_table", "best_of", "min_events", "public", "description")


def _record(circuit: Circuit, by: Actor, action: str, club: Club | None = None, **data) -> None:
    CircuitEvent.objects.create(
        circuit=circuit, club=club or circuit.club, action=action, actor=by.user, data=data
    )


def _locked(circuit: Circuit) -> Circuit:
    """The circuit's row, locked for the rest of the transaction and re-read in place."""
    circuit.refresh_from_db(
        from_queryset=Circuit.objects.select_for_update(no_key=True, of=("self",)).select_related(
            "club"
        )
    )
    return circuit


def is_manager(by: Actor, club: Club) -> bool:
    if by.trusted:
        return True
    return (
        by.user is not None
        and Membership.objects.filter(club=club, user=by.user, role__in=MANAGERS).exists()
    )


def _check_settings(problems: Problems, values: dict[str, Any]) -> dict[str, Any]:
    """The settings of a circuit, each checked; returns them cleaned."""
    checked = dict(values)
    if "name" in values:
        name = (values["name"] or "").strip()
        if not name:
            problems.add("name", "required")
        elif len(name) > NAME_MAX:
            problems.add("name", "too_long", max=NAME_MAX, value=len(name))
        checked["name"] = name
    if "season" in values:
        checked["season"] = (values["season"] or "").strip()[:SEASON_MAX]
    if "points_table" in values:
        checked["points_table"] = _check_table(problems, values["points_table"])
    if "best_of" in values:
        best_of = values["best_of"]
        if best_of is not None and (not is_int(best_of) or not 1 <= best_of <= EVENTS_MAX):
            problems.add("best_of", "range", reason="best_of", min=1, max=EVENTS_MAX, value=best_of)
    if "min_events" in values:
        value = values["min_events"]
        if value is None:
            checked["min_events"] = 0
        elif not is_int(value) or not 0 <= value <= EVENTS_MAX:
            problems.add("min_events", "range", reason="min_events", max=EVENTS_MAX, value=value)
    return checked


def _check_table(problems: Problems, table: Sequence[Any] | None) -> list[int] | None:
    if table is None:
        return None
    table = list(table)
    if len(table) > PLACES_MAX or not all(is_int(p) and p <= POINTS_MAX for p in table):
        problems.add("points_table", "range", min=0, max=POINTS_MAX, value=table[:PLACES_MAX])
        return None
    try:
        pure.check_table(table)
    except pure.Problem as refused:
        code, reason = _TABLE_PROBLEMS[refused.code]
        problems.add("points_table", code, reason=reason)
    return table


#: The pure code's refusal of a points table, as (code, reason) of the message catalog.
_TABLE_PROBLEMS = {
    "required": ("required", "points_empty"),
    "negative": ("inconsistent", "points_negative"),
    "increasing": ("inconsistent", "points_increasing"),
}


def create_circuit(
    *,
    club: Club,
    by: Actor,
    name: str,
    slug: str = "",
    season: str = "",
    points_table: Sequence[int] | None = None,
    best_of: int | None = None,
    min_events: int = 0,
    public: bool = True,
    description: str = "",
) -> Circuit:
    """A new circuit of ``club`` (its managers run it), the club itself its first member."""
    authorize_club(by, club, MANAGERS)
    problems = Problems()
    checked = _check_settings(
        problems,
        {
            "name": name,
            "season": season,
            "points_table": points_table,
            "best_of": best_of,
            "min_events": min_events,
        },
    )
    slug = slugify(slug or checked["name"])[:60]
    if checked["name"] and not slug:
        problems.add("slug", "required")
    problems.raise_if_any()
    with transaction.atomic():
        # The club's row, locked: of two circuits created at once under one address, the second
        # sees the first and is told so.
        Club.objects.select_for_update(no_key=True).only("pk").get(pk=club.pk)
        if Circuit.objects.filter(club=club, slug=slug).exists():
            raise violation("slug", "duplicate", value=slug, reason="circuit_slug")
        circuit = Circuit.objects.create(
            club=club,
            slug=slug,
            public=bool(public),
            description=description or "",
            created_by=by.user,
            **{k: checked[k] for k in ("name", "season", "points_table", "best_of")},
            min_events=checked["min_events"] or 0,
        )
        now = timezone.now()
        CircuitClub.objects.create(
            circuit=circuit, club=club, invited_by=by.user, accepted_by=by.user, accepted_at=now
        )
        _record(circuit, by, "create", name=circuit.name, slug=slug)
    return circuit


def change_circuit(*, circuit: Circuit, by: Actor, **changes: Any) -> Circuit:
    """Change some of the circuit's settings (``SETTINGS``); every bad one named at once."""
    authorize_club(by, circuit.club, MANAGERS)
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise violation(sorted(unknown)[0], "unknown_key")
    problems = Problems()
    checked = _check_settings(problems, changes)
    problems.raise_if_any()
    with transaction.atomic():
        _locked(circuit)
        before = {key: getattr(circuit, key) for key in checked}
        for key, value in checked.items():
            setattr(circuit, key, value)
        circuit.save(update_fields=list(checked))
        _record(circuit, by, "change", before=before, after=checked)
    return circuit


def _place(circuit: Circuit, club: Club) -> CircuitClub | None:
    return CircuitClub.objects.filter(circuit=circuit, club=club).first()


def invite_club(*, circuit: Circuit, by: Actor, club: Club | str) -> CircuitClub:
    """Invite ``club`` (or the club of that address): it joins when one of its managers accepts.
    A club that left may be invited again."""
    authorize_club(by, circuit.club, MANAGERS)
    if isinstance(club, str):
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise violation("club", "not_found", reason="club", value=club)
        club = found
    with transaction.atomic():
        _locked(circuit)
        if club.pk == circuit.club_id:
            raise violation("club", "not_allowed", reason="organizing_club", club=club.name)
        place = _place(circuit, club)
        if place is not None and place.left_at is None:
            raise violation("club", "duplicate", reason="club_in_circuit", club=club.name)
        if place is None:
            place = CircuitClub(circuit=circuit, club=club)
        place.invited_by, place.invited_at = by.user, timezone.now()
        place.accepted_by = place.accepted_at = place.left_at = None
        place.save()
        _record(circuit, by, "invite", club, club_name=club.name)
    return place


def _managed_place(circuit: Circuit, by: Actor, club: Club) -> CircuitClub | None:
    if not is_manager(by, club):
        raise violation("club", "not_allowed", reason="not_club_manager", club=club.name)
    return _place(circuit, club)


def accept_invitation(*, circuit: Circuit, by: Actor, club: Club) -> CircuitClub:
    """``club`` joins the circuit: its owner's or organizer's consent."""
    with transaction.atomic():
        _locked(circuit)
        place = _managed_place(circuit, by, club)
        if place is None or place.state != "invited":
            raise violation("club", "not_allowed", reason="not_invited", club=club.name)
        place.accepted_by, place.accepted_at = by.user, timezone.now()
        place.save(update_fields=["accepted_by", "accepted_at"])
        _record(circuit, by, "accept", club, club_name=club.name)
    return place


def leave_circuit(*, circuit: Circuit, by: Actor, club: Club) -> CircuitClub:
    """``club`` leaves (or declines the invitation): its competitions stay listed but no longer
    count, from now on and for the results already in."""
    with transaction.atomic():
        _locked(circuit)
        if club.pk == circuit.club_id:
            raise violation("club", "not_allowed", reason="organizing_club", club=club.name)
        place = _managed_place(circuit, by, club)
        if place is None or place.left_at is not None:
            raise violation("club", "not_allowed", reason="not_a_member", club=club.name)
        declined = place.accepted_at is None
        place.left_at = timezone.now()
        place.save(update_fields=["left_at"])
        _record(circuit, by, "decline" if declined else "leave", club, club_name=club.name)
    return place


def _competition(competition: Competition | int) -> Competition:
    if isinstance(competition, Competition):
        return competition
    found = Competition.objects.select_related("club").filter(pk=competition).first()
    if found is None:
        raise violation("competition", "not_found", reason="competition", value=competition)
    return found


def add_competition(
    *, circuit: Circuit, by: Actor, competition: Competition | int
) -> CircuitCompetition:
    """Add a competition of a club of the circuit: only that club's managers may (its consent),
    and a competition counts once in a circuit."""
    competition = _competition(competition)
    club = competition.club
    with transaction.atomic():
        _locked(circuit)
        place = _place(circuit, club)
        if place is None or not place.joined:
            raise violation("competition", "not_allowed", reason="club_not_joined", club=club.name)
        if not is_manager(by, club):
            raise violation("competition", "not_allowed", reason="not_club_manager", club=club.name)
        if CircuitCompetition.objects.filter(circuit=circuit, competition=competition).exists():
            raise violation(
                "competition",
                "duplicate",
                reason="competition_in_circuit",
                competition=competition.name,
            )
        added = CircuitCompetition.objects.create(
            circuit=circuit, competition=competition, added_by=by.user
        )
        _record(circuit, by, "add_competition", club, competition=competition.pk)
    return added


def remove_competition(*, circuit: Circuit, by: Actor, competition: Competition | int) -> None:
    """Take a competition out of the circuit: its club's managers or the circuit's may."""
    competition = _competition(competition)
    if not (is_manager(by, competition.club) or is_manager(by, circuit.club)):
        raise NotAllowed()
    with transaction.atomic():
        _locked(circuit)
        place = CircuitCompetition.objects.filter(circuit=circuit, competition=competition)
        if not place.exists():
            raise violation("competition", "not_found", reason="competition", value=competition.pk)
        place.delete()
        _record(circuit, by, "remove_competition", competition.club, competition=competition.pk)


def _player(circuit: Circuit, field: str, player: Player | int) -> Player:
    pk = player.pk if isinstance(player, Player) else player
    joined = CircuitClub.objects.filter(
        circuit=circuit, accepted_at__isnull=False, left_at__isnull=True
    ).values("club")
    found = (
        Player.objects.select_related("club").filter(pk=pk, club__in=joined).first()
        if is_int(pk)
        else None
    )
    if found is None:
        raise violation(field, "not_found", reason="circuit_player", value=pk)
    return found


def link_players(*, circuit: Circuit, by: Actor, a: Player | int, b: Player | int) -> CircuitLink:
    """Two players of two clubs of the circuit are one person in its standings."""
    authorize_club(by, circuit.club, MANAGERS)
    with transaction.atomic():
        _locked(circuit)
        first, second = _player(circuit, "a", a), _player(circuit, "b", b)
        if first.pk == second.pk:
            raise violation("b", "not_allowed", reason="same_player")
        if first.club_id == second.club_id:
            raise violation("b", "not_allowed", reason="same_club", club=first.club.name)
        low, high = sorted((first, second), key=lambda p: p.pk)
        if CircuitLink.objects.filter(circuit=circuit, a=low, b=high).exists():
            raise violation("b", "duplicate", reason="link")
        link = CircuitLink.objects.create(circuit=circuit, a=low, b=high, linked_by=by.user)
        _record(
            circuit, by, "link", a=low.pk, b=high.pk, names=[low.display_name, high.display_name]
        )
    return link


def unlink_players(*, circuit: Circuit, by: Actor, link: CircuitLink | int) -> None:
    """Undo a link: the two players are two people again."""
    authorize_club(by, circuit.club, MANAGERS)
    pk = link.pk if isinstance(link, CircuitLink) else link
    with transaction.atomic():
        _locked(circuit)
        found = CircuitLink.objects.filter(circuit=circuit, pk=pk).first()
        if found is None:
            raise violation("link", "not_found", reason="link", value=pk)
        _record(circuit, by, "unlink", a=found.a_id, b=found.b_id)
        found.delete()
