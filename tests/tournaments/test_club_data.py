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
from teams import selectors as team_selectors
from teams.models import Board, LineupSlot, Team, TeamMatch, TeamRules
from teams.services import team_draw, teams
from tests.scoring.rules.games import hand_documents
from tests.teams.test_teams import palio, set_both
from tournaments.models import Competition, CompetitionEvent, Round, StandingsSnapshot
from tournaments.selectors import standings_of
from tournaments.services import club_data

from .helpers import briscola_won_by, play

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


def test_every_model_of_every_app_is_exported_or_left_out_with_a_reason():
    models = {
        m._meta.label_lower
        for app in ("scoring", "tournaments", "registration", "teams", "circuits")
        for m in apps.get_app_config(app).get_models()
    }
    exported = {table.model_label for table in club_data.all_tables()}
    assert exported.isdisjoint(club_data.all_left_out())
    assert models == exported | set(club_data.all_left_out())


def test_the_team_tables_keep_their_names_in_the_document_after_moving_to_their_app():
    """A document written before teams became an app of their own names its tables
    ``tournaments.team``...: the names stay, so it imports, and a new export reads the same."""
    by_label = {table.label: table.model_label for table in club_data.all_tables()}
    assert by_label["tournaments.team"] == "teams.team"
    assert by_label["tournaments.lineupslot"] == "teams.lineupslot"
    assert not any(label.startswith("teams.") for label in by_label)


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


# -- competitions between teams travel: teams, rosters, matches, boards, lineups ---------------


def team_palio(club, user, *, visiting=None):
    """A palio of four teams (three districts and "Porta", with a captain; "Ospiti" of the
    ``visiting`` club instead if given), drawn whole (three rounds), with round 1 played and
    confirmed: match 1 won 2-0 with boards won 2-0, match 2 won 2-0 with boards won 2-1 (so
    that no rank is left to the drawing of lots)."""
    by = Actor.for_user(user)
    competition, _made = palio(club, user, teams_count=3, lots_seed="palio")
    name = "Porta" if visiting is None else "Ospiti"
    roster = [services.new_player(club, f"{name} {i}").pk for i in range(4)]
    teams.add_team(
        competition=competition,
        name=name,
        club=visiting,
        captain=roster[0],
        seed=4,
        players=roster,
        by=by,
    )
    matches = team_draw.draw_team_round(competition=competition, by=by)
    two_nil = briscola_won_by(0, 4, 2)
    two_one = [two_nil[0], *briscola_won_by(1, 4, 2)[1:], two_nil[0] | {"dealer": 2}]
    first_round = [m for m in matches if m.round_number == 1]
    for match, hands in zip(first_round, (two_nil, two_one), strict=True):
        set_both(match, user)
        for board in match.boards.order_by("number").select_related("game"):
            play(board.game, hands, user)
        teams.confirm_match_result(match=match, home_score=2, away_score=0, by=by)
    return competition


def team_picture(competition):
    """A competition between teams by names and numbers: what must travel, never an id."""
    rules = competition.team_rules
    fields = [f for f in TeamRules._meta.concrete_fields if not (f.is_relation or f.primary_key)]

    def roster(team):
        return tuple(sorted(r.player.display_name for r in team.roster.all()))

    def game(board):
        if board.game is None:
            return None
        hands = board.game.hands.order_by("number").values_list("document", "deltas")
        return (board.game.title, board.game.status, *hands)

    return {
        "rules": [getattr(rules, f.attname) for f in fields],
        "teams": [
            (
                t.name,
                t.club.name,
                t.captain and t.captain.display_name,
                t.seed,
                t.created_at,
                roster(t),
            )
            for t in competition.teams.order_by("name")
        ],
        "matches": [
            (
                m.round_number,
                m.number,
                m.leg,
                m.home.name,
                m.away.name,
                m.venue.name,
                m.home_score,
                m.away_score,
                m.confirmed_at,
            )
            for m in TeamMatch.objects.filter(competition=competition)
        ],
        "boards": [
            (b.match.round_number, b.match.number, b.number, game(b))
            for b in Board.objects.filter(match__competition=competition)
        ],
        "lineups": [
            (
                s.match.round_number,
                s.match.number,
                s.board.number,
                s.side,
                s.position,
                s.player.display_name,
            )
            for s in LineupSlot.objects.filter(match__competition=competition)
        ],
        "standings": [
            (
                r["name"],
                row.rank,
                row.match_points,
                row.played,
                row.won,
                row.boards_won,
                row.games_won,
                row.decided_by,
            )
            for r in team_selectors.team_standings(competition)["rows"]
            for row in [r["row"]]
        ],
    }


def test_a_palio_travels_whole_and_export_import_export_gives_the_same_document(club, olga):
    competition = team_palio(club, olga)
    first = club_data.export_club(club=club)
    assert len(first["tables"]["tournaments.lineupslot"]) == 2 * 2 * 2 * 2  # 2 matches set
    copy = club_data.import_club(document=first, slug="copia", keep_accounts=True)
    twin = Competition.objects.get(club=copy, slug=competition.slug)
    original = team_picture(competition)
    assert team_picture(twin) == original
    assert len(original["teams"]) == 4 and len(original["matches"]) == 6
    assert ("Porta", "Circolo Uno", "Porta 0", 4) in [t[:4] for t in original["teams"]]
    assert sum(1 for m in original["matches"] if m[-1] is not None) == 2
    assert sorted(len(b[-1]) - 2 for b in original["boards"] if b[-1] is not None) == [2, 2, 3, 3]
    assert "lots" not in {row[-1] for row in original["standings"]}
    assert {t.club for t in twin.teams.all()} == {copy}
    boards = Board.objects.filter(match__competition=twin, game__isnull=False)
    assert set(boards.values_list("game__club", flat=True)) == {copy.pk}
    assert without_slug(club_data.export_club(club=copy)) == without_slug(first)


