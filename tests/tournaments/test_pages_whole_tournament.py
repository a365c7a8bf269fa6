"""The competition pages, a whole tournament: 13 Terziglio players through 4 rounds with every
game finished, the standings checked against points worked out by hand in the comments."""

import pytest
from django.test import Client

from scoring import services as scoring
from scoring.models import Game, GameStatus
from scoring.services import Actor
from tests.clients import login
from tournaments.models import Competition, Entry, RoundStatus, Table

from .pages_helpers import new_competition, standings_rows

pytestmark = pytest.mark.django_db


def seat_of(game, name):
    return list(game.seats.order_by("index").values_list("player__display_name", flat=True)).index(
        name
    )


# -- a whole tournament through the pages -----------------------------------------------------

NAMES = [
    "Anna",
    "Bruno",
    "Carla",
    "Dario",
    "Elio",
    "Fabio",
    "Gina",
    "Ugo",
    "Ivo",
    "Lara",
    "Marco",
    "Nino",
    "Olivia",
]

#: The tables of each round (the draw is rearranged by swaps on the round page to these) and
#: how each game goes, with the target score at 2:
#:   ("clean", W)        W makes a chiamo in hand 1: +2, the others -1 each.
#:                       Places W 1st alone, the two others share 2nd: 4 / 1 / 1 points.
#:   ("comeback", W, X)  X fails a chiamo (-2, the others +1), then W makes one (+2, the others
#:                       -1): W 3, the third 0, X -3. Places 1 / 2 / 3: 4 / 2 / 0 points.
#:   ("four", W, D)      a table of four: D deals hand 1 and sits out, W makes a chiamo: W +2,
#:                       the two payers -1, D 0. Places 1, 2, 3=, 3=: 3 / 2 / 0.5 / 0.5.
ROUNDS = [
    [
        ("Anna Bruno Carla", ("clean", "Anna")),
        ("Dario Elio Fabio", ("comeback", "Elio", "Dario")),
        ("Gina Ugo Ivo", ("clean", "Gina")),
        ("Lara Marco Nino Olivia", ("four", "Lara", "Olivia")),
    ],
    [
        ("Anna Dario Gina", ("clean", "Anna")),
        ("Bruno Elio Lara", ("comeback", "Lara", "Bruno")),
        ("Carla Ugo Marco", ("clean", "Marco")),
        ("Fabio Ivo Nino Olivia", ("four", "Nino", "Fabio")),
    ],
    [
        ("Anna Elio Marco", ("comeback", "Elio", "Anna")),
        ("Bruno Fabio Ugo", ("clean", "Bruno")),
        ("Carla Gina Nino", ("clean", "Carla")),
        ("Dario Ivo Lara Olivia", ("four", "Ivo", "Dario")),
    ],
    [
        ("Anna Fabio Lara", ("clean", "Anna")),
        ("Bruno Dario Marco", ("comeback", "Dario", "Marco")),
        ("Carla Elio Ivo", ("clean", "Carla")),
        ("Gina Ugo Nino Olivia", ("four", "Olivia", "Ugo")),
    ],
]

