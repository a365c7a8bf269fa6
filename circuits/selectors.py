"""Reads of circuits: a club's circuits, one circuit's clubs, competitions and links, and its
standings (recomputed from each competition's own final standings through the pure
``tournaments.standings.circuits``).

``circuit_standings`` costs two queries for the circuit's rows, four per competition
(``standings_of``) and one for the players met: a circuit holds a season's events, not
thousands.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from circuits.models import Circuit, CircuitClub, CircuitCompetition, CircuitEvent, CircuitLink
from circuits.standings import circuit_outlook
from circuits.standings import circuits as pure
from scoring.models import Club, Player
from tournaments.extensions import COMPETITION_PLACES
from tournaments.models import Entry, EntryStatus, Round
from tournaments.selectors.standings import as_json_number, standings_of


def circuits_of(club: Club) -> QuerySet[Circuit]:
    """The circuits ``club`` organizes or is invited to (left ones too), the latest first."""
    return (
        Circuit.objects.filter(Q(club=club) | Q(clubs__club=club))
        .select_related("club")
        .distinct()
        .order_by("-created_at", "-id")
    )


def public_circuits_of(club: Club) -> QuerySet[Circuit]:
    return circuits_of(club).filter(public=True)


def places_of(circuit: Circuit) -> list[CircuitClub]:
    """The circuit's clubs (the organizing one first), with their state."""
    return list(CircuitClub.objects.filter(circuit=circuit).select_related("club").order_by("id"))


def competitions_of(circuit: Circuit) -> list[dict[str, Any]]:
    """The circuit's competitions in the order added: whether final, and whether they count
    (their club is still in the circuit)."""
    joined = {p.club_id for p in places_of(circuit) if p.joined}
    rows = CircuitCompetition.objects.filter(circuit=circuit).select_related("competition__club")
    return [
        {
            "id": row.competition_id,
            "competition": row.competition,
            "name": row.competition.name,
            "club": row.competition.club.name,
            "club_slug": row.competition.club.slug,
            "slug": row.competition.slug,
            "final": row.competition.finalized_at is not None,
            "counts": row.competition.club_id in joined,
            "public": row.competition.public,
        }
        for row in rows.order_by("competition__start_date", "id")
    ]


def links_of(circuit: Circuit) -> list[CircuitLink]:
    return list(
        CircuitLink.objects.filter(circuit=circuit)
        .select_related("a__club", "b__club")
        .order_by("id")
    )


def events_of(circuit: Circuit) -> list[CircuitEvent]:
    return list(
        CircuitEvent.objects.filter(circuit=circuit)
        .select_related("club", "actor")
        .order_by("-at", "-id")[:50]
    )


def linkable_players(circuit: Circuit) -> list[Player]:
    """The players of the circuit's clubs who entered one of its competitions."""
    competitions = CircuitCompetition.objects.filter(circuit=circuit).values("competition")
    return list(
        Player.objects.filter(
            Q(entries__competition__in=competitions) | Q(pk__in=_partners(competitions))
        )
        .select_related("club")
        .distinct()
        .order_by("club__name", "display_name")
    )


def _partners(competitions) -> QuerySet:
    return Entry.objects.filter(competition__in=competitions, partner__isnull=False).values(
        "partner"
    )


