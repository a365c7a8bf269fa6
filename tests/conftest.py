"""Personas shared by the database tests.

Club "Circolo Uno" (club A): Olga is its owner, Oscar an organizer, Sara a scorer; its players
are Anna, Bruno, Carla and Dario. Club "Circolo Due" (club B) is Bea's; its results are public.
"""

import os

import pytest
from django.db import transaction
from django.db.backends.base.operations import BaseDatabaseOperations
from django.test.client import RequestFactory
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from config.push import new_keys
from scoring import permanent, services
from scoring.models import AuditEvent
from scoring.services import Actor
from tests.builders import join, new_club
from tests.clients import api_as
from tests.demo_loading import load_demo
from tests.live import Stream
from tests.push_receiver import Receiver

# Property tests: a quick run by default (the whole suite stays fast on a laptop), a thorough one
# in CI (.ci/run sets HYPOTHESIS_PROFILE=ci). The test modules set no max_examples of their own,
# so the profile decides. No deadline: shared machines are too noisy for per-example timings.
hypothesis_settings.register_profile("default", max_examples=25, deadline=None)
hypothesis_settings.register_profile("ci", max_examples=300, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# `make test` measures coverage in pytest-xdist's workers through coverage's subprocess patch
# (pyproject.toml), which hands its configuration down in this variable. The processes the tests
# start themselves (manage.py, gunicorn, Celery) need no measuring: the coverage gate is on pure
# code, run in the workers. Without it they start in a third of the time. (Only in a worker: the
# process that starts the workers must hand it down to them.)
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COVERAGE_PROCESS_CONFIG", None)


@pytest.fixture(autouse=True, scope="session")
def flush_through_the_audit_triggers():
    """Transactional tests end with a flush of every table; the audit tables refuse it
    (``scoring.permanent``) unless it goes through ``permanent.unlocked``, as a demo reset
    would."""
    original = BaseDatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        with permanent.unlocked(self.connection):
            return original(self, sql_list)

    BaseDatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    BaseDatabaseOperations.execute_sql_flush = original


@pytest.fixture(autouse=True)
def english_browsers(monkeypatch):
    """The test clients ask for English, as a browser sends its ``Accept-Language``: a club's
    pages are in the club's language only for a visitor who asks for none the site speaks
    (``scoring.views.access.speak_club_language``); a test of that sends an empty header.
    The language a request left active in this thread is put back after each test."""
    base = RequestFactory._base_environ

    def environ(self, **request):
        if "HTTP_ACCEPT_LANGUAGE" not in self.defaults:
            request.setdefault("HTTP_ACCEPT_LANGUAGE", "en")
        return base(self, **request)

    monkeypatch.setattr(RequestFactory, "_base_environ", environ)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def quick_passwords(settings):
    """A cheap password hasher for tests: PBKDF2 costs about a second per hash here, which the
    personas would pay several times per test. (The live server of the browser tests runs in
    this process and sees it too.)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_cache():
    """The guessing throttles (scoring/throttles.py) count in the cache: every test starts
    with none of another test's tries, no token remembered by another test's requests and no
    poll answer kept from another test's (tournaments/middleware.py)."""
    from django.core.cache import cache

    from scoring.api.authentication import remembered
    from tournaments import middleware

    cache.clear()
    remembered.clear()
    middleware.forget()
    yield
    cache.clear()
    remembered.clear()
    middleware.forget()


@pytest.fixture
def streams():
    """``streams(url, client=..., headers=...)`` opens a live stream (``tests.live.Stream``);
    every one is hung up after the test."""
    opened: list[Stream] = []

    def open_(url: str, **kwargs) -> Stream:
        stream = Stream(url, **kwargs)
        opened.append(stream)
        return stream

    yield open_
    for stream in opened:
        stream.close()


@pytest.fixture(autouse=True)
def fresh_live_bus():
    """Every test starts with a live bus of its own (scoring/live/bus.py): no event another
    test published is in its history, whatever ids the database gave again."""
    from scoring.live.bus import reset_bus

    reset_bus()
    yield
    reset_bus()


@pytest.fixture
def olga(django_user_model):
    return django_user_model.objects.create_user("olga", password="pw-olga", first_name="Olga")


@pytest.fixture
def oscar(django_user_model):
    return django_user_model.objects.create_user("oscar", password="pw-oscar", first_name="Oscar")


@pytest.fixture
def sara(django_user_model):
    return django_user_model.objects.create_user("sara", password="pw-sara", first_name="Sara")


@pytest.fixture
def bea(django_user_model):
    return django_user_model.objects.create_user("bea", password="pw-bea", first_name="Bea")


@pytest.fixture
def club(olga, oscar, sara):
    club = new_club(olga, name="Circolo Uno", slug="uno")
    join(club, oscar, "organizer")
    join(club, sara, "scorer")
    # The trail so far is the set-up's (started, two members joined): tests read what follows.
    club.set_up_until = AuditEvent.objects.filter(club=club).latest("pk").pk
    return club


@pytest.fixture
def players(club, olga):
    by = Actor.for_user(olga)
    return [
        services.add_player(club=club, display_name=name, by=by)
        for name in ("Anna", "Bruno", "Carla", "Dario")
    ]


@pytest.fixture
def other_club(bea):
    club = new_club(bea, name="Circolo Due", slug="due", results_public=True)
    for name in ("Elena", "Franco", "Gina"):
        services.add_player(club=club, display_name=name, by=Actor.for_user(bea))
    return club


@pytest.fixture
def terziglio(club, players, olga):
    """A Terziglio game of Anna, Bruno and Carla with no hands yet."""
    return services.start_game(
        club=club, ruleset="terziglio", players=players[:3], by=Actor.for_user(olga)
    )


@pytest.fixture
def api(olga):
    return api_as(olga)


@pytest.fixture
def push_receiver(tmp_path, monkeypatch, settings):
    """A push service on this machine (tests/push_receiver.py), trusted for the test, and the
    site's VAPID keys made for it."""
    receiver = Receiver(tmp_path)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(receiver.cert))
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_keys()
    settings.VAPID_SUBJECT = "mailto:desk@club.example"
    yield receiver
    receiver.close()


@pytest.fixture(scope="module")
def demo_output(django_db_setup, django_db_blocker):
    """The demo loaded once for the module, in a transaction rolled back at its end; what
    ``loaddemo`` printed."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield load_demo()
        transaction.set_rollback(True)
