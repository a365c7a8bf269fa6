"""The home page and My games show a logged-in player the way into their club (issue 21,
point 14): their clubs with their role in their language, the games as links to start one, and
on My games, with no player linked yet, the players page where "This is me" is."""

import pytest

from tests.builders import join, new_club
from tests.clients import login

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "role"), [("en", "owner"), ("it", "proprietario"), ("fr", "propriétaire")]
)
def test_your_clubs_come_first_with_your_role_in_your_language(club, olga, bea, language, role):
    public = new_club(bea, name="Circolo Aperto", slug="aperto")
    public.results_public = True
    public.save(update_fields=["results_public"])
    client = login(olga)
    client.cookies["django_language"] = language
    page = client.get("/").content.decode()
    yours = page.index('<a href="/c/uno/">Circolo Uno <span class="badge">')
    assert f'<span class="badge">{role}</span></a>' in page
    assert yours < page.index('<a href="/c/aperto/">Circolo Aperto')


def test_the_games_are_links_to_start_one_in_your_club(club, olga, sara):
    page = login(sara).get("/").content.decode()  # a scorer: she may start games
    assert '<a href="/c/uno/games/new/?ruleset=turkish">Turkish <span' in page
    assert login(sara).get("/c/uno/games/new/?ruleset=turkish").status_code == 200


def test_the_games_are_no_links_for_who_cannot_start_one(client, club, django_user_model):
    page = client.get("/").content.decode()
    assert "<li>Turkish <span" in page and "games/new/" not in page
    reader = django_user_model.objects.create_user("mia", password="pw-mia")
    join(club, reader, "member")
    assert "games/new/" not in login(reader).get("/").content.decode()


def test_my_games_without_a_player_links_to_the_players_page_of_each_club(
    club, other_club, olga, django_user_model
):
    newcomer = django_user_model.objects.create_user("neo", password="pw-neo")
    join(club, newcomer, "member")
    join(other_club, newcomer, "member")
    page = login(newcomer).get("/me/games/").content.decode()
    assert "claim yours on the players page" in page
    assert 'href="/c/uno/players/"' in page and f'href="/c/{other_club.slug}/players/"' in page
