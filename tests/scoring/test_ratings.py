"""Ratings stored by the services after games finish, compared with a direct computation
through the openskill library; the incremental path, recomputes, the command, the API and the
pages."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from scoring import services
from scoring.models import Club, Rating, RatingStep
from scoring.services import Actor
from scoring.services import ratings as rating_services
from tests.clients import api_as

pytestmark = pytest.mark.django_db

TERZIGLIO_ONE_HAND = {"target_score": 1}
WIN_0 = {"dealer": 0, "outcome": "played", "soloist": 0, "contract": "chiamo", "soloist_points": 7}


@pytest.fixture
def five(club, players, olga):
    elena = services.add_player(club=club, display_name="Elena", by=Actor.for_user(olga))
    return [*players, elena]


def start(club, olga, ruleset, seated, hands, options=None):
    return services.start_game(
        club=club,
        ruleset=ruleset,
        players=seated,
        hands=hands,
        options=options or {},
        by=Actor.for_user(olga),
    )


@pytest.fixture
def season(club, five, olga, django_capture_on_commit_callbacks):
    """Five games imported whole, one after the other (each is rated when it is stored)."""
    anna, bruno, carla, dario, elena = five
    with django_capture_on_commit_callbacks(execute=True):
        # Terziglio: Anna makes a chiamo: 2, -1, -1 (Anna first, Bruno and Carla second).
        start(club, olga, "terziglio", [anna, bruno, carla], [WIN_0], TERZIGLIO_ONE_HAND)
        # Briscola pairs: Bruno and Dario (seats 1, 3) win the one hand.
        start(
            club,
            olga,
            "briscola",
            [anna, bruno, carla, dario],
            [{"dealer": 0, "points": [50, 70]}],
            {"hands_to_win": 1},
        )
        # Briscola, one against one: Elena beats Anna.
        start(
            club,
            olga,
            "briscola",
            [elena, anna],
            [{"dealer": 0, "points": [80, 40]}],
            {"hands_to_win": 1},
        )
        # Turkish: Carla 0 (out), Dario 10, Elena 30: the lowest first.
        start(
            club,
            olga,
            "turkish",
            [dario, carla, elena],
            [
                {
                    "dealer": 0,
                    "went_out": 1,
                    "penalties": [{"seat": 0, "points": 10}, {"seat": 2, "points": 30}],
                }
            ],
            {"deals": 1},
        )
        # Chiamata: Bruno calls Elena and makes it; then Carla alone fails.
        start(
            club,
            olga,
            "briscola_chiamata",
            [anna, bruno, carla, dario, elena],
            [
                {"dealer": 0, "outcome": "played", "caller": 1, "partner": 4, "caller_points": 70},
                {"dealer": 1, "outcome": "played", "caller": 2, "partner": 2, "caller_points": 30},
            ],
            {"deals": 2},
        )
    return five


def expected(five):
    """The same season rated directly with openskill: per game and club-wide."""
    a, b, c, d, e = (p.pk for p in five)
    model = PlackettLuce()
    season = [
        ("terziglio", [([a], 1), ([b], 2), ([c], 2)]),
        ("briscola", [([a, c], 2), ([b, d], 1)]),
        ("briscola", [([e], 1), ([a], 2)]),
        ("turkish", [([d], 2), ([c], 1), ([e], 3)]),
        ("briscola_chiamata", [([b, e], 1), ([a, c, d], 2)]),
        ("briscola_chiamata", [([c], 2), ([a, b, d, e], 1)]),
    ]
    ratings, games = {}, {}
    counted = set()
    for index, (ruleset, teams) in enumerate(season):
        for scope in (ruleset, None):
            rated = model.rate(
                [[ratings.get((p, scope)) or model.rating() for p in team] for team, _ in teams],
                ranks=[rank for _, rank in teams],
            )
            for (team, _), new in zip(teams, rated, strict=True):
                for player, rating in zip(team, new, strict=True):
                    ratings[(player, scope)] = rating
        game = index if index < 5 else 4  # the two chiamata hands are one game
        for team, _ in teams:
            for player in team:
                for scope in (ruleset, None):
                    if (game, player, scope) not in counted:
                        counted.add((game, player, scope))
                        games[(player, scope)] = games.get((player, scope), 0) + 1
    return {
        key: (pytest.approx(r.mu, abs=1e-9), pytest.approx(r.sigma, abs=1e-9), games[key])
        for key, r in ratings.items()
    }


def stored(club, places=None):
    """The club's ratings by (player, ruleset); rounded to ``places`` when given (a recompute
    may differ in the last bits of a float from the incremental updates' order of sums)."""

    def rounded(x):
        return x if places is None else round(x, places)

    return {
        (r.player_id, r.ruleset): (rounded(r.mu), rounded(r.sigma), r.games)
        for r in Rating.objects.filter(club=club)
    }


