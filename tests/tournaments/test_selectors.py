"""The competition selectors on small competitions built through the services.

``results_of`` reads plain values in two queries; ``reference_results`` below is the
straightforward reading it replaced (model instances, ``game.state()`` and the ruleset's
``ranking``), kept here as the yardstick: both must give the very same records, and so the very
same standings. The standings snapshot stores keys only; its labels follow the visitor's
language (a tiny French and Italian catalog is compiled for the test, so it does not depend on
the project's translations).
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db.models import Prefetch
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services as scoring
from scoring.models import Game, GameStatus
from scoring.rules import RULESETS
from scoring.services import Actor
from tournaments import selectors, services
from tournaments import standings as pure
from tournaments.models import Competition, StandingsSnapshot, Table, TableSeat

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# The yardstick: the reading results_of replaced


def reference_results(competition: Competition) -> list[pure.Result]:
    tables = (
        Table.objects.filter(
            round__competition=competition, game__status=GameStatus.FINISHED, forfeited=False
        )
        .select_related("game", "round")
        .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.order_by("position")))
    )
    results = []
    for table in tables:
        game = table.game
        rules = RULESETS[game.ruleset]
        ordered = [s.entry_id for s in table.seats.all()]
        by_seat = [ordered[i % 2] for i in range(game.n)] if competition.pairs else ordered
        place_of_seat = {p.seat: p.place for p in rules.ranking(game.state())}
        first_seat: dict[int, int] = {}
        for seat, entry in enumerate(by_seat):
            first_seat.setdefault(entry, seat)
        side_of = {
            s: i for i, side in enumerate(rules.sides(game.options, game.n) or ()) for s in side
        }
        briscola = game.ruleset == "briscola"
        for entry, seat in first_seat.items():
            results.append(
                pure.Result(
                    entrant=entry,
                    game=game.pk,
                    group=table.round.number,
                    place=place_of_seat[seat],
                    competitors=len(first_seat),
                    score=game.totals[seat],
                    lowest_wins=rules.lowest_wins,
                    opponents=tuple(e for e in first_seat if e != entry),
                    hands_won=game.totals[seat] if briscola else None,
                    card_points=(
                        game.card_points[side_of[seat]] if briscola and game.card_points else None
                    ),
                    ruleset=game.ruleset,
                )
            )
    return results


# ---------------------------------------------------------------------------------------------
# Competitions


NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo"]


def play(game: Game, documents: list[dict], by: Actor) -> None:
    for document in documents:
        scoring.record_hand(game=game, document=document, by=by)


def chiamo(soloist: int, made: bool, dealer: int = 0) -> dict:
    """A Terziglio hand: ``soloist`` calls a chiamo and makes it (7 points) or not (4)."""
    return {
        "dealer": dealer,
        "outcome": "played",
        "soloist": soloist,
        "contract": "chiamo",
        "soloist_points": 7 if made else 4,
    }


def briscola(n: int, *points: tuple[int, ...]) -> list[dict]:
    """Briscola hands at a table of ``n`` seats with these card points per side, dealt in turn."""
    return [{"dealer": i % n, "points": list(p)} for i, p in enumerate(points)]


def new_round(competition: Competition, by: Actor, ruleset: str | None = None):
    round_ = services.add_round(competition=competition, by=by, ruleset=ruleset)
    services.generate_round(round_=round_, by=by, seed=round_.number)
    services.publish_round(round_=round_, by=by)
    return list(round_.tables.select_related("game").order_by("number"))


@pytest.fixture
def league(club, olga) -> Competition:
    """A league of seven mixing Terziglio (tables of three and four, shared places, a chiamo
    failed then made) and Briscola (drawn hands, card points), with a game left unfinished, a
    forfeited table and an adjustment: every branch of the reading."""
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Lega",
        kind="league",
        format="club_night",
        rulesets=["terziglio", "briscola"],
        options={"terziglio": {"target_score": 2}, "briscola": {"hands_to_win": 2}},
        tie_breaks=["points", "head_to_head", "card_points", "hands_won", "opponents_strength"],
        scheme="placement",
    )
    for name in NAMES[:7]:
        services.add_entry(competition=competition, player=name, by=by)

    three, four = sorted(new_round(competition, by), key=lambda t: t.game.n)
    assert (three.game.n, four.game.n) == (3, 4)
    play(three.game, [chiamo(1, True)], by)  # -1, 2, -1: two share the second place
    play(four.game, [chiamo(2, False), chiamo(3, True, 1)], by)  # -1, 1, -3, 3

    three, two, unfinished = new_round(competition, by, "briscola")
    assert (three.game.n, two.game.n, unfinished.game.n) == (3, 2, 2)
    play(three.game, briscola(3, (50, 40, 30), (20, 60, 40), (30, 30, 60), (80, 20, 20)), by)
    play(two.game, briscola(2, (70, 50), (60, 60), (40, 80), (90, 30)), by)
    play(unfinished.game, briscola(2, (70, 50)), by)  # still in progress: not counted

    three, four = sorted(new_round(competition, by), key=lambda t: t.game.n)
    play(three.game, [chiamo(2, True, 1)], by)
    entry = four.seats.order_by("position").first().entry_id
    services.forfeit_table(table=four, by=by, reason="left early", points={entry: "1.5"})
    return Competition.objects.get(pk=competition.pk)


@pytest.fixture
def pairs_cup(club, olga) -> Competition:
    """Briscola for pairs: four people at a table, two entries."""
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club,
        by=by,
        name="Coppa a coppie",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs", "hands_to_win": 2}},
    )
    for i in range(4):
        services.add_entry(
            competition=competition, player=NAMES[2 * i], partner=NAMES[2 * i + 1], by=by
        )
    first, second = new_round(competition, by)
    play(first.game, briscola(4, (70, 50), (80, 40)), by)
    play(second.game, briscola(4, (60, 60), (50, 70), (40, 80)), by)
    return Competition.objects.get(pk=competition.pk)


# ---------------------------------------------------------------------------------------------
# Reading the results


@pytest.mark.parametrize("name", ["league", "pairs_cup"])
def test_results_of_reads_what_the_models_say_in_two_queries(
    name, request, django_assert_num_queries, monkeypatch
):
    competition = request.getfixturevalue(name)
    expected = reference_results(competition)
    assert len({r.game for r in expected}) == (5 if name == "league" else 2)
    with django_assert_num_queries(2):
        results = selectors.results_of(competition)
    assert results == expected

    standings = selectors.standings_of(competition)
    monkeypatch.setattr(selectors.standings, "results_of", reference_results)
    assert standings == selectors.standings_of(competition)


def test_places_come_from_the_rulesets_own_ranking(league):
    """Shared places (the two payers of a made chiamo, two sides of three with one hand won
    each), and every place at a table of four."""
    by_game: dict[int, dict[int, int]] = {}
    for r in selectors.results_of(league):
        by_game.setdefault(r.game, {})[r.entrant] = r.place
    assert sorted(sorted(places.values()) for places in by_game.values()) == [
        [1, 2],  # Briscola: won, drawn, lost, won
        [1, 2, 2],  # Briscola at three: one hand won each, then the decider
        [1, 2, 2],  # Terziglio: a chiamo made, twice
        [1, 2, 2],
        [1, 2, 3, 4],  # Terziglio at four: a chiamo failed, then one made
    ]


# ---------------------------------------------------------------------------------------------
# Entries


def test_unseeded_entries_come_after_the_seeded_ones_in_the_order_they_entered(club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Coppa", rulesets=["terziglio"]
    )
    for name, seed in [("Anna", None), ("Bruno", 2), ("Carla", None), ("Dario", 1)]:
        services.add_entry(competition=competition, player=name, seed=seed, by=by)
    names = [e.name for e in selectors.entries_of(competition)]
    assert names == ["Dario", "Bruno", "Anna", "Carla"]


# ---------------------------------------------------------------------------------------------
# Labels in the visitor's language


def compile_catalog(directory: Path, language: str, messages: dict[str, str]) -> None:
    """Write ``messages`` as a compiled gettext catalog (GNU .mo) of the ``django`` domain."""
    entries = {"": "Content-Type: text/plain; charset=UTF-8\n", **messages}
    keys = sorted(entries)
    originals = [k.encode() for k in keys]
    translated = [entries[k].encode() for k in keys]
    count = len(keys)
    data = b""
    tables: list[list[tuple[int, int]]] = [[], []]
    start = 28 + 16 * count
    for table, strings in zip(tables, (originals, translated), strict=True):
        for string in strings:
            table.append((len(string), start + len(data)))
            data += string + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, 28, 28 + 8 * count, 0, 0)
    body = b"".join(struct.pack("<2I", *pair) for table in tables for pair in table)
    path = directory / language / "LC_MESSAGES"
    path.mkdir(parents=True)
    (path / "django.mo").write_bytes(header + body + data)


HINT = "Points: %(scheme_label)s. Updated live as the games are played."
FRENCH = {
    "placement points": "points de classement",
    "Head to head": "Confrontations directes",
    "Card points": "Points des cartes",
    "Hands won": "Mains gagnées",
    "Opponents' strength": "Force des adversaires",
    HINT: "Points : %(scheme_label)s. Mis à jour en direct pendant les parties.",
}
ITALIAN = {
    "placement points": "punti di piazzamento",
    "Head to head": "Scontri diretti",
    "Card points": "Punti carte",
    "Hands won": "Mani vinte",
    "Opponents' strength": "Forza degli avversari",
    HINT: "Punti: %(scheme_label)s. Aggiornata in diretta durante le partite.",
}


@pytest.fixture
def catalogs(settings, tmp_path) -> Iterator[None]:
    compile_catalog(tmp_path, "fr", FRENCH)
    compile_catalog(tmp_path, "it", ITALIAN)
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]  # resets the loaded catalogs
    with translation.override("fr"):
        assert translation.gettext("Hands won") == "Mains gagnées"
    yield


def test_the_snapshot_stores_keys_and_is_the_same_in_every_language(league, catalogs):
    with translation.override("it"):
        data = services.store_standings(competition=league)
    with translation.override("fr"):
        assert services.store_standings(competition=league) == data
    snapshot = StandingsSnapshot.objects.get(competition=league)
    assert snapshot.version == 1 and snapshot.data == data
    assert "scheme_label" not in data
    assert data["tables"][0]["columns"] == [
        ["points", "Points"],
        ["head_to_head", "Head to head"],
        ["card_points", "Card points"],
        ["hands_won", "Hands won"],
        ["opponents_strength", "Opponents' strength"],
    ]


def test_a_cached_snapshot_shows_its_labels_in_the_visitors_language(league, catalogs, api):
    with translation.override("it"):
        services.store_standings(competition=league)
    # A snapshot cached before labels left it still holds Italian ones: they are not shown.
    snapshot = StandingsSnapshot.objects.get(competition=league)
    snapshot.data = selectors.labelled(snapshot.data) | {"scheme_label": "punti di piazzamento"}
    snapshot.data["tables"][0]["columns"][3][1] = "Mani vinte"
    snapshot.save()
    partial = reverse("public-standings", args=[league.club.slug, league.slug])
    api_url = reverse("api-competition-standings", args=[league.pk])

    french = Client().get(partial, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Points : points de classement. Mis à jour" in french
    assert "Mains gagnées" in french and "Force des adversaires" in french
    assert "Mani vinte" not in french and "piazzamento" not in french
    italian = Client().get(partial, HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Punti: punti di piazzamento. Aggiornata" in italian and "Mani vinte" in italian
    english = Client().get(partial, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Points: placement points. Updated" in english and "Hands won" in english

    body = api.get(api_url, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert body["scheme"] == "placement" and body["scheme_label"] == "points de classement"
    assert body["tables"][0]["columns"][3] == ["hands_won", "Mains gagnées"]
    assert api.get(api_url, HTTP_ACCEPT_LANGUAGE="it").json()["scheme_label"] == (
        "punti di piazzamento"
    )

    csv_url = reverse("public-standings-csv", args=[league.club.slug, league.slug])
    header = Client().get(csv_url, HTTP_ACCEPT_LANGUAGE="fr").content.decode().splitlines()[0]
    assert "Confrontations directes;Points des cartes;Mains gagnées" in header
