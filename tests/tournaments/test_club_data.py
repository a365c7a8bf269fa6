"""A club's data moves whole: export → import → export gives the same document, into the same
database under another address and into an empty database; bad documents change nothing."""

import io
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import override_settings
from django.utils import translation

from scoring import demo, services
from scoring.models import AuditEvent, Club, Game, Hand, Player, TableLink
from scoring.rules import RuleViolation
from scoring.selectors.members import games_of_user
from scoring.services import Actor
from tests.scoring.rules.games import hand_documents
from tournaments.models import Competition, CompetitionEvent, Round, StandingsSnapshot
from tournaments.selectors import standings_of
from tournaments.services import club_data

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def demo_club():
    with override_settings(DEBUG=True):
        call_command("loaddemo", stdout=io.StringIO())
    return Club.objects.get(slug=demo.CLUB_SLUG)


@pytest.fixture
def small_club(club, terziglio, sara):
    """Circolo Uno with a Terziglio game of three hands: enough for the refusals."""
    by = Actor.for_user(sara)
    for document in hand_documents("terziglio", "G1")[:3]:
        services.record_hand(game=terziglio, document=document, by=by)
    return club


def names_and_figures(data):
    """Standings without database ids: what a reader sees, names and figures, in order."""
    return list(_leaves(json.loads(json.dumps(data))))


def _leaves(value):
    if isinstance(value, dict):
        for key, item in sorted(value.items()):
            if key not in {
                "id",
                "entry",
                "entries",
                "player",
                "players",
                "partner",
                "competition",
                "game",
            }:
                yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def without_slug(document):
    copy = json.loads(json.dumps(document))
    copy["tables"]["scoring.club"][0]["slug"] = "-"
    return copy


def test_every_model_of_both_apps_is_exported_or_left_out_with_a_reason():
    models = {
        m._meta.label_lower
        for app in ("scoring", "tournaments")
        for m in apps.get_app_config(app).get_models()
    }
    exported = {table.label for table in club_data.TABLES}
    assert exported.isdisjoint(club_data.LEFT_OUT)
    assert models == exported | set(club_data.LEFT_OUT)


def test_the_export_holds_every_hand_version_status_title_reason_and_audit_event(demo_club):
    document = club_data.export_club(club=demo_club)
    tables = document["tables"]
    assert (document["format"], document["version"]) == ("segnapunti-club", 1)
    assert len(tables["scoring.game"]) == Game.objects.filter(club=demo_club).count()
    assert len(tables["scoring.hand"]) == Hand.objects.filter(game__club=demo_club).count()
    assert len(tables["scoring.auditevent"]) == AuditEvent.objects.filter(club=demo_club).count()
    assert (
        len(tables["tournaments.round"])
        == Round.objects.filter(competition__club=demo_club).count()
    )
    assert (
        len(tables["tournaments.competitionevent"])
        == CompetitionEvent.objects.filter(competition__club=demo_club).count()
    )
    first = Game.objects.filter(club=demo_club).order_by("pk").first()
    row = tables["scoring.game"][0]
    assert (row["status"], row["title"], row["version"], row["abandon_reason"]) == (
        first.status,
        first.title,
        first.version,
        first.abandon_reason,
    )
    assert {h["version"] for h in tables["scoring.hand"]} == set(
        Hand.objects.filter(game__club=demo_club).values_list("version", flat=True)
    )


def test_no_password_token_or_pin_leaves_the_club(demo_club):
    text = json.dumps(club_data.export_club(club=demo_club))
    assert "password" not in text
    for link in TableLink.objects.filter(game__club=demo_club):
        assert link.token not in text
    users = club_data.export_club(club=demo_club)["users"]
    assert users and all(set(user) == set(club_data.USER_FIELDS) for user in users)


def test_export_import_export_gives_the_same_document_under_another_address(demo_club):
    first = club_data.export_club(club=demo_club)
    copy = club_data.import_club(document=first, slug="copia")
    again = club_data.export_club(club=copy)
    assert again["tables"]["scoring.club"][0]["slug"] == "copia"
    assert without_slug(again) == without_slug(first)
    # What was left out is rebuilt: a table link per game, the standings of each competition.
    assert TableLink.objects.filter(game__club=copy).count() == copy.games.count()
    for original in Competition.objects.filter(club=demo_club):
        twin = Competition.objects.get(club=copy, slug=original.slug)
        stored = StandingsSnapshot.objects.get(competition=twin).data
        assert names_and_figures(stored) == names_and_figures(standings_of(original))


def test_an_import_refuses_an_address_already_taken_and_changes_nothing(small_club):
    document = club_data.export_club(club=small_club)
    before = Game.objects.count()
    with pytest.raises(RuleViolation) as refusal:
        club_data.import_club(document=document)
    assert [(p.field, p.code) for p in refusal.value.problems] == [("slug", "duplicate")]
    assert Game.objects.count() == before


@pytest.mark.parametrize(
    ("damage", "field"),
    [
        pytest.param(lambda d: {"format": "something-else"}, "format", id="not-a-club-export"),
        pytest.param(lambda d: d | {"version": 99}, "version", id="a-future-version"),
        pytest.param(
            lambda d: d | {"tables": d["tables"] | {"scoring.unknown": []}},
            "tables",
            id="an-unknown-table",
        ),
        pytest.param(
            lambda d: (
                d
                | {
                    "tables": d["tables"]
                    | {"scoring.hand": [*d["tables"]["scoring.hand"], {"x": 1}]}
                }
            ),
            "tables",
            id="an-unknown-column",
        ),
        pytest.param(
            lambda d: (
                d
                | {
                    "tables": d["tables"]
                    | {
                        "scoring.hand": [
                            *d["tables"]["scoring.hand"],
                            d["tables"]["scoring.hand"][0],
                        ]
                    }
                }
            ),
            "tables",
            id="a-hand-twice",
        ),
    ],
)
def test_a_damaged_document_is_refused_whole(small_club, damage, field):
    document = damage(club_data.export_club(club=small_club))
    counts = (Club.objects.count(), Game.objects.count(), Hand.objects.count())
    with pytest.raises(RuleViolation) as refusal:
        club_data.import_club(document=document, slug="rotto")
    assert [p.field for p in refusal.value.problems] == [field]
    assert (Club.objects.count(), Game.objects.count(), Hand.objects.count()) == counts