def test_stored_ratings_equal_a_direct_openskill_computation(club, season):
    assert stored(club) == expected(season)
    for rating in Rating.objects.filter(club=club):
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    # one step per player and game, holding the ratings after that game
    assert RatingStep.objects.filter(club=club).count() == 3 + 4 + 2 + 3 + 5


def test_a_full_recompute_gives_the_same_ratings_as_the_incremental_updates(club, season):
    before = stored(club, 9)
    steps = sorted(RatingStep.objects.filter(club=club).values_list("player", "game", "mu"))
    answer = rating_services.recompute_club(club=club)
    assert (answer.how, answer.games, answer.ratings) == ("recomputed", 5, 21)
    assert stored(club, 9) == before
    again = sorted(RatingStep.objects.filter(club=club).values_list("player", "game", "mu"))
    assert [(p, g, round(mu, 9)) for p, g, mu in again] == [
        (p, g, round(mu, 9)) for p, g, mu in steps
    ]


def test_a_game_finishing_is_rated_incrementally_on_the_stored_ratings(
    club, season, olga, django_capture_on_commit_callbacks
):
    anna, bruno, carla = season[:3]
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=[carla, bruno, anna],
        options=TERZIGLIO_ONE_HAND,
        by=Actor.for_user(olga),
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.record_hand(game=game, document=WIN_0, by=Actor.for_user(olga))
    after = stored(club, 9)
    assert after[(carla.pk, "terziglio")][2] == 2
    assert after[(carla.pk, None)][2] == 5
    assert RatingStep.objects.filter(game=game).count() == 3
    assert rating_services.rate_game(game=game).how == "recomputed"  # already rated: replayed
    assert stored(club, 9) == after