#: Points by hand, round by round (R1 + R2 + R3 + R4):
#:   Anna   4 (clean win) + 4 (clean win) + 0 (failed, 3rd) + 4 (clean win)   = 12
#:   Elio   4 (comeback)  + 2 (2nd)       + 4 (comeback)    + 1 (shared 2nd)  = 11
#:   Carla  1             + 1             + 4               + 4               = 10
#:   Lara   3 (won at 4)  + 4             + 0.5 (3rd=, at 4) + 1              = 8.5
#:   Dario  0 (failed)    + 1             + 2 (idle dealer) + 4               = 7
#:   Bruno  1             + 0 (failed)    + 4               + 2               = 7
#:   Marco  0.5           + 4             + 2               + 0 (failed)      = 6.5
#:   Gina   4             + 1             + 1               + 0.5             = 6.5
#:   Olivia 2 (idle)      + 0.5           + 0.5             + 3               = 6
#:   Fabio  2             + 2 (idle)      + 1               + 1               = 6
#:   Ivo    1             + 0.5           + 3               + 1               = 5.5
#:   Nino   0.5           + 3             + 1               + 0.5             = 5
#:   Ugo    1             + 1             + 1               + 2 (idle)        = 5
#: (96 in all: 4 rounds × (3 tables of three × 6 + a table of four × 6).)
#: Ties, by wins then opponents' strength (for each game, the mean of its opponents' final
#: points, summed over the games: docs/seating.md):
#:   Dario and Bruno, 7 and one win each: Dario's tables R1 (Elio 11 + Fabio 6) / 2 = 8.5,
#:   R2 (Anna 12 + Gina 6.5) / 2 = 9.25, R3 (Ivo 5.5 + Lara 8.5 + Olivia 6) / 3 = 6.67,
#:   R4 (Bruno 7 + Marco 6.5) / 2 = 6.75: 31.17; Bruno's R1 (Anna 12 + Carla 10) / 2 = 11,
#:   R2 (Elio 11 + Lara 8.5) / 2 = 9.75, R3 (Fabio 6 + Ugo 5) / 2 = 5.5, R4 (Dario 7 + Marco
#:   6.5) / 2 = 6.75: 33. Bruno 5th, Dario 6th (the old sum per opponent, 69 against 66,
#:   counted Dario's table of four as a third opponent more).
#:   Marco and Gina, 6.5 and one win each: Marco 6.5 + 7.5 + 11.5 + 7 = 32.5, Gina 5.25 + 9.5 +
#:   7.5 + 5.33 = 27.58.
#:   Olivia (1 win) before Fabio (none); Nino (1 win) before Ugo (none).
EXPECTED = [
    ("1", "Anna", "12"),
    ("2", "Elio", "11"),
    ("3", "Carla", "10"),
    ("4", "Lara", "8.5"),
    ("5", "Bruno", "7"),
    ("6", "Dario", "7"),
    ("7", "Marco", "6.5"),
    ("8", "Gina", "6.5"),
    ("9", "Olivia", "6"),
    ("10", "Fabio", "6"),
    ("11", "Ivo", "5.5"),
    ("12", "Nino", "5"),
    ("13", "Ugo", "5"),
]


def arrange(client, url, round_, wanted):
    """Swap players on the round page until the draft's tables hold the ``wanted`` groups
    (which table gets which group: the table of four gets the group of four, the others in
    order)."""
    sizes = {t.number: t.seats.count() for t in round_.tables.all()}
    numbers = sorted(sizes, key=lambda n: (-sizes[n], n))
    groups = sorted(wanted, key=len, reverse=True)
    assert [sizes[n] for n in numbers] == [len(g) for g in groups]
    swaps = 0
    while True:
        seated = {
            t.number: set(t.seats.values_list("entry_id", flat=True))
            for t in Table.objects.filter(round=round_)
        }
        wrong = [(seated[n], g) for n, g in zip(numbers, groups, strict=True) if seated[n] != g]
        if not wrong:
            return swaps
        here, group = wrong[0]
        incoming, outgoing = min(group - here), min(here - group)
        response = client.post(url, {"action": "swap", "a": incoming, "b": outgoing})
        assert response.status_code == 302
        swaps += 1
        assert swaps <= 13


