"""The competition services on hand-built data: one test per format and per organizer's move.

Games are played through ``scoring.services.record_hand`` with short, valid hand sequences
(helpers below); expected standings are worked out here from the games' final totals, not by
``tournaments.standings``.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

import pytest
from django.core import mail

from scoring import selectors as scoring_selectors
from scoring import services as scoring
from scoring.models import Game, Seat
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from tournaments import scheduling, selectors, services
from tournaments.models import (
    Adjustment,
    Bye,
    CompetitionEvent,
    Entry,
    Round,
    StandingsSnapshot,
    Table,
)

from .helpers import (
    briscola_won_by,
    byes_of,
    codes,
    enter,
    enter_pairs,
    make_competition,
    play,
    tables_of,
    terziglio_in_order,
    terziglio_won_by,
)

pytestmark = pytest.mark.django_db


#: Placement points by table size, as the competitions use them by default.
PLACEMENT = {2: (2, 0), 3: (4, 2, 0), 4: (3, 2, 1, 0), 5: (4, 3, 2, 1, 0)}


def placement_points(totals: list[int], sizes=PLACEMENT) -> list[Fraction]:
    """Points of each seat from a game's final totals (highest wins): places in competition
    style (1, 2, 2, 4), shared places share the points of the places they cover."""
    row = sizes[len(totals)]
    result = []
    for total in totals:
        place = 1 + sum(1 for other in totals if other > total)
        shared = totals.count(total)
        result.append(Fraction(sum(row[place - 1 : place - 1 + shared]), shared))
    return result


def publish_and_finish(round_: Round, user, hands_for_table) -> Round:
    """Publish ``round_`` and play each table's game with ``hands_for_table(table, n_seats)``."""
    services.publish_round(round_=round_, by=Actor.for_user(user))
    for table in round_.tables.select_related("game").order_by("number"):
        play(table.game, hands_for_table(table, table.game.n), user)
    return Round.objects.get(pk=round_.pk)


def row_of(data: dict, entry: int, key: str = "overall") -> dict:
    table = next(t for t in data["tables"] if t["key"] == key)
    return next(r for r in table["rows"] if r["entry"] == entry)


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


# ---------------------------------------------------------------------------------------------
# Rotation


@pytest.fixture
def rotation13(club, olga):
    """13 Terziglio players, 4 rounds planned, round 1 added and drawn (seed 7)."""
    competition = make_competition(club, olga, planned_rounds=4)
    entries = enter(competition, olga, 13)
    first = services.add_round(
        competition=competition,
        by=Actor.for_user(olga),
        date=dt.date(2026, 4, 11),
        start_time=dt.time(15, 30),
    )
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=7)
    return competition, entries