def test_a_game_corrected_back_to_unfinished_leaves_the_ratings(
    club, season, olga, django_capture_on_commit_callbacks
):
    anna, bruno, carla = season[:3]
    before = stored(club, 9)
    game = services.start_game(
        club=club,
        ruleset="terziglio",
        players=[anna, bruno, carla],
        options=TERZIGLIO_ONE_HAND,
        by=Actor.for_user(olga),
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.record_hand(game=game, document=WIN_0, by=Actor.for_user(olga))
    assert stored(club, 9) != before
    with django_capture_on_commit_callbacks(execute=True):
        services.correct_hand(
            game=game,
            number=1,
            document={"dealer": 0, "outcome": "passed_out"},
            by=Actor.for_user(olga),
        )
    game.refresh_from_db()
    assert game.status == "in_progress"
    assert stored(club, 9) == before
    assert not RatingStep.objects.filter(game=game).exists()


def test_an_abandoned_finished_game_no_longer_counts(
    club, season, olga, django_capture_on_commit_callbacks
):
    chiamata = club.games.get(ruleset="briscola_chiamata")
    with django_capture_on_commit_callbacks(execute=True):
        services.abandon_game(game=chiamata, by=Actor.for_user(olga), reason="cards lost")
    assert stored(club)[(season[4].pk, None)][2] == 2  # Elena: Briscola and Turkish only
    assert (season[4].pk, "briscola_chiamata") not in stored(club)


def test_a_hand_of_a_game_in_progress_rates_nothing(club, season, terziglio):
    with CaptureQueriesContext(connection) as captured:
        answer = rating_services.rate_game(game=terziglio)
    assert answer.how == "nothing"
    assert not any(q["sql"].startswith(("INSERT", "UPDATE", "DELETE")) for q in captured)


def test_the_command_prints_the_stored_ratings_best_first_as_json(club, season):
    out = StringIO()
    call_command("ratings", club.slug, "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert [set(r) for r in rows] == [{"player", "ruleset", "mu", "sigma", "ordinal", "games"}] * 21
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    names = {p.pk: p.display_name for p in season}
    assert {(r["player"], r["ruleset"]): (r["mu"], r["sigma"], r["games"]) for r in rows} == {
        (names[p], ruleset): value for (p, ruleset), value in stored(club).items()
    }
    out = StringIO()
    call_command("ratings", club.slug, "--ruleset", "briscola", "--json", stdout=out)
    rows = json.loads(out.getvalue())
    assert {r["ruleset"] for r in rows} == {"briscola"} and len(rows) == 5


def test_the_command_refuses_an_unknown_club(db):
    from django.core.management import CommandError

    with pytest.raises(CommandError):
        call_command("ratings", "nowhere", "--json")


# -- API ---------------------------------------------------------------------------------------


def test_the_leaderboard_api_ranks_and_filters(club, season, olga, settings):
    api = api_as(olga)
    board = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?game=terziglio").json()["results"]
    assert [row["place"] for row in board] == [1, 2, 3]
    assert board[0]["name"] == "Anna" and board[0]["provisional"] is True
    assert board[0]["ruleset"] == "terziglio"
    club_wide = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/").json()["results"]
    assert {row["ruleset"] for row in club_wide} == {None} and len(club_wide) == 5
    settings.RATING_PROVISIONAL_GAMES = 3
    established = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?established=true").json()[
        "results"
    ]
    assert {row["name"] for row in established} == {"Anna", "Bruno", "Carla", "Dario", "Elena"}
    settings.RATING_PROVISIONAL_GAMES = 4
    established = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?established=1").json()["results"]
    assert {row["name"] for row in established} == {"Anna", "Carla"}
    recent = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?days=1").json()["results"]
    assert len(recent) == 5
    Rating.objects.filter(club=club, player=season[0]).update(last_played_at="2001-01-01T00:00Z")
    recent = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?days=30").json()["results"]
    assert "Anna" not in {row["name"] for row in recent}


def test_the_api_names_a_bad_query_parameter(club, season, olga):
    api = api_as(olga)
    response = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?days=soon&game=poker&x=1")
    assert response.status_code == 400
    errors = {(e["field"], e["code"]) for e in response.json()["errors"]}
    assert errors == {("days", "type"), ("game", "choice"), ("x", "unknown_key")}
    response = api.get(f"/api/v1/clubs/{club.slug}/leaderboard/?days=0")
    assert {(e["field"], e["code"]) for e in response.json()["errors"]} == {("days", "range")}


def test_the_ratings_api_lists_every_rating_like_the_command(club, season, olga):
    rows = api_as(olga).get(f"/api/v1/clubs/{club.slug}/ratings/").json()["results"]
    assert len(rows) == 21
    only = api_as(olga).get(f"/api/v1/clubs/{club.slug}/ratings/?game=turkish").json()["results"]
    assert [r["name"] for r in only] == ["Carla", "Dario", "Elena"]


def test_the_player_api_gives_ratings_history_and_statistics(club, season, olga):
    elena = season[4]
    data = api_as(olga).get(f"/api/v1/clubs/{club.slug}/players/{elena.pk}/").json()
    assert data["player"] == {"id": elena.pk, "name": "Elena"}
    assert (
        data["games_played"] == 3 and data["games_won"] == 1
    )  # Briscola (Bruno wins the chiamata)
    assert [r["ruleset"] for r in data["ratings"]] == [
        None,
        "briscola",
        "briscola_chiamata",
        "turkish",
    ]
    assert [h["ruleset"] for h in data["history"]] == ["briscola", "turkish", "briscola_chiamata"]
    assert data["per_game"]["turkish"] == {
        "games": 1,
        "deals": 1,
        "average_penalty": 30.0,
        "out_first": 0,
    }
    assert data["per_game"]["briscola_chiamata"]["calls"] == 0
    assert [p["name"] for p in data["best_partners"]] == ["Bruno", "Anna", "Dario"]
    assert data["activity"][0]["games"] == 3


def test_private_clubs_hide_ratings_from_strangers(club, season, bea, other_club):
    for url in (
        f"/api/v1/clubs/{club.slug}/leaderboard/",
        f"/api/v1/clubs/{club.slug}/ratings/",
        f"/api/v1/clubs/{club.slug}/players/{season[0].pk}/",
    ):
        assert api_as(None).get(url).status_code == 404
        assert api_as(bea).get(url).status_code == 404
    # a player of another club is not found through this club
    stranger = other_club.players.first()
    assert api_as(bea).get(f"/api/v1/clubs/{club.slug}/players/{stranger.pk}/").status_code == 404


# -- pages -------------------------------------------------------------------------------------


def test_the_player_page_shows_ratings_chart_statistics_and_links(client, club, season, olga):
    client.force_login(olga)
    anna = season[0]
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/c/{club.slug}/players/{anna.pk}/")
    assert response.status_code == 200
    # session, user, club, role, player, its tags (the organizers' form), ratings, games, seats,
    # hands, rating steps, and the boards of team competitions (a section the competitions add:
    # PLAYER_PAGE_SECTIONS)
    assert len(captured) == 12
    html = response.content.decode()
    assert "<polyline" in html and 'data-series="club"' in html
    assert 'data-series="terziglio"' in html
    assert f'href="/c/{club.slug}/players/{season[1].pk}/"' in html  # an opponent's page
    assert 'id="per-game"' in html and 'data-contract="chiamo"' in html


def test_the_player_page_query_count_does_not_grow_with_games(
    client, club, season, olga, django_capture_on_commit_callbacks
):
    client.force_login(olga)
    anna, bruno, carla = season[:3]
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            start(club, olga, "terziglio", [anna, bruno, carla], [WIN_0], TERZIGLIO_ONE_HAND)
    with CaptureQueriesContext(connection) as captured:
        client.get(f"/c/{club.slug}/players/{anna.pk}/")
    assert len(captured) == 12


def test_player_pages_and_the_leaderboard_are_public_only_when_the_club_is(client, club, season):
    anna = season[0]
    assert client.get(f"/c/{club.slug}/players/{anna.pk}/").status_code == 404
    assert client.get(f"/c/{club.slug}/leaderboard/").status_code == 404
    Club.objects.filter(pk=club.pk).update(results_public=True)
    assert client.get(f"/c/{club.slug}/players/{anna.pk}/").status_code == 200
    response = client.get(f"/c/{club.slug}/leaderboard/?game=terziglio")
    assert response.status_code == 200
    assert f'href="/c/{club.slug}/players/{anna.pk}/"' in response.content.decode()


def test_the_leaderboard_page_shows_a_bad_filter_next_to_the_field(client, club, season, olga):
    client.force_login(olga)
    response = client.get(f"/c/{club.slug}/leaderboard/?days=0")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_days_error"' in html
    assert html.count("data-player=") == 5  # the filter is ignored, the board shown


def test_players_list_and_game_page_link_to_player_pages(client, club, season, olga):
    client.force_login(olga)
    anna = season[0]
    link = f'href="/c/{club.slug}/players/{anna.pk}/"'
    assert link in client.get(f"/c/{club.slug}/players/").content.decode()
    game = club.games.get(ruleset="terziglio")
    assert link in client.get(f"/g/{game.pk}/").content.decode()


def test_removing_the_last_hand_of_a_finished_game_takes_it_out_of_the_ratings(
    club, season, olga, django_capture_on_commit_callbacks
):
    before = stored(club, 9)
    anna, bruno, carla = season[:3]
    with django_capture_on_commit_callbacks(execute=True):
        game = start(club, olga, "terziglio", [anna, bruno, carla], [WIN_0], TERZIGLIO_ONE_HAND)
    assert RatingStep.objects.filter(game=game).count() == 3
    with django_capture_on_commit_callbacks(execute=True):
        services.remove_hand(game=game, number=1, by=Actor.for_user(olga), reason="typo")
    assert stored(club, 9) == before