def circuit_standings(circuit: Circuit) -> dict[str, Any]:
    """The circuit's standings, JSON-ready: every person with a result, ranked, each with every
    result (counted, dropped by best-N, or provisional while its competition is live)."""
    competitions = competitions_of(circuit)
    events = []
    for item in competitions:
        if not item["counts"]:
            continue
        overall = standings_of(item["competition"])["tables"][0]
        finishes = tuple(
            pure.Finish(players=tuple(row["players"]), rank=row["rank"] if row["ranked"] else None)
            for row in overall["rows"]
        )
        events.append(pure.Event(key=item["id"], final=item["final"], finishes=finishes))
    links = [(link.a_id, link.b_id) for link in links_of(circuit)]
    upcoming = _upcoming(competitions)
    met = (
        {p for e in events for f in e.finishes for p in f.players}
        | {p for pair in links for p in pair}
        | {p for u in upcoming for entry in u.entries for p in entry}
    )
    players = {
        pk: (user, name, club)
        for pk, user, name, club in Player.objects.filter(pk__in=met).values_list(
            "pk", "user_id", "display_name", "club__name"
        )
    }
    person_of = pure.persons({pk: p[0] for pk, p in players.items()}, links)
    rows = pure.circuit_standings(
        events,
        person_of=person_of,
        table=circuit.points_table,
        best_of=circuit.best_of,
        min_events=circuit.min_events,
    )
    names = {item["id"]: item for item in competitions}
    outlook = _outlook(circuit, events, upcoming, person_of)
    shown = [_row(row, players, person_of, names) for row in rows]
    for row in shown:
        row["outlook"] = None if outlook is None else outlook.get(row["person"])
    return {
        "circuit": circuit.pk,
        "points_table": circuit.points_table,
        "best_of": circuit.best_of,
        "min_events": circuit.min_events,
        "competitions": [
            {k: v for k, v in item.items() if k != "competition"} for item in competitions
        ],
        # Within a rank, by name (the pure order goes by player id).
        "rows": sorted(shown, key=lambda r: (not r["ranked"], -r["points"], r["name"].casefold())),
        "contenders": None
        if outlook is None
        else sorted(p for p, o in outlook.items() if o["status"] != circuit_outlook.CANNOT_WIN),
    }


def _row(row: pure.Row, players, person_of, names) -> dict[str, Any]:
    own = sorted(pk for pk, person in person_of.items() if person == row.person)
    return {
        "rank": row.rank,
        "ranked": row.ranked,
        "person": row.person,
        # A person of two clubs may have two names: both, in the order the players were made.
        "name": " / ".join(dict.fromkeys(players[pk][1] for pk in own if pk in players)) or "?",
        "players": own,
        "clubs": sorted({players[pk][2] for pk in own if pk in players}),
        "points": as_json_number(row.points),
        "events": row.events,
        "results": [
            {
                "competition": r.event,
                "name": names[r.event]["name"],
                "club": names[r.event]["club"],
                "rank": r.rank,
                "entrants": r.entrants,
                "points": as_json_number(r.points),
                "counted": r.counted,
                "provisional": r.provisional,
            }
            for r in row.results
        ],
    }


def _upcoming(competitions: list[dict[str, Any]]) -> list[circuit_outlook.Upcoming]:
    """The competitions that count and are not final yet: their active entries' players, and
    how many more entries may join (none once a round is drawn; up to the registration's
    places when it has them; no limit known otherwise). Three queries (none if nothing is
    left to play)."""
    left = [item["id"] for item in competitions if item["counts"] and not item["final"]]
    if not left:
        return []
    entries: dict[int, list[tuple[int, ...]]] = {pk: [] for pk in left}
    for competition, player, partner in (
        Entry.objects.filter(competition__in=left, status=EntryStatus.ACTIVE)
        .order_by("id")
        .values_list("competition_id", "player_id", "partner_id")
    ):
        entries[competition].append((player,) if partner is None else (player, partner))
    drawn = set(Round.objects.filter(competition__in=left).values_list("competition_id", flat=True))
    places = {pk: n for hook in COMPETITION_PLACES for pk, n in hook(left).items()}

    def room(pk: int) -> int | None:
        if pk in drawn:
            return 0
        if pk in places:
            return max(places[pk] - len(entries[pk]), 0)
        return None

    return [
        circuit_outlook.Upcoming(key=pk, entries=tuple(entries[pk]), room=room(pk)) for pk in left
    ]


def _outlook(
    circuit: Circuit,
    events: list[pure.Event],
    upcoming: list[circuit_outlook.Upcoming],
    person_of: dict[int, int],
) -> dict[int, dict[str, Any]] | None:
    """Who can still win the circuit (``tournaments.standings.circuit_outlook``): each
    person's outlook, as the league standings give theirs; None when nothing is left to play."""
    if not upcoming:
        return None
    got = circuit_outlook.circuit_outlook(
        [event for event in events if event.final],
        upcoming,
        person_of=person_of,
        table=circuit.points_table,
        best_of=circuit.best_of,
        min_events=circuit.min_events,
    )
    return {person: o.as_json() for person, o in got.items()}