def test_rotation_of_13_terziglio_players_plans_every_draft_round_at_tables_of_3_and_4(
    rotation13,
):
    competition, entries = rotation13
    rounds = list(competition.rounds.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    assert {r.status for r in rounds} == {"draft"}
    # New rounds of the day follow each other: each starts when the one before should end.
    assert [(r.date, r.start_time) for r in rounds] == [
        (dt.date(2026, 4, 11), dt.time(15, 30)),
        (dt.date(2026, 4, 11), dt.time(17, 0)),
        (dt.date(2026, 4, 11), dt.time(18, 30)),
        (dt.date(2026, 4, 11), dt.time(20, 0)),
    ]
    everyone = sorted(e.pk for e in entries)
    for round_ in rounds:
        tables = tables_of(round_)
        assert sorted(len(t) for t in tables) == [3, 3, 3, 4]
        assert sorted(e for t in tables for e in t) == everyone
        assert not byes_of(round_)
        assert round_.method == "rotation" and round_.seed == 7
        assert set(round_.metrics) >= {"repeated_pairs", "max_meetings", "perfect", "method"}
    # The stored figures are those of the four rounds together.
    measured = scheduling.measure(
        [scheduling.Round(tuple(tables_of(r))) for r in rounds], everyone, sitting_out=4
    )
    assert rounds[0].metrics["repeated_pairs"] == measured.repeated_pairs
    assert rounds[0].metrics["max_meetings"] == measured.max_meetings
    # Drawing again with the same seed gives the same tables.
    before = [tables_of(r) for r in rounds]
    services.generate_round(round_=rounds[2], by=Actor.system(), seed=7)
    assert [tables_of(r) for r in competition.rounds.order_by("number")] == before


def test_a_withdrawal_redraws_the_drafts_and_keeps_the_published_rounds(rotation13, olga):
    competition, entries = rotation13
    first = competition.rounds.get(number=1)
    services.publish_round(round_=first, by=Actor.for_user(olga))
    played = tables_of(first)
    games = list(first.tables.values_list("game_id", flat=True))
    gone = entries[4]

    services.withdraw_entry(entry=gone, by=Actor.for_user(olga), reason="moved away")

    gone.refresh_from_db()
    assert gone.status == "withdrawn" and gone.withdrawn_at is not None
    first.refresh_from_db()
    assert tables_of(first) == played
    assert list(first.tables.values_list("game_id", flat=True)) == games
    rest = sorted(e.pk for e in entries if e != gone)
    for round_ in competition.rounds.filter(number__gt=1):
        tables = tables_of(round_)
        assert sorted(len(t) for t in tables) == [3, 3, 3, 3]
        assert sorted(e for t in tables for e in t) == rest
    event = CompetitionEvent.objects.filter(action="withdraw_entry").get()
    assert (event.reason, event.data["entry"]) == ("moved away", gone.pk)


# ---------------------------------------------------------------------------------------------
# Round robin, pairs, Swiss, knockout, club nights


def meetings_in(rounds) -> Counter:
    return Counter(
        frozenset(pair) for r in rounds for t in tables_of(r) for pair in combinations(t, 2)
    )


@pytest.mark.parametrize("count", [4, 5])
def test_round_robin_of_briscola_singles_meets_every_pair_once(club, olga, count):
    competition = make_competition(club, olga, rulesets=["briscola"], format="round_robin")
    entries = enter(competition, olga, count, seeded=True)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    rounds = list(competition.rounds.order_by("number"))
    ids = [e.pk for e in entries]
    assert len(rounds) == (count - 1 if count % 2 == 0 else count)
    met = meetings_in(rounds)
    assert met == Counter(frozenset(p) for p in combinations(ids, 2))
    assert all(len(t) == 2 for r in rounds for t in tables_of(r))
    byes = Counter(e for r in rounds for e in byes_of(r))
    if count % 2:
        assert byes == Counter(ids)  # one bye each, one per round
        assert all(len(byes_of(r)) == 1 for r in rounds)
    else:
        assert not byes
    assert {r.method for r in rounds} == {"round_robin"}


def test_briscola_pairs_sit_partners_opposite(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs", "hands_to_win": 1}},
    )
    assert competition.pairs
    with pytest.raises(RuleViolation) as error:
        services.add_entry(competition=competition, player="Solo", by=Actor.for_user(olga))
    assert codes(error.value) == {("partner", "required")}
    pairs = enter_pairs(competition, olga, 4)
    assert pairs[0].name == "Anna & Bruno"
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=3)
    tables = tables_of(round_)
    assert sorted(len(t) for t in tables) == [2, 2]
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    by_id = {e.pk: e for e in pairs}
    for table in round_.tables.select_related("game"):
        first, second = (by_id[e] for e in tables_of(round_)[table.number - 1])
        seats = list(
            Seat.objects.filter(game=table.game).order_by("index").values_list("player_id", "side")
        )
        assert seats == [
            (first.player_id, 0),
            (second.player_id, 1),
            (first.partner_id, 0),
            (second.partner_id, 1),
        ]
        assert table.game.options["format"] == "pairs"
        play(table.game, briscola_won_by(1, 4, 1), olga)  # the second pair wins
    data = selectors.standings_of(competition)
    winners = {t[1] for t in tables}
    for entry in pairs:
        row = row_of(data, entry.pk)
        assert row["name"] == entry.name
        assert row["points"] == (2 if entry.pk in winners else 0)
        assert row["games"] == 1


def test_swiss_groups_the_next_round_by_standing_and_avoids_repeats(club, olga):
    competition = make_competition(club, olga, format="swiss")
    entries = enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=5)
    assert sorted(len(t) for t in tables_of(first)) == [3, 3, 3]
    # At every table seat 0 wins, seat 1 is second, seat 2 last.
    publish_and_finish(first, olga, lambda table, n: terziglio_in_order([0, 1, 2]))
    services.close_round(round_=first, by=Actor.for_user(olga))
    placed = [list(group) for group in zip(*tables_of(first), strict=True)]

    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=5)

    assert second.method == "swiss"
    assert sorted(map(sorted, tables_of(second))) == sorted(map(sorted, placed))
    assert max(meetings_in([first, second]).values()) == 1
    assert second.metrics["repeated_pairs"] == 0
    assert len(entries) == 9


