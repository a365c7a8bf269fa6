"""Issue 22, point 3: a competition made private takes its games with it, at once.

Who may read a game is decided when it is read, from its club and its competition as they are
then (``scoring.selectors.public_games``), never from a flag copied when the round was
published. Every URL of the project that names a game (or a competition) is found by walking
the URL resolver, so that a route added later is covered without touching this test: once the
competition is private, a stranger (anonymous, or the organizer of another club) gets from each
of them exactly what a game that does not exist gets (a 404, the login page, or an answer that
says nothing of the game), and never its players' names; the club's members read as before.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.models import Club, Game
from scoring.services import Actor
from tests.builders import join
from tests.clients import api_as, login
from tests.tournaments.helpers import enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.forms import CompetitionSettingsForm
from tournaments.models import Competition, Round

pytestmark = pytest.mark.django_db

#: Keys of a URL that name a game, or a competition (and what hangs from it).
GAME_KEYS = {"game_id"}
COMPETITION_KEYS = ({"competition_id"}, {"club_slug", "slug"})
NAMES = ("Anna", "Bruno", "Carla")
#: A hand that does not end the game.
HAND = {"dealer": 0, "outcome": "played", "soloist": 1, "contract": "chiamo", "soloist_points": 5}


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + str(pattern.pattern), pattern.name


def _keys(name: str) -> set[str]:
    return set(get_resolver().reverse_dict.getlist(name)[0][0][0][1])


def routes(kind: str) -> list[str]:
    """The names of every URL that names a game (``kind="game"``) or a competition."""
    found = []
    for route, name in _walk(get_resolver().url_patterns):
        if route.startswith("admin/"):
            continue
        keys = _keys(name)
        if kind == "game" and keys >= GAME_KEYS:
            found.append(name)
        if kind == "competition" and any(k <= keys for k in COMPETITION_KEYS):
            found.append(name)
    return sorted(set(found))


def test_the_walk_finds_the_game_routes_of_pages_and_api():
    game = routes("game")
    for name in ("game", "game-live", "hand", "game-export", "game-board", "game-board-live"):
        assert name in game
    for name in ("api-game", "api-game-export", "api-game-hand", "api-game-audit"):
        assert name in game
    competition = routes("competition")
    assert {"public-calendar", "public-standings-csv", "api-competition"} <= set(competition)


@pytest.fixture
def world(club, olga, bea, other_club):
    """A club whose results are public, a public competition of three (round 1 played and
    closed: a finished game; round 2 under way: a game with one hand), Mario a plain member
    of the club and Bea the owner of another club."""
    Club.objects.filter(pk=club.pk).update(results_public=True)
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", planned_rounds=2)
    enter(competition, olga, 3)
    games = []
    for number in (1, 2):
        round_ = services.add_round(competition=competition, by=by)
        services.generate_round(round_=round_, by=by, seed=number)
        services.publish_round(round_=round_, by=by)
        game = Game.objects.get(competition_table__round=round_)
        play(game, terziglio_won_by(1, 3) if number == 1 else [HAND], olga)
        if number == 1:
            services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
        games.append(Game.objects.get(pk=game.pk))
    assert [g.status for g in games] == ["finished", "in_progress"]
    mario = type(olga).objects.create_user("mario")
    join(club, mario, "member")
    return {"competition": competition, "games": games, "mario": mario}


def kwargs_for(name: str, game: Game | None, competition: Competition | None) -> dict:
    values = {
        "game_id": game.pk if game else 10**9,
        "number": 1,
        "competition_id": competition.pk if competition else 10**9,
        "club_slug": "uno",
        "slug": competition.slug if competition else "nessuna",
        "entry_id": competition.entries.first().pk if competition else 10**9,
        "table_id": Round.objects.get(competition=competition, number=2).tables.get().pk
        if competition
        else 10**9,
        # Teams and team matches: this competition is not between teams, it has none.
        "team_id": 10**9,
        "match_id": 10**9,
        "round_number": 1,
        # Circuits and registrations: none here.
        "circuit_id": 10**9,
        "registration_id": 10**9,
        "prize_id": 10**9,
        "call_id": 10**9,
        "table": 1,
        # The results picture's shape and format.
        "shape": "wide",
        "fmt": "png",
    }
    return {k: values[k] for k in _keys(name)}


def answer(client, method: str, path: str):
    return getattr(client, method)(path)


def make_private(how: str, competition: Competition, olga) -> None:
    if how == "api":
        response = api_as(olga).patch(
            f"/api/v1/competitions/{competition.pk}/", {"public": False}, format="json"
        )
        assert response.status_code == 200, response.content
    else:
        form = CompetitionSettingsForm(competition=competition)
        data = {}
        for name, field in form.fields.items():
            value = form.get_initial_for_field(field, name)
            if value not in (None, "", False):
                data[name] = "on" if value is True else value
        data.pop("public")  # an unticked box is not sent
        response = login(olga).post("/c/uno/k/coppa/settings/", data)
        assert response.status_code == 302, response.content.decode()
    assert not Competition.objects.get(pk=competition.pk).public


def strangers(bea) -> dict[str, Client]:
    return {"anonymous": Client(), "another club's organizer": login(bea)}


def refusals(client, kind: str, world) -> list[str]:
    """What a stranger may learn, route by route: the differences from a game (or competition)
    that does not exist, and any answer that shows a player's name."""
    found = []
    targets = world["games"] if kind == "game" else [None]
    for name in routes(kind):
        missing = reverse(name, kwargs=kwargs_for(name, None, None))
        for game in targets:
            path = reverse(name, kwargs=kwargs_for(name, game, world["competition"]))
            for method in ("get", "post"):
                got, nothing = answer(client, method, path), answer(client, method, missing)
                if got.status_code != nothing.status_code or got.status_code == 200:
                    found.append(f"{method.upper()} {path}: {got.status_code}")
                elif got.status_code == 302 and not got["Location"].startswith("/login/"):
                    found.append(f"{method.upper()} {path}: redirected to {got['Location']}")
                elif any(n in got.content.decode(errors="replace") for n in NAMES):
                    found.append(f"{method.upper()} {path}: names a player")
    return found


