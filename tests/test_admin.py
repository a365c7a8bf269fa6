"""The admin is a read-only window on the data: every registered model lists and shows its
rows to a superuser, and nothing can be added, changed or deleted there (writes go through the
services, which check the rules and write the audit trail)."""

import pytest
from django.conf import settings
from django.contrib import admin
from django.urls import reverse

from scoring import services
from scoring.models import Game
from tournaments import services as tournament_services
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

REGISTERED = sorted(
    (model._meta.app_label, model._meta.model_name)
    for model in admin.site._registry
    if model._meta.app_label in settings.PROJECT_APPS
)


@pytest.fixture
def root(client, django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(user)
    return client


@pytest.fixture
def a_game(terziglio, olga):
    services.record_hand(
        game=terziglio,
        document={
            "dealer": 0,
            "outcome": "played",
            "soloist": 1,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=services.Actor.for_user(olga),
        idempotency_key="admin-hand-1",
    )
    return terziglio


def test_the_useful_pages_are_registered():
    assert {name for _app, name in REGISTERED} >= {
        "club",
        "membership",
        "player",
        "game",
        "auditevent",
        "competition",
        "round",
        "table",
    }


@pytest.mark.parametrize(("app", "model"), REGISTERED)
def test_every_page_lists_and_refuses_to_add(root, a_game, app, model):
    listing = root.get(reverse(f"admin:{app}_{model}_changelist"))
    assert listing.status_code == 200
    assert root.get(reverse(f"admin:{app}_{model}_add")).status_code == 403


def test_a_game_shows_its_hands_inline_and_cannot_be_changed_or_deleted(root, a_game):
    page = root.get(reverse("admin:scoring_game_change", args=[a_game.pk]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "chiamo" in body  # the hand's document, inline
    assert 'name="_save"' not in body
    removed = root.post(reverse("admin:scoring_game_delete", args=[a_game.pk]), {"post": "yes"})
    assert removed.status_code == 403
    assert Game.objects.filter(pk=a_game.pk).exists()


def test_nothing_written_through_a_change_form(root, club):
    before = club.name
    answer = root.post(
        reverse("admin:scoring_club_change", args=[club.pk]),
        {"name": "Renamed", "slug": club.slug, "language": "it", "time_zone": "Europe/Rome"},
    )
    assert answer.status_code == 403
    club.refresh_from_db()
    assert club.name == before


def test_a_competition_shows_its_entries_inline(root, club, players, olga):
    competition = tournament_services.create_competition(
        club=club, by=services.Actor.for_user(olga), name="Torneo", rulesets=["terziglio"]
    )
    for player in players[:3]:
        tournament_services.add_entry(
            competition=competition, player=player, by=services.Actor.for_user(olga)
        )
    page = root.get(reverse("admin:tournaments_competition_change", args=[competition.pk]))
    assert page.status_code == 200
    assert "Carla" in page.content.decode()
    assert Competition.objects.get(pk=competition.pk).entries.count() == 3
