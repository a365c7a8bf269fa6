"""The competition services on hand-built data: the organizer's moves on a round: swaps,
publishing (and its email), closing, forfeits.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(tests/tournaments/helpers.py); expected standings are worked out here from the games' final
totals, not by ``tournaments.standings``.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.core import mail

from scoring import selectors as scoring_selectors
from scoring.models import Game, Seat
from scoring.rules import RuleViolation
from scoring.services import Actor
from tournaments import scheduling, services
from tournaments.models import Adjustment, StandingsSnapshot

from .helpers import codes, enter, make_competition, play, tables_of, terziglio_won_by

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Editing, publishing, closing, forfeits


def test_swap_in_a_draft_measures_the_round_again(club, olga):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    services.publish_round(round_=first, by=Actor.for_user(olga))
    second = competition.rounds.get(number=2)
    assert second.metrics["repeated_pairs"] == 0
    # x's first-round table-mate y joins x's table in round 2, in place of z.
    x, z = tables_of(second)[0][:2]
    y = next(e for t in tables_of(first) if x in t for e in t if e != x)

    services.swap_in_round(round_=second, a=y, b=z, by=Actor.for_user(olga))

    second.refresh_from_db()
    tables = tables_of(second)
    assert y in tables[0] and z not in tables[0] and x in tables[0]
    # Planned together (rotation): measured again over every drawn round, and no draw time
    # (a swap is not a draw); the floors and the objective of the draw are kept.
    expected = services.metrics_dict(
        scheduling.measure(
            [scheduling.Round(tuple(tables_of(first))), scheduling.Round(tuple(tables))],
            sorted(e for t in tables for e in t), sitting_out=4,
        )
    )  # fmt: skip
    del expected["seconds"]
    bounds = {"bounds": {"fewest": 0, "spread": 1}, "objective": "spread"}
    assert second.metrics == expected | bounds
    assert second.metrics["repeated_pairs"] >= 1 and second.metrics["max_meetings"] == 2
    with pytest.raises(RuleViolation) as error:
        services.swap_in_round(round_=second, a=x, b=10**6, by=Actor.for_user(olga))
    assert codes(error.value) == {("b", "not_found")}
    with pytest.raises(RuleViolation) as error:
        services.swap_in_round(round_=first, a=x, b=y, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "not_allowed")}


@pytest.mark.parametrize("public", [True, False])
def test_publish_creates_a_game_per_table(club, olga, public):
    competition = make_competition(club, olga, name="Coppa", public=public, planned_rounds=1)
    entries = enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "required")}  # nothing drawn yet
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=4)

    services.publish_round(round_=round_, by=Actor.for_user(olga))

    round_.refresh_from_db()
    assert round_.status == "published" and round_.published_at is not None
    by_id = {e.pk: e for e in entries}
    for table in round_.tables.select_related("game"):
        game = table.game
        assert game.title == f"Coppa · R1 · T{table.number}"
        assert scoring_selectors.is_public_game(game) is public and game.ruleset == "terziglio"
        assert game.status == "in_progress" and game.created_by == olga
        players = list(Seat.objects.filter(game=game).order_by("index").values_list("player_id"))
        assert players == [(by_id[e].player_id,) for e in tables_of(round_)[table.number - 1]]
    assert Game.objects.count() == 2
    with pytest.raises(RuleViolation) as error:
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "not_allowed")}


def test_publishing_emails_the_entrants_when_asked(
    club, olga, django_user_model, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga, notify_entrants=True, planned_rounds=1)
    entries = enter(competition, olga, 3)
    user = django_user_model.objects.create_user("anna", email="anna@example.org")
    entries[0].player.user = user
    entries[0].player.save()
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga))
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=Actor.for_user(olga))
    (message,) = mail.outbox
    assert message.to == ["anna@example.org"]
    assert "Bruno" in message.body


@pytest.mark.parametrize(
    ("language", "when"),
    [("en", "Thu 5 Mar 2026 · 21:00"), ("it", "Gio 5 Mar 2026 · 21:00")],
)
def test_the_publish_email_names_the_others_at_the_table_and_says_when_as_the_pages_do(
    club, olga, django_user_model, django_capture_on_commit_callbacks, language, when
):
    club.language = language
    club.save(update_fields=["language"])
    competition = make_competition(club, olga, notify_entrants=True, planned_rounds=1)
    entries = enter(competition, olga, 3)
    user = django_user_model.objects.create_user("anna", email="anna@example.org")
    entries[0].player.user = user
    entries[0].player.save()
    by = Actor.for_user(olga)
    round_ = services.add_round(
        competition=competition, by=by, date=dt.date(2026, 3, 5), start_time=dt.time(21, 0)
    )
    services.generate_round(round_=round_, by=by)
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=by)
    (message,) = mail.outbox
    assert "Bruno" in message.body and "Carla" in message.body
    assert "Anna" not in message.body  # the recipient is not among the others
    assert when in message.body
    assert "2026-03-05" not in message.body and "21:00:00" not in message.body


def test_close_is_refused_while_a_game_is_open(club, olga):
    competition = make_competition(club, olga, planned_rounds=1)
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.close_round(round_=round_, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "not_allowed")}  # a draft
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    first, second = round_.tables.select_related("game").order_by("number")
    play(first.game, terziglio_won_by(1, 3), olga)
    with pytest.raises(RuleViolation) as error:
        services.close_round(round_=round_, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "unfinished")}
    assert error.value.problems[0].params["tables"] == (2,)
    play(second.game, terziglio_won_by(2, 3), olga)
    services.close_round(round_=round_, by=Actor.for_user(olga))
    round_.refresh_from_db()
    assert round_.status == "closed" and round_.closed_at is not None


def test_a_forfeit_abandons_the_game_and_gives_points_instead(
    club, olga, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga, planned_rounds=1)
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    first, second = round_.tables.select_related("game").order_by("number")
    a, b, c = tables_of(round_)[0]
    play(first.game, terziglio_won_by(1, 3), olga)
    with pytest.raises(RuleViolation) as error:
        services.forfeit_table(table=second, by=Actor.for_user(olga), reason=" ")
    assert codes(error.value) == {("reason", "required")}
    with pytest.raises(RuleViolation) as error:
        services.forfeit_table(table=second, by=Actor.for_user(olga), reason="x", points={a: 1})
    assert codes(error.value) == {(f"points.{a}", "not_found")}
    d, e, f = tables_of(round_)[1]
    # A played hand at the second table stays readable.
    play(second.game, [{"dealer": 0, "outcome": "passed_out"}], olga)

    with django_capture_on_commit_callbacks(execute=True):
        services.forfeit_table(
            table=second,
            by=Actor.for_user(olga),
            reason=" Franco felt ill ",
            points={d: 2, e: "1.5"},
        )

    second.refresh_from_db()
    game = Game.objects.get(pk=second.game_id)
    assert (game.status, game.abandon_reason, game.hand_count) == (
        "abandoned",
        "Franco felt ill",
        1,
    )
    assert (second.forfeited, second.forfeit_reason) == (True, "Franco felt ill")
    assert sorted(Adjustment.objects.values_list("entry_id", "points", "reason", "round_id")) == [
        (d, 2, "Franco felt ill", round_.pk),
        (e, Fraction(3, 2), "Franco felt ill", round_.pk),
    ]
    # The snapshot followed (the task ran after commit).
    data = StandingsSnapshot.objects.get(competition=competition).data
    assert {r["entry"]: r["points"] for r in data["tables"][0]["rows"]} == {
        a: 1, b: 4, c: 1, d: 2, e: 1.5, f: 0,
    }  # fmt: skip
    assert data["games_counted"] == 1
    services.close_round(round_=round_, by=Actor.for_user(olga))