def member_reads(client, world, allowed=(200, 405)) -> list[str]:
    """Every game route a member of the club reads (GET) answers 200, or 405 where the route
    only writes (a plain member: 403 where only scorers go); never 404."""
    found = []
    for name in routes("game"):
        for game in world["games"]:
            path = reverse(name, kwargs=kwargs_for(name, game, world["competition"]))
            status = client.get(path).status_code
            if status not in allowed:
                found.append(f"GET {path}: {status}")
    return found


@pytest.mark.parametrize("how", ["api", "page"])
def test_a_competition_made_private_takes_every_game_route_with_it(how, world, olga, bea):
    competition, games = world["competition"], world["games"]
    for game in games:  # public until now, to anyone, in progress or finished
        assert Client().get(f"/g/{game.pk}/").status_code == 200
        assert Client().get(f"/api/v1/games/{game.pk}/export/").status_code == 200

    make_private(how, competition, olga)

    for persona, client in strangers(bea).items():
        assert refusals(client, "game", world) == [], persona
        assert refusals(client, "competition", world) == [], persona
    assert member_reads(login(olga), world) == []  # pages and API alike
    assert member_reads(login(world["mario"]), world, allowed=(200, 403, 405)) == []


def test_the_lists_leave_out_a_private_competitions_games(world, olga):
    games = world["games"]
    listed = {g["id"] for g in Client().get("/api/v1/clubs/uno/games/").json()["results"]}
    assert {g.pk for g in games} <= listed
    make_private("api", world["competition"], olga)
    assert not {g["id"] for g in Client().get("/api/v1/clubs/uno/games/").json()["results"]} & {
        g.pk for g in games
    }
    page = Client().get("/c/uno/").content.decode()
    assert all(f"/g/{g.pk}/" not in page for g in games)
    own = {
        g["id"] for g in api_as(world["mario"]).get("/api/v1/clubs/uno/games/").json()["results"]
    }
    assert {g.pk for g in games} <= own


def test_privacy_is_read_when_the_game_is_read_both_ways(world, olga):
    competition, (finished, playing) = world["competition"], world["games"]
    make_private("api", competition, olga)
    assert Client().get(f"/g/{playing.pk}/board/").status_code == 404
    response = api_as(olga).patch(
        f"/api/v1/competitions/{competition.pk}/", {"public": True}, format="json"
    )
    assert response.status_code == 200
    assert Client().get(f"/g/{playing.pk}/board/").status_code == 200
    assert Client().get(f"/api/v1/games/{finished.pk}/audit/").status_code in (401, 403, 404)


def test_a_private_club_keeps_a_public_competitions_games_readable(world, olga, club):
    """A public competition is followed online by anyone even when its club's results are
    private; the club's free games stay the club's."""
    Club.objects.filter(pk=club.pk).update(results_public=False)
    assert Client().get(f"/g/{world['games'][1].pk}/").status_code == 200
    assert Client().get(f"/api/v1/games/{world['games'][0].pk}/").status_code == 200


def test_a_players_page_leaves_out_a_private_competitions_games_for_strangers(world, olga):
    """The club's results are public, so its players' pages are: they list the games anyone
    may read, and no longer those of a competition made private (its members see them all)."""
    finished = world["games"][0]
    anna = finished.seats.get(index=0).player
    page, api = f"/c/uno/players/{anna.pk}/", f"/api/v1/clubs/uno/players/{anna.pk}/"
    assert [g["game"] for g in Client().get(api).json()["games"]] == [finished.pk]
    make_private("api", world["competition"], olga)
    answer = Client().get(api).json()
    assert answer["games"] == [] and answer["games_played"] == 0
    assert all(h["game"] != finished.pk for h in answer["history"])
    assert f"/g/{finished.pk}/" not in Client().get(page).content.decode()
    assert [g["game"] for g in api_as(world["mario"]).get(api).json()["games"]] == [finished.pk]