def test_knockout_of_8_seeds_the_bracket_and_seats_the_winners_next(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 8, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert tables_of(first) == [
        (seeds[1], seeds[8]),
        (seeds[4], seeds[5]),
        (seeds[2], seeds[7]),
        (seeds[3], seeds[6]),
    ]
    assert first.metrics["matches"] == [1, 2, 3, 4]
    services.publish_round(round_=first, by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.generate_round(round_=second, by=Actor.for_user(olga))
    assert codes(error.value) == {("round", "not_allowed")}
    # The home side wins, except at table 2 where seed 5 beats seed 4.
    for table in first.tables.select_related("game"):
        play(table.game, briscola_won_by(1 if table.number == 2 else 0, 2, 1), olga)
    services.close_round(round_=first, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga))
    assert tables_of(second) == [(seeds[1], seeds[5]), (seeds[2], seeds[3])]
    assert second.metrics["matches"] == [5, 6]


def test_knockout_of_6_gives_the_top_two_seeds_a_bye(club, olga):
    competition = make_competition(
        club,
        olga,
        rulesets=["briscola"],
        format="knockout",
        options={"briscola": {"hands_to_win": 1}},
    )
    seeds = {e.seed: e.pk for e in enter(competition, olga, 6, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert tables_of(first) == [(seeds[4], seeds[5]), (seeds[3], seeds[6])]
    assert first.bracket["byes"] == [seeds[1], seeds[2]]
    publish_and_finish(first, olga, lambda table, n: briscola_won_by(0, n, 1))
    services.close_round(round_=first, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga))
    assert tables_of(second) == [(seeds[1], seeds[4]), (seeds[2], seeds[3])]


def test_knockout_byes_are_recorded_as_byes_of_the_first_round(club, olga):
    competition = make_competition(club, olga, rulesets=["briscola"], format="knockout")
    seeds = {e.seed: e.pk for e in enter(competition, olga, 6, seeded=True)}
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga))
    assert byes_of(first) == {seeds[1], seeds[2]}


def test_a_club_night_seats_only_those_checked_in(club, olga):
    competition = make_competition(club, olga, kind="league", format="club_night")
    entries = enter(competition, olga, 8)
    night = services.add_round(competition=competition, by=Actor.for_user(olga))
    present = [e.pk for e in entries[:6]]
    assert services.set_check_ins(round_=night, entries=present, by=Actor.for_user(olga)) == (
        sorted(present)
    )
    services.generate_round(round_=night, by=Actor.for_user(olga), seed=2)
    tables = tables_of(night)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert sorted(e for t in tables for e in t) == sorted(present)
    assert not byes_of(night)
    # Checking in again replaces the list; unknown or withdrawn entries are refused.
    services.set_check_ins(round_=night, entries=present[:5], by=Actor.for_user(olga))
    assert set(night.check_ins.values_list("entry_id", flat=True)) == set(present[:5])
    services.withdraw_entry(entry=entries[7], by=Actor.for_user(olga))
    with pytest.raises(RuleViolation) as error:
        services.set_check_ins(
            round_=night, entries=[present[0], entries[7].pk, 10**6], by=Actor.for_user(olga)
        )
    assert codes(error.value) == {("entries", "not_found")}
    # Nobody checked in: every active entry is seated.
    services.set_check_ins(round_=night, entries=[], by=Actor.for_user(olga))
    services.generate_round(round_=night, by=Actor.for_user(olga), seed=2)
    assert sorted(e for t in tables_of(night) for e in t) == sorted(e.pk for e in entries[:7])


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


def test_an_entry_after_the_first_publication_is_late_and_joins_later_rounds(club, olga):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 9)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    early = services.add_entry(competition=competition, player="Zeno", by=Actor.for_user(olga))
    assert not early.late
    services.withdraw_entry(entry=early, by=Actor.for_user(olga))
    services.publish_round(round_=first, by=Actor.for_user(olga))
    late = services.add_entry(competition=competition, player="Zoe", by=Actor.for_user(olga))
    assert late.late
    assert CompetitionEvent.objects.get(action="add_entry", data__entry=late.pk).data["late"]
    second = competition.rounds.get(number=2)
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=1)
    seated = [e for t in tables_of(second) for e in t]
    assert late.pk in seated and early.pk not in seated
    assert late.pk not in [e for t in tables_of(first) for e in t]


def test_a_withdrawn_entry_keeps_its_results_and_is_not_seated_again(club, olga):
    competition = make_competition(club, olga, format="swiss")
    entries = enter(competition, olga, 7)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    publish_and_finish(first, olga, lambda table, n: terziglio_won_by(1, n))
    services.close_round(round_=first, by=Actor.for_user(olga))
    winner = tables_of(first)[0][1]
    gone = Entry.objects.get(pk=winner)

    services.withdraw_entry(entry=gone, by=Actor.for_user(olga), reason="left")

    totals = first.tables.get(number=1).game.totals
    row = row_of(selectors.standings_of(competition), gone.pk)
    assert (row["withdrawn"], row["games"]) == (True, 1)
    assert row["points"] == placement_points(totals)[1]
    second = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=second, by=Actor.for_user(olga), seed=1)
    seated = {e for t in tables_of(second) for e in t} | byes_of(second)
    assert seated == {e.pk for e in entries} - {gone.pk}