@translation.override("en")
def test_the_commands_say_what_is_wrong(small_club, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", small_club.slug, output=str(path))
    with pytest.raises(CommandError, match="already exists: choose another address"):
        call_command("import_club", str(path))
    out = io.StringIO()
    call_command("import_club", str(path), slug="altro", keep_accounts=True, stdout=out)
    assert "Imported club" in out.getvalue() and "(altro)" in out.getvalue()
    with pytest.raises(CommandError, match="No club has the address"):
        call_command("export_club", "nessuno")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_club", str(tmp_path / "bad.json"))


def manage(*args, env):
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SQLITE_PATH"}} | env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def empty_database(tmp_path):
    """The environment of a fresh install on the same kind of database as this test run."""
    if connection.vendor != "postgresql":
        yield {"SQLITE_PATH": str(tmp_path / "empty.sqlite3")}
        return
    name = f"segnapunti_empty_{uuid.uuid4().hex[:12]}"
    settings_dict = connection.settings_dict
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    user, host, port = settings_dict["USER"], settings_dict["HOST"], settings_dict["PORT"]
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    try:
        yield {"DATABASE_URL": f"postgres://{user}{password}@{host}:{port}/{name}"}
    finally:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.mark.django_db(transaction=True)
def test_export_import_into_an_empty_database_then_export_gives_the_same_document(
    demo_club, empty_database, tmp_path
):
    exported = tmp_path / "club.json"
    exported.write_text(
        json.dumps(
            club_data.export_club(club=demo_club), ensure_ascii=False, indent=1, sort_keys=True
        )
        + "\n"
    )
    manage("migrate", "--noinput", env=empty_database)
    assert "Imported club" in manage("import_club", str(exported), env=empty_database)
    again = manage("export_club", demo.CLUB_SLUG, env=empty_database)
    assert json.loads(again) == json.loads(exported.read_text())
    assert again == exported.read_text()


# -- issue 21, point 5: import_club's address and the accounts already on this server --------


def exported(club, tmp_path):
    path = tmp_path / "club.json"
    call_command("export_club", club.slug, output=str(path), stdout=io.StringIO())
    return path


def counts():
    return (Club.objects.count(), Game.objects.count(), Hand.objects.count())


@translation.override("en")
def test_an_address_urls_cannot_carry_is_refused_and_the_home_page_still_opens(
    small_club, tmp_path, client, olga
):
    path, before = exported(small_club, tmp_path), counts()
    with pytest.raises(CommandError, match="“bad slug” cannot be a club's address"):
        call_command("import_club", str(path), slug="bad slug", keep_accounts=True)
    with pytest.raises(RuleViolation) as refusal:
        club_data.import_club(document=json.loads(path.read_text()), slug="Bad/Slug")
    assert [(p.field, p.code) for p in refusal.value.problems] == [("slug", "invalid")]
    assert counts() == before
    client.force_login(olga)
    assert client.get("/").status_code == 200


def link_anna_to(club, user):
    """Anna, who played the club's game, is ``user``'s player: My games lists that game."""
    Player.objects.filter(club=club, display_name="Anna").update(user=user)


@translation.override("en")
def test_a_copy_on_the_same_server_leaves_the_accounts_here_out_unless_asked(
    small_club, tmp_path, olga
):
    link_anna_to(small_club, olga)
    path, before = exported(small_club, tmp_path), counts()
    # Every owner's account is here already: left out, the copy would have no owner.
    with pytest.raises(CommandError, match=r"would have no owner.*--owner USERNAME, or --keep"):
        call_command("import_club", str(path), slug="copia")
    assert counts() == before

    out = io.StringIO()
    call_command("import_club", str(path), slug="copia", owner="olga", stdout=out)
    copy = Club.objects.get(slug="copia")
    assert "Left unattached 2 account(s) that already existed here (oscar, sara)" in out.getvalue()
    assert list(copy.memberships.values_list("user__username", "role")) == [("olga", "owner")]
    assert not copy.players.filter(user__isnull=False).exists()
    games, _players = games_of_user(olga)
    assert [g.club.slug for g in games] == [small_club.slug]  # not twice

    call_command("import_club", str(path), slug="copia-tutta", keep_accounts=True, stdout=out)
    whole = Club.objects.get(slug="copia-tutta")
    assert sorted(whole.memberships.values_list("user__username", "role")) == sorted(
        small_club.memberships.values_list("user__username", "role")
    )
    assert whole.players.get(display_name="Anna").user == olga


def test_an_import_into_a_server_without_those_accounts_attaches_the_new_ones(small_club):
    """The move of deploy/README.md: the accounts are made here, and attached as before."""
    document = club_data.export_club(club=small_club)
    document["users"] = [u | {"username": f"{u['username']}-new"} for u in document["users"]]
    club = club_data.import_club(document=document, slug="nuovo", keep_accounts=False)
    assert sorted(club.memberships.values_list("user__username", flat=True)) == [
        "olga-new",
        "oscar-new",
        "sara-new",
    ]