def play(game, outcome, olga, client=None):
    """Play a game to its end as described in ROUNDS (through the game page if ``client``)."""
    kind, winner = outcome[0], seat_of(game, outcome[1])
    if kind == "clean":
        hands = [(0, winner, 7)]
    elif kind == "comeback":
        hands = [(0, seat_of(game, outcome[2]), 4), (1, winner, 7)]
    else:
        hands = [(seat_of(game, outcome[2]), winner, 7)]
    for dealer, soloist, points in hands:
        if client is not None:
            form = {
                "dealer": dealer,
                "outcome": "played",
                "soloist": soloist,
                "contract": "chiamo",
                "entry": "points",
                "soloist_points": points,
                "sweep": "none",
            }
            assert client.post(f"/g/{game.pk}/hands/", form).status_code == 302
        else:
            scoring.record_hand(
                game=game,
                document={
                    "dealer": dealer,
                    "outcome": "played",
                    "soloist": soloist,
                    "contract": "chiamo",
                    "soloist_points": points,
                },
                by=Actor.for_user(olga),
            )
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_a_whole_tournament_through_the_pages(
    olga, club, players, django_capture_on_commit_callbacks
):
    client = login(olga)
    response = client.post(
        "/c/uno/k/new/",
        new_competition(
            name="Torneo di primavera",
            planned_rounds="4",
            terziglio__target_score="2",
            scheme="placement",
        ),
    )
    assert response.status_code == 302
    competition = Competition.objects.get()
    base = "/c/uno/k/torneo-di-primavera"
    response = client.post(
        f"{base}/entries/",
        {"players": [p.pk for p in players], "new_names": "\n".join(NAMES[4:])},
    )
    assert response.status_code == 302 and competition.entries.count() == 13
    entry = {e.player.display_name: e.pk for e in competition.entries.select_related("player")}
    response = client.post(
        f"{base}/",
        {
            "action": "add_round",
            "date": "2025-03-01",
            "start_time": "15:00",
            "duration_minutes": "60",
        },
    )
    assert response.status_code == 302
    # Round 1's draw plans the four rounds (rotation): rounds 2 to 4 appear as drafts.
    assert client.post(f"{base}/rounds/1/", {"action": "generate", "seed": "11"}).status_code == 302
    assert list(competition.rounds.values_list("number", "status")) == [
        (n, "draft") for n in (1, 2, 3, 4)
    ]
    for number, tables in enumerate(ROUNDS, start=1):
        url = f"{base}/rounds/{number}/"
        round_ = competition.rounds.get(number=number)
        page = client.get(url).content.decode()
        assert "Quality of the draw" in page and "Draft tables" in page
        wanted = [{entry[name] for name in names.split()} for names, _outcome in tables]
        arrange(client, url, round_, wanted)
        assert client.post(url, {"action": "publish"}).status_code == 302
        outcome_of = {
            frozenset(entry[name] for name in names.split()): outcome for names, outcome in tables
        }
        for index, table in enumerate(round_.tables.select_related("game").order_by("number")):
            seated = frozenset(table.seats.values_list("entry_id", flat=True))
            with django_capture_on_commit_callbacks(execute=True):
                play(table.game, outcome_of[seated], olga, client if index == 0 else None)
        assert client.post(url, {"action": "close", "confirm": "yes"}).status_code == 302
        round_.refresh_from_db()
        assert round_.status == RoundStatus.CLOSED
        assert Game.objects.filter(competition_table__round=round_).count() == 4

    public = Client().get("/p/uno/torneo-di-primavera/").content.decode()
    assert standings_rows(public) == EXPECTED
    # The same figures in the spreadsheet, with the tie-break columns.
    csv = Client().get("/p/uno/torneo-di-primavera/standings.csv").content.decode()
    lines = csv.split("\r\n")
    assert lines[0] == "Rank;Name;Points;Wins;Opponents' strength;Games;Rounds;Status"
    # Anna's tables: (Bruno 7 + Carla 10) / 2 + (Dario 7 + Gina 6.5) / 2 + (Elio 11 + Marco
    # 6.5) / 2 + (Fabio 6 + Lara 8.5) / 2 = 8.5 + 6.75 + 8.75 + 7.25 = 31.25.
    assert lines[1] == "1;Anna;12;3;31.25;4;4;"
    assert lines[5] == "5;Bruno;7;1;33;4;4;" and lines[6] == "6;Dario;7;1;31.17;4;4;"
    assert Entry.objects.filter(competition=competition, late=True).count() == 0
