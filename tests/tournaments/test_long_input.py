"""Issue 22, point 7 (competitions): long but valid input never overflows a column.

Publishing a round of a competition whose name is 113 characters made game titles longer than
their column (``varchar(120)``): PostgreSQL refused them (a 500), SQLite stored them whole. Text
made from other text is cut to fit (at a word, with "…"); input longer than its own column is
refused by name. The stored lengths are asserted, so the tests mean the same on SQLite (which
does not enforce a ``varchar`` length) and on PostgreSQL (which does): run this module with
``DATABASE_URL`` set to a PostgreSQL database too.
"""

from __future__ import annotations

import inspect

import pytest
from django import forms
from django.db import models

from scoring.api.inputs import StrictInput
from scoring.models import Game, Player
from scoring.services import Actor
from tests.clients import field_error, login
from tests.tournaments.helpers import enter, make_competition
from tests.tournaments.pages_helpers import new_competition
from tournaments import api as tournament_api
from tournaments import forms as tournament_forms
from tournaments import services
from tournaments.api import competitions as competitions_api
from tournaments.api import entries as entries_api
from tournaments.api import rounds as rounds_api
from tournaments.forms import competitions as competition_forms
from tournaments.forms import draw as draw_forms
from tournaments.forms import entries as entry_forms
from tournaments.forms import rounds as round_forms
from tournaments.forms import settlement as settlement_forms
from tournaments.models import Adjustment, Competition, CompetitionEvent, Table
from tournaments.services._tables import table_title

TITLE_MAX = Game._meta.get_field("title").max_length
#: 113 characters, words of every length: the length the report found.
NAME_113 = (
    "Campionato provinciale di Terziglio e Briscola chiamata al Circolo Ricreativo "
    "dei Ferrovieri di Santa Maria Capua"
)


def test_the_name_of_the_report_is_valid_and_too_long_for_a_title_as_it_was():
    assert len(NAME_113) == 113
    assert len(f"{NAME_113} · R1 · T1") > TITLE_MAX