def test_a_visiting_team_keeps_its_club_where_it_exists_or_joins_the_imported_one(
    club, olga, other_club
):
    competition = team_palio(club, olga, visiting=other_club)
    document = club_data.export_club(club=club)
    (guests,) = [r for r in document["tables"]["tournaments.team"] if r["name"] == "Ospiti"]
    assert guests["club"] == {"club": "due", "name": "Circolo Due"}
    venues = [m["venue"] for m in document["tables"]["tournaments.teammatch"]]
    assert {"club": "due", "name": "Circolo Due"} in venues and 1 in venues

    here = club_data.import_club(document=document, slug="copia", keep_accounts=True)
    twin = Competition.objects.get(club=here, slug=competition.slug)
    assert twin.teams.get(name="Ospiti").club == other_club
    assert {m.venue for m in TeamMatch.objects.filter(home__name="Ospiti", competition=twin)} == {
        other_club
    }
    assert without_slug(club_data.export_club(club=here)) == without_slug(document)

    Club.objects.filter(pk=other_club.pk).update(slug="altrove")  # "due" is not on this server
    elsewhere = club_data.import_club(document=document, slug="altra", keep_accounts=True)
    moved = Competition.objects.get(club=elsewhere, slug=competition.slug)
    assert {(t.name, t.club) for t in moved.teams.all()} == {
        (name, elsewhere) for name in ("Borgo", "Castello", "Duomo", "Ospiti")
    }
    assert set(TeamMatch.objects.filter(competition=moved).values_list("venue", flat=True)) == {
        elsewhere.pk
    }
    assert team_picture(moved)["standings"] == team_picture(competition)["standings"]


@pytest.mark.parametrize(
    "foreign",
    [
        pytest.param({"club": "due"}, id="no-name"),
        pytest.param({"club": 2, "name": "Circolo Due"}, id="a-number-for-a-slug"),
        pytest.param({"club": "", "name": "Circolo Due"}, id="an-empty-slug"),
        pytest.param({"club": "due", "name": "Circolo Due", "pk": 2}, id="an-unknown-key"),
    ],
)
def test_a_malformed_foreign_club_is_refused_by_name_and_nothing_is_stored(
    club, olga, other_club, foreign
):
    team_palio(club, olga, visiting=other_club)
    document = club_data.export_club(club=club)
    for row in document["tables"]["tournaments.team"]:
        if row["name"] == "Ospiti":
            row["club"] = foreign
    before = (Club.objects.count(), Team.objects.count(), Game.objects.count())
    with pytest.raises(RuleViolation) as refusal:
        club_data.import_club(document=document, slug="rotto", keep_accounts=True)
    ((problem,),) = [refusal.value.problems]
    assert (problem.field, problem.code) == ("tables", "inconsistent")
    assert problem.params == {"reason": "club_document_broken", "value": "tournaments.team.club"}
    assert (Club.objects.count(), Team.objects.count(), Game.objects.count()) == before


@pytest.mark.parametrize(
    ("label", "field"),
    [
        ("scoring.membership", "club"),
        ("scoring.player", "club"),
        ("tournaments.competition", "club"),
    ],
)
def test_a_foreign_club_where_the_row_belongs_to_the_club_is_refused(
    club, olga, other_club, label, field
):
    """Only a visiting team's club and a venue may be another club: a membership, a player or
    a competition of another club would write into that club, not into the imported one."""
    team_palio(club, olga)
    document = club_data.export_club(club=club)
    document["tables"][label][0][field] = {"club": "due", "name": "Circolo Due"}
    before = (other_club.memberships.count(), other_club.players.count(), Club.objects.count())
    with pytest.raises(RuleViolation) as refusal:
        club_data.import_club(document=document, slug="rotto", keep_accounts=True)
    assert [p.params.get("value") for p in refusal.value.problems] == [f"{label}.{field}"]
    assert (other_club.memberships.count(), other_club.players.count(), Club.objects.count()) == (
        before
    )


def test_a_document_without_the_team_tables_still_imports(club, olga):
    """Documents written before the team tables travelled (same version 1) import, teamless."""
    team_palio(club, olga)
    document = club_data.export_club(club=club)
    for label in [label for label in document["tables"] if ".team" in label or "board" in label]:
        del document["tables"][label]
    del document["tables"]["tournaments.rosterplayer"], document["tables"]["tournaments.lineupslot"]
    copy = club_data.import_club(document=document, slug="vecchio", keep_accounts=True)
    assert not Team.objects.filter(competition__club=copy).exists()
    assert copy.games.count() == club.games.count()


def test_the_drawing_of_lots_draws_the_same_after_a_move(club, olga):
    """Six teams, no seed of their own, nothing played: every place is the drawing of lots'.
    The club moved (export, import: every id new) draws the same order."""
    competition, _made = palio(club, olga, teams_count=6)
    assert not competition.team_rules.lots_seed
    before = team_selectors.team_standings(competition)
    assert {r["row"].decided_by for r in before["rows"][1:]} == {"lots"}
    copy = club_data.import_club(
        document=club_data.export_club(club=club), slug="copia", keep_accounts=True
    )
    twin = Competition.objects.get(club=copy, slug=competition.slug)
    after = team_selectors.team_standings(twin)
    assert [r["name"] for r in after["rows"]] == [r["name"] for r in before["rows"]]