# ---------------------------------------------------------------------------------------------
# Standings through the selector and the snapshot


def test_best_of_and_minimum_attendance(club, olga):
    """A league of three nights counting each player's best two, ranked from two nights on.
    The expected points are worked out from the games' final totals."""
    competition = make_competition(
        club, olga, kind="league", format="club_night", best_of=2, min_rounds=2
    )
    entries = enter(competition, olga, 7)
    regulars, newcomer = entries[:6], entries[6]
    nightly: dict[int, list[Fraction]] = defaultdict(list)
    for night_number in (1, 2, 3):
        night = services.add_round(competition=competition, by=Actor.for_user(olga))
        present = regulars + ([newcomer] if night_number == 3 else [])
        services.set_check_ins(round_=night, entries=present, by=Actor.for_user(olga))
        services.generate_round(round_=night, by=Actor.for_user(olga), seed=night_number)
        night = publish_and_finish(
            night, olga, lambda table, n, k=night_number: terziglio_won_by(1 + (k + table.number) % (n - 1), n)
        )  # fmt: skip
        for table in night.tables.select_related("game"):
            seated = tables_of(night)[table.number - 1]
            for entry, points in zip(seated, placement_points(table.game.totals), strict=True):
                nightly[entry].append(points)
        services.close_round(round_=night, by=Actor.for_user(olga))

    data = selectors.standings_of(competition)

    rows = data["tables"][0]["rows"]
    for entry in entries:
        row = row_of(data, entry.pk)
        expected = sum(sorted(nightly[entry.pk], reverse=True)[:2])
        assert Fraction(row["points"]).limit_denominator(100) == expected, entry.name
        assert row["rounds"] == len(nightly[entry.pk])
        assert row["ranked"] is (len(nightly[entry.pk]) >= 2)
    assert rows[-1]["entry"] == newcomer.pk and rows[-1]["rank"] is None
    ranked = [r for r in rows if r["ranked"]]
    assert [r["points"] for r in ranked] == sorted((r["points"] for r in ranked), reverse=True)
    assert data["games_counted"] == 2 + 2 + 2


def test_a_correction_in_a_finished_game_moves_the_standings_through_the_snapshot(
    club, olga, django_capture_on_commit_callbacks
):
    competition = make_competition(club, olga, planned_rounds=1)
    entries = enter(competition, olga, 3)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    round_ = publish_and_finish(round_, olga, lambda table, n: terziglio_in_order([0, 1, 2]))
    services.close_round(round_=round_, by=Actor.for_user(olga))
    seated = tables_of(round_)[0]
    services.store_standings(competition=competition)
    snapshot = StandingsSnapshot.objects.get(competition=competition)
    assert snapshot.version == 1
    assert [r["entry"] for r in snapshot.data["tables"][0]["rows"]] == list(seated)
    game = round_.tables.get().game
    # The round is closed: its game is locked until an organizer reopens it.
    scoring.reopen_game(game=game, by=Actor.for_user(olga), reason="soloist mixed up")

    # Hand 2 was the scegliete of seat 0: it was seat 1's in fact.
    with django_capture_on_commit_callbacks(execute=True):
        scoring.correct_hand(
            game=game,
            number=2,
            document={**terziglio_in_order([0, 1, 2])[1], "soloist": 1},
            by=Actor.for_user(olga),
            reason="wrong soloist",
        )

    snapshot.refresh_from_db()
    assert snapshot.version == 2
    rows = snapshot.data["tables"][0]["rows"]
    assert [(r["entry"], r["rank"], r["points"]) for r in rows] == [
        (seated[1], 1, 4),
        (seated[0], 2, 2),
        (seated[2], 3, 0),
    ]
    assert {e.pk for e in entries} == set(seated)
    # Nothing changed: the version stays.
    services.store_standings(competition=competition)
    snapshot.refresh_from_db()
    assert snapshot.version == 2


def test_standings_of_reads_a_fixed_number_of_queries(club, olga, django_assert_num_queries):
    competition = make_competition(club, olga, planned_rounds=2)
    enter(competition, olga, 6)
    first = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    for round_ in competition.rounds.order_by("number"):
        publish_and_finish(round_, olga, lambda table, n: terziglio_in_order([2, 0, 1]))
    competition = type(competition).objects.get(pk=competition.pk)
    with django_assert_num_queries(4):
        data = selectors.standings_of(competition)
    assert data["games_counted"] == 4
    assert Table.objects.filter(round__competition=competition).count() == 4
    assert Bye.objects.count() == 0