@pytest.mark.parametrize("name", [NAME_113, "x" * 120, "Torneo " + "lunghissimo" * 10])
def test_a_title_is_cut_at_a_word_to_fit_its_column(name):
    for round_number, table_number in ((1, 1), (12, 34), (60, 999)):
        title = table_title(name, round_number, table_number)
        suffix = f" · R{round_number} · T{table_number}"
        assert len(title) <= TITLE_MAX and title.endswith(suffix)
        kept = title.removesuffix(suffix)
        assert kept.endswith("…") and name.startswith(kept[:-1])
        body, room = kept[:-1], TITLE_MAX - len(suffix)
        if " " in name[room // 2 + 1 : room - 1]:  # a word ends in the second half: cut there
            assert name[len(body)] in " ·-,;:."
    assert table_title("Coppa", 1, 1) == "Coppa · R1 · T1"  # short names stay whole


@pytest.mark.django_db(transaction=True)
def test_publishing_a_round_of_a_competition_with_a_long_name(olga, club, api):
    """Through the API, as the report did, with real commits (PostgreSQL checks the length
    when the row is written)."""
    competition = make_competition(club, olga, name=NAME_113, slug="lungo")
    enter(competition, olga, 6)
    base = f"/api/v1/competitions/{competition.pk}/rounds/"
    assert api.post(base, {}, format="json").status_code == 201
    assert api.post(f"{base}1/generate/", {"seed": 1}, format="json").status_code == 200
    response = api.post(f"{base}1/publish/", {}, format="json")
    assert response.status_code == 200, response.content
    titles = list(Game.objects.order_by("pk").values_list("title", flat=True))
    assert len(titles) == 2
    for number, title in enumerate(titles, start=1):
        assert len(title) <= TITLE_MAX
        assert title.endswith(f"… · R1 · T{number}")
        assert title.startswith("Campionato provinciale di Terziglio")


@pytest.mark.django_db
def test_the_longest_valid_name_publishes_too_and_one_more_character_is_refused(olga, club, api):
    longest = "Coppa " + "a" * (Competition._meta.get_field("name").max_length - 6)
    competition = make_competition(club, olga, name=longest, slug="coppa")
    enter(competition, olga, 3)
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    assert len(Game.objects.get().title) <= TITLE_MAX

    created = api.post(
        "/api/v1/clubs/uno/competitions/",
        {"name": longest + "a", "rulesets": ["terziglio"]},
        format="json",
    )
    assert created.status_code == 400
    assert {e["field"] for e in created.json()["errors"]} == {"name"}
    changed = api.patch(
        f"/api/v1/competitions/{competition.pk}/", {"name": longest + "a"}, format="json"
    )
    assert changed.status_code == 400
    assert {e["field"] for e in changed.json()["errors"]} == {"name"}
    assert Competition.objects.get(pk=competition.pk).name == longest


@pytest.mark.django_db
def test_long_names_are_refused_next_to_their_field_on_the_pages(olga, club):
    client = login(olga)
    response = client.post("/c/uno/k/new/", new_competition(name="a" * 121))
    assert response.status_code == 400
    assert field_error(response.content.decode(), "name")
    assert not Competition.objects.exists()


@pytest.mark.django_db
def test_a_long_entry_name_is_refused_by_name(olga, club, api):
    competition = make_competition(club, olga, slug="coppa")
    name_max = Player._meta.get_field("display_name").max_length
    url = f"/api/v1/competitions/{competition.pk}/entries/"
    refused = api.post(url, {"player": "b" * (name_max + 1)}, format="json")
    assert refused.status_code == 400
    assert {e["field"] for e in refused.json()["errors"]} == {"player"}
    accepted = api.post(url, {"player": "b" * name_max}, format="json")
    assert accepted.status_code == 201
    assert Player.objects.filter(club=club).get().display_name == "b" * name_max
    page = login(olga).post("/c/uno/k/coppa/entries/", {"new_names": "c" * (name_max + 1)})
    assert page.status_code == 400
    assert field_error(page.content.decode(), "new_names")
    assert Player.objects.filter(club=club).count() == 1


#: The column each length-limited input ends up in, by the input's name.
COLUMNS = {
    "name": Competition._meta.get_field("name"),
    "slug": Competition._meta.get_field("slug"),
    "description": Competition._meta.get_field("description"),
    "player": Player._meta.get_field("display_name"),
    "partner": Player._meta.get_field("display_name"),
    "player_new": Player._meta.get_field("display_name"),
    "partner_new": Player._meta.get_field("display_name"),
    # Reasons go to text columns (no length of their own): any limit fits.
    "reason": CompetitionEvent._meta.get_field("reason"),
}
assert isinstance(Table._meta.get_field("forfeit_reason"), models.TextField)
assert isinstance(Adjustment._meta.get_field("reason"), models.TextField)


def limited_inputs() -> list[tuple[str, str, int]]:
    """``(owner, input name, max_length)`` of every form field and API input of the
    competitions with a length limit (forms: their declared fields)."""
    found = []
    for module in (competition_forms, draw_forms, entry_forms, round_forms, settlement_forms):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, forms.BaseForm) and cls.__module__.startswith("tournaments"):
                for field_name, field in cls.base_fields.items():
                    if getattr(field, "max_length", None):
                        found.append((name, field_name, field.max_length))
    for module in (competitions_api, entries_api, rounds_api):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            candidates = [cls] + [inner for inner in vars(cls).values() if inspect.isclass(inner)]
            for serializer in candidates:
                if issubclass(serializer, StrictInput) and serializer is not StrictInput:
                    for field_name, field in serializer().fields.items():
                        if getattr(field, "max_length", None):
                            found.append(
                                (f"{name}.{serializer.__name__}", field_name, field.max_length)
                            )
    return sorted(set(found))


def test_every_length_limit_of_a_form_or_an_input_is_its_columns():
    found = limited_inputs()
    assert ("CompetitionForm", "name", 120) in found
    assert any(owner.startswith("Entries") and f == "player" for owner, f, _ in found)
    assert tournament_api and tournament_forms
    for owner, field_name, limit in found:
        assert field_name in COLUMNS, f"{owner}.{field_name}: which column does it fill?"
        column = COLUMNS[field_name].max_length
        if column is not None:
            assert limit == column, f"{owner}.{field_name}: {limit}, its column {column}"
