"""A whole tournament through the API: 13 Terziglio players, 4 rounds.

The organizer creates the tournament, enters the players, adds four dated rounds, draws them,
and for each round publishes it, has every table play its game to the end by posting hands to
``/api/v1/games/{id}/hands/`` (random but valid Terziglio hands, the deal passing in turn), and
closes it. The standings are then worked out here from the games' final totals — placement points
4/2/0 at tables of three and 3/2/1/0 at tables of four, shared places sharing the points of the
places they cover, ties broken by wins then opponents' strength — without
``tournaments.standings``, and compared with the API's, entry by entry.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest

pytestmark = pytest.mark.django_db

PLAYERS = [
    "Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina", "Ugo", "Ivo", "Lia", "Mario",
    "Nina", "Olivia",
]  # fmt: skip
ROUNDS = [
    ("2026-04-11", "15:00"),
    ("2026-04-11", "18:00"),
    ("2026-04-12", "10:00"),
    ("2026-04-12", "15:00"),
]
CONTRACTS = ("chiamo", "solo", "solissimo", "dividete", "scegliete")
POINTS = {3: (4, 2, 0), 4: (3, 2, 1, 0)}


def ok(response, code=200):
    assert response.status_code == code, (response.status_code, response.content[:500])
    return response.json()


def next_hand(rng: random.Random, number: int, seats: int) -> dict:
    """A valid hand: the deal passes in turn from seat 0; at a table of four the dealer sits
    out; now and then nobody bids."""
    dealer = (number - 1) % seats
    if rng.random() < 0.1:
        return {"dealer": dealer, "outcome": "passed_out"}
    active = [s for s in range(seats) if not (seats == 4 and s == dealer)]
    return {
        "dealer": dealer,
        "outcome": "played",
        "soloist": rng.choice(active),
        "contract": rng.choice(CONTRACTS),
        "soloist_points": rng.randint(0, 11),
    }


def play_to_the_end(api, game_id: int, seats: int, rng: random.Random) -> dict:
    """Post hands until the game is finished; returns the game as the API shows it."""
    for number in range(1, 201):
        document = next_hand(rng, number, seats)
        key = f"flow-{game_id}-{number}"
        hand = ok(
            api.post(
                f"/api/v1/games/{game_id}/hands/", document, format="json", HTTP_IDEMPOTENCY_KEY=key
            ),
            201,
        )
        assert hand["number"] == number
        if number == 1:  # a resend (flaky Wi-Fi) gets the first answer and stores nothing
            again = api.post(
                f"/api/v1/games/{game_id}/hands/", document, format="json", HTTP_IDEMPOTENCY_KEY=key
            )
            assert again["Idempotent-Replayed"] == "true" and again.json() == hand
        if hand["status"] == "finished":
            break
    game = ok(api.get(f"/api/v1/games/{game_id}/"))
    assert game["status"] == "finished" and len(game["hands"]) == number
    return game


def placement(totals: list[int]) -> list[tuple[int, Fraction]]:
    """(place, points) of each seat: competition-style places, highest total first; shared
    places share the points of the places they cover."""
    row = POINTS[len(totals)]
    result = []
    for total in totals:
        place = 1 + sum(1 for other in totals if other > total)
        shared = totals.count(total)
        result.append((place, Fraction(sum(row[place - 1 : place - 1 + shared]), shared)))
    return result


def expected_standings(games: list[tuple[list[int], list[int]]]) -> dict[int, dict]:
    """Rank, points, wins and opponents' strength of every entry from (seated entries, final
    totals) of every game."""
    points: dict[int, Fraction] = defaultdict(Fraction)
    wins: dict[int, int] = defaultdict(int)
    met: dict[int, list[int]] = defaultdict(list)
    for entries, totals in games:
        for entry, (place, earned) in zip(entries, placement(totals), strict=True):
            points[entry] += earned
            wins[entry] += place == 1
            met[entry].append([other for other in entries if other != entry])
    # Per game, the mean of that table's opponents (docs/seating.md: fair across table sizes).
    strength = {
        e: sum((sum(points[o] for o in t) / len(t) for t in met[e]), Fraction(0)) for e in points
    }
    key = {e: (points[e], wins[e], strength[e]) for e in points}
    return {
        e: {
            "rank": 1 + sum(1 for other in key.values() if other > key[e]),
            "points": points[e],
            "wins": wins[e],
            "opponents_strength": strength[e],
        }
        for e in points
    }


def test_a_whole_terziglio_tournament_through_the_api(api, club):
    rng = random.Random(20260411)
    competition = ok(
        api.post(
            "/api/v1/clubs/uno/competitions/",
            {
                "name": "Torneo di primavera",
                "rulesets": ["terziglio"],
                "scheme": "placement",
                "format": "rotation",
                "planned_rounds": 4,
                "start_date": "2026-04-11",
                "end_date": "2026-04-12",
            },
            format="json",
        ),
        201,
    )
    base = f"/api/v1/competitions/{competition['id']}"
    entries = [
        ok(api.post(f"{base}/entries/", {"player": name}, format="json"), 201)["id"]
        for name in PLAYERS
    ]
    for number, (date, time) in enumerate(ROUNDS, start=1):
        created = ok(
            api.post(
                f"{base}/rounds/",
                {"date": date, "start_time": time, "duration_minutes": 150},
                format="json",
            ),
            201,
        )
        assert (created["number"], created["date"], created["start_time"]) == (number, date, time)
    ok(api.post(f"{base}/rounds/1/generate/", {"seed": 2026}, format="json"))

    played: list[tuple[list[int], list[int]]] = []
    for number in range(1, 5):
        draft = ok(api.get(f"{base}/rounds/{number}/"))
        assert draft["status"] == "draft"
        assert sorted(len(t["seats"]) for t in draft["tables"]) == [3, 3, 3, 4]
        assert sorted(s["entry"] for t in draft["tables"] for s in t["seats"]) == sorted(entries)
        published = ok(api.post(f"{base}/rounds/{number}/publish/"))
        assert published["status"] == "published"
        for table in published["tables"]:
            seated = [s["entry"] for s in table["seats"]]
            assert table["game"]["status"] == "in_progress"
            game = play_to_the_end(api, table["game"]["id"], len(seated), rng)
            assert game["players"] == [s["name"] for s in table["seats"]]
            assert game["title"] == f"Torneo di primavera · R{number} · T{table['number']}"
            played.append((seated, game["totals"]))
        closed = ok(api.post(f"{base}/rounds/{number}/close/"))
        assert closed["status"] == "closed"
        assert {t["game"]["status"] for t in closed["tables"]} == {"finished"}

    detail = ok(api.get(f"{base}/"))
    assert [r["status"] for r in detail["rounds"]] == ["closed"] * 4
    assert [(r["date"], r["start_time"]) for r in detail["rounds"]] == ROUNDS

    response = api.get(f"{base}/standings/")
    standings = ok(response)
    assert response["ETag"] == f'"s{competition["id"]}.{standings["version"]}"'
    assert standings["games_counted"] == 16 == len(played)
    expected = expected_standings(played)
    (overall,) = standings["tables"]
    assert len(overall["rows"]) == 13
    assert [row["rank"] for row in overall["rows"]] == sorted(
        row["rank"] for row in overall["rows"]
    )
    for row in overall["rows"]:
        wanted = expected[row["entry"]]
        assert row["rank"] == wanted["rank"], row
        assert row["points"] == pytest.approx(float(wanted["points"])), row
        assert row["values"]["wins"] == wanted["wins"], row
        assert row["values"]["opponents_strength"] == pytest.approx(
            float(wanted["opponents_strength"]),
            abs=0.005,  # the API shows 2 decimals
        ), row
        assert (row["games"], row["rounds"], row["ranked"], row["withdrawn"]) == (4, 4, True, False)
    # Every table's points add up to the points of its places: 6 at tables of 3, 6 at 4.
    assert sum(Fraction(row["points"]).limit_denominator(4) for row in overall["rows"]) == 16 * 6
    assert api.get(f"{base}/standings/", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
