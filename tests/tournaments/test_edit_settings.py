"""Issue 11, point 1: the settings of a competition are edited on a prefilled form; a change of
how counted results are computed, once a round is played, is saved only after a clear warning
is confirmed, and the standings are computed again. Every change is audited."""

import pytest

from scoring.models import Game
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import login
from tests.tournaments.helpers import codes, enter, make_competition, play, terziglio_won_by
from tournaments import services
from tournaments.forms import CompetitionSettingsForm
from tournaments.models import Competition, CompetitionEvent, StandingsSnapshot

pytestmark = pytest.mark.django_db


def posted(competition, **changes):
    """What the prefilled form sends untouched, with ``changes``."""
    form = CompetitionSettingsForm(competition=competition)
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value in (None, "", False):
            continue
        data[name] = "on" if value is True else value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def played(club, olga):
    """A tournament of three whose first round is played (Bruno won with a scegliete)."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", planned_rounds=3)
    enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    play(Game.objects.get(competition_table__round=round_), terziglio_won_by(1, 3), olga)
    services.close_round(round_=round_, by=by)
    return competition


def test_the_form_is_prefilled_and_a_plain_change_is_saved_and_audited(olga, club):
    competition = make_competition(club, olga, slug="coppa", planned_rounds=3,
                                   tie_breaks=["wins", "points"])  # fmt: skip
    client = login(olga)
    page = client.get("/c/uno/k/coppa/settings/").content.decode()
    assert 'value="Torneo"' in page and 'name="planned_rounds" value="3"' in page
    assert '<option value="wins" selected>' in page
    answer = client.post("/c/uno/k/coppa/settings/",
                         posted(competition, name="Torneo di primavera", planned_rounds=4))  # fmt: skip
    assert answer.status_code == 302
    competition.refresh_from_db()
    assert (competition.name, competition.planned_rounds) == ("Torneo di primavera", 4)
    assert competition.tie_breaks == ["wins", "points"]  # untouched fields keep their value
    event = CompetitionEvent.objects.get(action="update_competition")
    assert event.data["before"] == {"name": "Torneo", "planned_rounds": 3}
    assert event.data["after"] == {"name": "Torneo di primavera", "planned_rounds": 4}


def test_changing_counted_results_warns_then_recomputes_after_confirming(
    olga, played, django_capture_on_commit_callbacks
):
    client = login(olga)
    page = client.get("/c/uno/k/coppa/settings/").content.decode()
    assert 'id="counted-warning"' in page
    before = client.get("/p/uno/coppa/standings/").content.decode()
    data = posted(played, scheme="game_score")
    answer = client.post("/c/uno/k/coppa/settings/", data)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "This change recomputes the standings of the rounds already played" in html
    assert 'name="confirm"' in html
    assert Competition.objects.get(pk=played.pk).scheme == "placement"  # nothing changed
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/c/uno/k/coppa/settings/", data | {"confirm": "on"})
    assert answer.status_code == 302
    played.refresh_from_db()
    assert played.scheme == "game_score"
    event = CompetitionEvent.objects.get(action="update_competition")
    assert event.data["recomputed"] is True and event.data["changed"] == ["scheme"]
    snapshot = StandingsSnapshot.objects.get(competition=played)
    assert snapshot.data["scheme"] == "game_score"
    assert client.get("/p/uno/coppa/standings/").content.decode() != before


def test_bad_settings_are_refused_next_to_the_field_and_change_nothing(olga, played):
    answer = login(olga).post("/c/uno/k/coppa/settings/", posted(played, name="", table_size=9))
    assert answer.status_code == 400
    with pytest.raises(RuleViolation) as refused:
        services.update_competition(competition=played, by=Actor.for_user(olga), table_size=9,
                                    end_date=None, kind="league")  # fmt: skip
    assert codes(refused.value) == {("kind", "unknown_key")}
    with pytest.raises(RuleViolation) as refused:
        services.update_competition(competition=played, by=Actor.for_user(olga), table_size=9)
    assert codes(refused.value) == {("table_size", "range")}
    assert not CompetitionEvent.objects.filter(action="update_competition").exists()


def test_a_scorer_cannot_change_the_settings(sara, played):
    assert login(sara).post("/c/uno/k/coppa/settings/", posted(played, name="X")).status_code == 403
    assert Competition.objects.get(pk=played.pk).name == "Torneo"
