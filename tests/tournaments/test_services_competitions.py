"""The competition services on hand-built data: creating a competition, its validation, who
may write.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(tests/tournaments/helpers.py); expected standings are worked out here from the games' final
totals, not by ``tournaments.standings``.
"""

from __future__ import annotations

import datetime as dt

import pytest

from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from tournaments import services
from tournaments.models import CompetitionEvent

from .helpers import codes, enter, make_competition

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Creating a competition


def test_create_competition_stores_the_settings_and_an_event(club, olga):
    competition = make_competition(
        club,
        olga,
        name="  Torneo   di primavera ",
        options={"terziglio": {"target_score": 31}},
        planned_rounds=4,
        start_date=dt.date(2026, 4, 11),
        placement_points={"3": [5, 2, 0]},
    )
    assert (competition.name, competition.slug) == ("Torneo di primavera", "torneo-di-primavera")
    assert competition.options == {"terziglio": {"target_score": 31}}
    assert competition.placement_points == {"3": [5, 2, 0]}
    assert competition.tie_breaks == ["wins", "opponents_strength"]
    assert competition.created_by == olga and competition.public
    (event,) = CompetitionEvent.objects.filter(competition=competition)
    assert (event.action, event.actor, event.data) == (
        "create_competition",
        olga,
        {"name": "Torneo di primavera"},
    )


def test_create_competition_names_every_bad_field(club, olga):
    with pytest.raises(RuleViolation) as error:
        make_competition(
            club,
            olga,
            name="Coppa",
            rulesets=["terziglio", "poker", "terziglio"],
            kind="cup",
            format="ladder",
            scheme="luck",
            tie_breaks=["wins", "coin", "wins"],
            table_size=9,
            planned_rounds=0,
            best_of=0,
            min_rounds=-1,
            start_date=dt.date(2026, 5, 2),
            end_date=dt.date(2026, 5, 1),
            placement_points={"3": [4, 2], "4": "many"},
            options={"briscola": {"hands_to_win": 3}},
        )
    assert codes(error.value) == {
        ("rulesets[1]", "choice"),
        ("rulesets", "duplicate"),
        ("rulesets", "inconsistent"),  # several games need a league
        ("kind", "choice"),
        ("format", "choice"),
        ("scheme", "choice"),
        ("tie_breaks[1]", "choice"),
        ("tie_breaks", "duplicate"),
        ("table_size", "range"),
        ("planned_rounds", "range"),
        ("best_of", "range"),
        ("min_rounds", "range"),
        ("end_date", "inconsistent"),
        ("placement_points.3", "length"),
        ("placement_points.4", "type"),
        ("options.briscola", "unknown_key"),
    }
    assert not club.competitions.exists()


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"name": "  "}, {("name", "required")}),
        ({"rulesets": []}, {("rulesets", "required")}),
        ({"format": "knockout"}, {("format", "inconsistent")}),
        ({"format": "round_robin", "rulesets": ["turkish"]}, {("format", "inconsistent")}),
        (
            {"options": {"terziglio": {"target_score": 0, "colour": "red"}}},
            {("options.terziglio.target_score", "range"), ("options.terziglio.colour", "unknown_key")},
        ),
        (
            {"rulesets": ["briscola"], "options": {"briscola": {"format": "pairs"}},
             "format": "knockout", "table_size": 3},
            set(),
        ),
    ],
)  # fmt: skip
def test_create_competition_validation(club, olga, fields, expected):
    if not expected:
        assert make_competition(club, olga, **fields).pairs
        return
    with pytest.raises(RuleViolation) as error:
        make_competition(club, olga, **fields)
    assert codes(error.value) == expected


def test_the_same_short_name_twice_in_a_club_is_refused(club, olga, other_club, bea):
    make_competition(club, olga, name="Coppa")
    with pytest.raises(RuleViolation) as error:
        make_competition(club, olga, name="coppa!")
    assert codes(error.value) == {("slug", "duplicate")}
    assert make_competition(other_club, bea, name="Coppa").slug == "coppa"


@pytest.mark.parametrize("who", ["sara", "bea"])
def test_only_owners_and_organizers_write(request, club, olga, oscar, who):
    actor = Actor.for_user(request.getfixturevalue(who))
    competition = make_competition(club, oscar)  # an organizer may
    (entry,) = enter(competition, olga, 1)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    calls = [
        lambda: services.create_competition(club=club, by=actor, name="X", rulesets=["briscola"]),
        lambda: services.add_entry(competition=competition, player="Zeno", by=actor),
        lambda: services.withdraw_entry(entry=entry, by=actor),
        lambda: services.add_round(competition=competition, by=actor),
        lambda: services.update_round(round_=round_, by=actor, duration_minutes=60),
        lambda: services.set_check_ins(round_=round_, entries=[entry], by=actor),
        lambda: services.generate_round(round_=round_, by=actor),
        lambda: services.publish_round(round_=round_, by=actor),
        lambda: services.close_round(round_=round_, by=actor),
        lambda: services.adjust(
            competition=competition, entry=entry, points=1, reason="x", by=actor
        ),
    ]
    for call in calls:
        with pytest.raises(NotAllowed):
            call()
    assert CompetitionEvent.objects.filter(competition=competition).count() == 3
