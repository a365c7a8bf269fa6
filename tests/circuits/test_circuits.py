"""Circuits through their services and selectors: creating one, inviting a club and its
consent, leaving, competitions added once, players linked across clubs, and the standings that
follow (``tournaments.services.circuits``, ``tournaments.selectors.circuits``)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from circuits import selectors as read
from circuits import services as circuits
from circuits.models import Circuit, CircuitClub, CircuitCompetition, CircuitEvent, CircuitLink
from scoring import services as scoring
from scoring.messages import message
from scoring.rules import RuleViolation
from scoring.services import NotAllowed
from tests.builders import by
from tests.circuits.circuit_helpers import competition_with_results

pytestmark = pytest.mark.django_db


def refusal(call) -> tuple[str, str, str]:
    with pytest.raises(RuleViolation) as refused:
        call()
    (problem,) = refused.value.problems
    return problem.field, problem.code, message(problem)


def writes() -> tuple[int, ...]:
    return tuple(
        model.objects.count()
        for model in (Circuit, CircuitClub, CircuitCompetition, CircuitLink, CircuitEvent)
    )


@pytest.fixture
def circuit(club, olga):
    return circuits.create_circuit(club=club, by=by(olga), name="Circuito 2026", season="2026")


@pytest.fixture
def joined(circuit, other_club, olga, bea):
    circuits.invite_club(circuit=circuit, by=by(olga), club="due")
    circuits.accept_invitation(circuit=circuit, by=by(bea), club=other_club)
    return circuit


def test_a_new_circuit_has_its_club_as_first_member_and_an_event(circuit, club):
    assert circuit.slug == "circuito-2026"
    (place,) = read.places_of(circuit)
    assert place.club == club and place.joined
    assert list(circuit.events.values_list("action", flat=True)) == ["create"]


def test_only_managers_of_the_club_create_a_circuit(club, sara):
    with pytest.raises(NotAllowed):
        circuits.create_circuit(club=club, by=by(sara), name="Nope")


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        pytest.param(
            {"points_table": [10, 12, 5]},
            "points_table",
            "more than the place before",
            id="increasing",
        ),
        pytest.param({"points_table": [10, -1]}, "points_table", "negative", id="negative"),
        pytest.param({"points_table": []}, "points_table", "first place", id="empty"),
        pytest.param({"best_of": 0}, "best_of", "at least 1", id="best-of-0"),
        pytest.param({"min_events": -1}, "min_events", "from 0 to", id="min-events"),
        pytest.param({"name": " "}, "name", "fill this in", id="no-name"),
    ],
)
def test_bad_settings_are_refused_by_name_and_nothing_is_stored(club, olga, fields, field, words):
    before = writes()
    got = refusal(lambda: circuits.create_circuit(club=club, by=by(olga), **{"name": "C"} | fields))
    assert got[0] == field and words in got[2]
    assert writes() == before


def test_a_changed_setting_is_checked_and_audited(circuit, olga):
    before = writes()
    assert refusal(
        lambda: circuits.change_circuit(circuit=circuit, by=by(olga), points_table=[3, 4])
    )[0] == ("points_table")
    assert writes() == before
    circuits.change_circuit(circuit=circuit, by=by(olga), points_table=[25, 18, 15], best_of=3)
    circuit.refresh_from_db()
    assert circuit.points_table == [25, 18, 15] and circuit.best_of == 3
    assert circuit.events.last().action == "change"


def test_a_slug_taken_is_refused(circuit, club, olga):
    field, code, text = refusal(
        lambda: circuits.create_circuit(club=club, by=by(olga), name="Circuito 2026")
    )
    assert (field, code) == ("slug", "duplicate") and "circuito-2026" in text


def test_a_club_joins_only_when_its_manager_accepts(circuit, other_club, olga, bea, club):
    place = circuits.invite_club(circuit=circuit, by=by(olga), club="due")
    assert place.state == "invited"
    # The circuit's organizer cannot accept for the other club: refused naming the club.
    field, _code, text = refusal(
        lambda: circuits.accept_invitation(circuit=circuit, by=by(olga), club=other_club)
    )
    assert field == "club" and "Circolo Due" in text
    competition = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 3})
    field, _code, text = refusal(
        lambda: circuits.add_competition(circuit=circuit, by=by(bea), competition=competition)
    )
    assert field == "competition" and "Circolo Due has not joined" in text
    circuits.accept_invitation(circuit=circuit, by=by(bea), club=other_club)
    assert read.places_of(circuit)[1].joined
    events = list(CircuitEvent.objects.filter(circuit=circuit).values_list("action", "club"))
    assert events[-2:] == [("invite", other_club.pk), ("accept", other_club.pk)]


def test_a_club_cannot_be_invited_twice_nor_the_organizing_club(joined, olga, club):
    assert refusal(lambda: circuits.invite_club(circuit=joined, by=by(olga), club="due"))[1] == (
        "duplicate"
    )
    assert (
        "organizes"
        in refusal(lambda: circuits.invite_club(circuit=joined, by=by(olga), club=club))[2]
    )
    assert refusal(lambda: circuits.invite_club(circuit=joined, by=by(olga), club="nowhere"))[
        :2
    ] == ("club", "not_found")


def test_a_competition_counts_once_in_a_circuit(joined, club, olga):
    competition = competition_with_results(club, olga, "Coppa Uno", {"Anna": 3})
    circuits.add_competition(circuit=joined, by=by(olga), competition=competition)
    before = writes()
    field, code, text = refusal(
        lambda: circuits.add_competition(circuit=joined, by=by(olga), competition=competition.pk)
    )
    assert (field, code) == ("competition", "duplicate") and "Coppa Uno" in text
    assert writes() == before


def test_an_organizer_may_not_add_another_clubs_competition(joined, other_club, olga, bea):
    competition = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 3})
    field, _code, text = refusal(
        lambda: circuits.add_competition(circuit=joined, by=by(olga), competition=competition)
    )
    assert field == "competition" and "Circolo Due" in text


@pytest.fixture
def season(joined, club, other_club, olga, bea):
    """Coppa Uno (Anna 1st, Bruno 2nd, Carla 3rd) and Coppa Due (Gina 1st, Elena 2nd, Franco
    3rd), both final; Anna of Uno and Elena of Due are one person once linked."""
    uno = competition_with_results(club, olga, "Coppa Uno", {"Anna": 9, "Bruno": 5, "Carla": 1})
    due = competition_with_results(
        other_club, bea, "Coppa Due", {"Gina": 9, "Elena": 5, "Franco": 1}
    )
    circuits.add_competition(circuit=joined, by=by(olga), competition=uno)
    circuits.add_competition(circuit=joined, by=by(bea), competition=due)
    return joined


def names(standings) -> list[tuple]:
    return [(r["rank"], r["name"], r["points"], len(r["results"])) for r in standings["rows"]]


def player(club, name):
    return club.players.get(display_name=name)


def test_the_standings_count_each_final_competition_with_the_field_rule(season):
    assert names(read.circuit_standings(season)) == [
        (1, "Anna", 3, 1),
        (1, "Gina", 3, 1),
        (3, "Bruno", 2, 1),
        (3, "Elena", 2, 1),
        (5, "Carla", 1, 1),
        (5, "Franco", 1, 1),
    ]
    assert read.circuit_standings(season)["contenders"] is None


def test_a_link_makes_two_players_of_two_clubs_one_person_and_is_undone(
    season, club, other_club, olga
):
    anna, elena = player(club, "Anna"), player(other_club, "Elena")
    link = circuits.link_players(circuit=season, by=by(olga), a=elena.pk, b=anna)
    standings = read.circuit_standings(season)
    assert names(standings)[0] == (1, "Elena / Anna", 5, 2)
    assert standings["rows"][0]["clubs"] == ["Circolo Due", "Circolo Uno"]
    assert [r["name"] for r in standings["rows"]].count("Elena / Anna") == 1
    assert not {"Elena", "Anna"} & {r["name"] for r in standings["rows"]}
    circuits.unlink_players(circuit=season, by=by(olga), link=link)
    assert not CircuitLink.objects.exists()
    assert [e.action for e in season.events.order_by("pk")][-2:] == ["link", "unlink"]
    assert "Elena" in [r["name"] for r in read.circuit_standings(season)["rows"]]


def test_players_of_one_account_are_one_person_without_a_link(
    joined, club, other_club, olga, bea, sara
):
    scoring.add_player(club=club, display_name="Zeno", by=by(olga), user=sara)
    scoring.add_player(club=other_club, display_name="Zeno Due", by=by(bea), user=sara)
    uno = competition_with_results(club, olga, "Coppa Uno", {"Zeno": 9, "Anna": 5})
    due = competition_with_results(other_club, bea, "Coppa Due", {"Elena": 9, "Zeno Due": 5})
    circuits.add_competition(circuit=joined, by=by(olga), competition=uno)
    circuits.add_competition(circuit=joined, by=by(bea), competition=due)
    assert names(read.circuit_standings(joined)) == [
        (1, "Zeno / Zeno Due", 3, 2),
        (2, "Elena", 2, 1),
        (3, "Anna", 1, 1),
    ]


def test_bad_links_are_refused_by_name(season, club, other_club, olga, sara):
    anna, bruno = player(club, "Anna"), player(club, "Bruno")
    before = writes()
    assert refusal(lambda: circuits.link_players(circuit=season, by=by(olga), a=anna, b=anna))[
        :2
    ] == ("b", "not_allowed")
    field, _code, text = refusal(
        lambda: circuits.link_players(circuit=season, by=by(olga), a=anna, b=bruno)
    )
    assert field == "b" and "same club (Circolo Uno)" in text
    assert refusal(lambda: circuits.link_players(circuit=season, by=by(olga), a=anna, b=999999))[
        :2
    ] == ("b", "not_found")
    with pytest.raises(NotAllowed):
        circuits.link_players(circuit=season, by=by(sara), a=anna, b=player(other_club, "Elena"))
    assert writes() == before
    circuits.link_players(circuit=season, by=by(olga), a=anna, b=player(other_club, "Elena"))
    assert refusal(
        lambda: circuits.link_players(
            circuit=season, by=by(olga), a=player(other_club, "Elena"), b=anna
        )
    )[1] == ("duplicate")


def test_a_club_that_leaves_drops_out_of_the_standings(season, other_club, bea):
    circuits.leave_circuit(circuit=season, by=by(bea), club=other_club)
    standings = read.circuit_standings(season)
    assert [r["name"] for r in standings["rows"]] == ["Anna", "Bruno", "Carla"]
    assert [(c["name"], c["counts"]) for c in standings["competitions"]] == [
        ("Coppa Uno", True),
        ("Coppa Due", False),
    ]
    assert season.events.order_by("pk").last().action == "leave"


def test_a_live_competition_is_provisional_and_counts_nothing(joined, club, olga):
    live = competition_with_results(club, olga, "Coppa Viva", {"Anna": 9, "Bruno": 5}, final=False)
    circuits.add_competition(circuit=joined, by=by(olga), competition=live)
    rows = read.circuit_standings(joined)["rows"]
    assert [(r["name"], r["points"], r["results"][0]["provisional"]) for r in rows] == [
        ("Anna", 0, True),
        ("Bruno", 0, True),
    ]


def test_best_n_and_minimum_attendance_apply(season, club, olga):
    circuits.change_circuit(circuit=season, by=by(olga), best_of=1, min_events=2)
    more = competition_with_results(club, olga, "Coppa Tre", {"Bruno": 9, "Anna": 5})
    circuits.add_competition(circuit=season, by=by(olga), competition=more)
    rows = read.circuit_standings(season)["rows"]
    assert [(r["rank"], r["name"], r["points"]) for r in rows[:2]] == [
        (1, "Anna", 3),
        (2, "Bruno", 2),
    ]
    assert all(not r["ranked"] for r in rows[2:])
    anna = rows[0]
    assert [x["counted"] for x in anna["results"]] == [True, False]


def test_removing_a_competition_is_audited(season, club, olga):
    uno = club.competitions.get(name="Coppa Uno")
    circuits.remove_competition(circuit=season, by=by(olga), competition=uno)
    assert [c["name"] for c in read.competitions_of(season)] == ["Coppa Due"]
    assert season.events.order_by("pk").last().action == "remove_competition"


def test_the_circuits_trail_is_permanent_in_the_database(circuit):
    event = circuit.events.get()
    for sql in (
        "UPDATE tournaments_circuitevent SET action = 'x' WHERE id = %s",
        "DELETE FROM tournaments_circuitevent WHERE id = %s",
    ):
        with (
            pytest.raises(IntegrityError, match="history is permanent"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [event.pk])
    assert circuit.events.get().action == "create"


def test_who_can_still_win_the_circuit(joined, club, olga):
    """Points 10, 6, 3. After two finals Anna has 20, Bruno 12, Carla 6. The last competition
    has Bruno and Carla entered and no round yet (anyone may still join): Bruno can reach 22
    and pass Anna, Carla 16 at most: she cannot win. With registration for 2 entries, full, the
    field is closed and every completion is played out: the ranks are exact."""
    from datetime import timedelta

    from django.utils import timezone

    from registration.services import registration

    circuits.change_circuit(circuit=joined, by=by(olga), points_table=[10, 6, 3])
    for name in ("Coppa Uno", "Coppa Due"):
        done = competition_with_results(club, olga, name, {"Anna": 9, "Bruno": 5, "Carla": 1})
        circuits.add_competition(circuit=joined, by=by(olga), competition=done)
    assert read.circuit_standings(joined)["contenders"] is None  # nothing left to play
    last = competition_with_results(club, olga, "Finale", {"Bruno": 0, "Carla": 0}, final=False)
    circuits.add_competition(circuit=joined, by=by(olga), competition=last)
    ids = {name: player(club, name).pk for name in ("Anna", "Bruno", "Carla")}

    standings = read.circuit_standings(joined)
    outlook = {r["name"]: r["outlook"] for r in standings["rows"]}
    assert {name: o["status"] for name, o in outlook.items()} == {
        "Anna": "can_win",
        "Bruno": "can_win",
        "Carla": "cannot_win",
    }
    assert outlook["Bruno"]["exact"] and outlook["Bruno"]["reason"] == "open"
    assert standings["contenders"] == sorted([ids["Anna"], ids["Bruno"]])

    now = timezone.now()
    registration.set_registration(
        competition=last,
        by=by(olga),
        opens_at=now - timedelta(days=2),
        closes_at=now - timedelta(days=1),
        capacity=2,
    )
    outlook = {r["name"]: r["outlook"] for r in read.circuit_standings(joined)["rows"]}
    assert all(o["exact"] and o["ranks_exact"] for o in outlook.values())
    assert (outlook["Anna"]["best"], outlook["Anna"]["worst"]) == (1, 2)
    assert (outlook["Carla"]["best"], outlook["Carla"]["worst"]) == (3, 3)
