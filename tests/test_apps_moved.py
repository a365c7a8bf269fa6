"""Registration, teams and circuits left ``tournaments`` for apps of their own
(``tournaments/migrations/0024_registration_teams_circuits_leave.py`` and each app's
``0001_initial``): a database filled before the move keeps every row when it migrates forward,
the migrations write nothing to the database, and the content types follow the models."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from circuits import services as circuits
from circuits.models import Circuit, CircuitCompetition
from registration.models import Registration, RegistrationSettings
from teams import services as team_services
from teams.models import LineupSlot, Team, TeamMatch
from tests.builders import by
from tests.circuits.circuit_helpers import competition_with_results
from tests.registration.test_registration import open_for, registered
from tests.teams.test_teams import palio, set_both
from tournaments import services

BEFORE = [
    ("tournaments", "0023_round_reopening"),
    ("registration", None),
    ("teams", None),
    ("circuits", None),
]
MOVED = [
    RegistrationSettings,
    Registration,
    Team,
    TeamMatch,
    LineupSlot,
    Circuit,
    CircuitCompetition,
]
TABLES = sorted(m._meta.db_table for m in MOVED)


def counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        found = {}
        for table in TABLES:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            found[table] = cursor.fetchone()[0]
    return found


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture
def filled(club, olga, mailoutbox):
    """A club with a palio (teams, a match, its lineups), an open registration with its
    registrants and a circuit counting a competition."""
    competition, _teams = palio(club, olga, teams_count=2)
    (match,) = team_services.draw_team_round(competition=competition, by=by(olga))
    set_both(match, olga)
    torneo = services.create_competition(
        club=club, by=by(olga), name="Torneo", rulesets=["briscola"], scheme="placement"
    )
    open_for(torneo, olga, capacity=1)
    registered(torneo, "Anna", "anna@example.org")
    registered(torneo, "Bruno", "bruno@example.org")
    circuit = circuits.create_circuit(club=club, by=by(olga), name="Circuito", season="2026")
    counted = competition_with_results(club, olga, "Gara", {"Ugo": 3, "Ivo": 1})
    circuits.add_competition(circuit=circuit, by=by(olga), competition=counted)
    return counts()


@pytest.mark.django_db(transaction=True)
def test_a_database_filled_before_the_move_keeps_every_row_and_its_content_types_after_it(filled):
    """One trip back to ``tournaments.0023`` and forward again (each trip rebuilds the schema's
    state: the costly part): the rows stay, and the content types go back and come again."""
    assert all(filled[table] > 0 for table in TABLES), filled
    team = ContentType.objects.get_for_model(Team)
    assert (team.app_label, team.model) == ("teams", "team")
    migrate(BEFORE)
    assert counts() == filled  # going back writes nothing either
    team.refresh_from_db()
    assert team.app_label == "tournaments"
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert counts() == filled
    team.refresh_from_db()
    assert team.app_label == "teams"
    assert Team.objects.count() == filled["tournaments_team"]
    assert Registration.objects.filter(name="Anna").exists()
    assert CircuitCompetition.objects.get().competition.name == "Gara"


@pytest.mark.parametrize(
    "app, name",
    [
        ("tournaments", "0024_registration_teams_circuits_leave"),
        ("registration", "0001_initial"),
        ("teams", "0001_initial"),
        ("circuits", "0001_initial"),
    ],
)
@pytest.mark.django_db(transaction=True)
def test_the_move_writes_no_sql(app, name):
    """Only state moves: no table is created, altered or dropped (``sqlmigrate`` lists only
    its comments: the state-only operations and the content types' Python)."""
    sql = call_command("sqlmigrate", app, name)
    statements = [
        line
        for line in sql.splitlines()
        if line.strip() and not line.startswith("--") and line.strip() not in ("BEGIN;", "COMMIT;")
    ]
    assert statements == []
    assert "Raw Python operation" in sql or app == "tournaments"
