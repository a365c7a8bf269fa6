"""Changing a published round (``tournaments.services.changes``, issue 23 point 1): a swap, a
replacement by a late entrant or a bye, the tables not started drawn again, back to a draft;
each refused where a game has a hand, audited, the e-mails of the moved entries sent again, the
games seated again in place (the table links stay)."""

from __future__ import annotations

import pytest
from django.core import mail

from scoring.messages import message
from scoring.models import AuditEvent, Game, TableLink
from scoring.rules import RuleViolation
from scoring.services import Actor, Conflict, NotAllowed
from tests.clients import login
from tournaments import selectors, services
from tournaments.models import CompetitionEvent, RoundStatus

from .helpers import (
    codes,
    enter,
    enter_pairs,
    make_competition,
    play,
    published_night,
    tables_of,
    terziglio_won_by,
)
from .test_bracket import knockout_of_six


@pytest.fixture
def seven(club, olga):
    """A club night of 7 Terziglio players, published: a table of 4 and a table of 3."""
    return published_night(club, olga, 7, notify_entrants=True)


def seats_of_game(table) -> list[int]:
    return list(table.game.seats.order_by("index").values_list("player_id", flat=True))


def give_emails(round_, django_user_model):
    for entry in round_.entries:
        user = django_user_model.objects.create_user(
            entry.player.display_name.lower(), email=f"{entry.player.display_name}@example.org"
        )
        entry.player.user = user
        entry.player.save()


def test_a_swap_reseats_both_games_in_place_and_emails_the_two_tables(
    seven, olga, django_user_model, django_capture_on_commit_callbacks
):
    give_emails(seven, django_user_model)
    first, second = seven.tables.select_related("game").order_by("number")
    a, b = tables_of(seven)[0][0], tables_of(seven)[1][1]
    links = {t.game_id: TableLink.objects.get(game=t.game).token for t in (first, second)}
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_published(round_=seven, a=a, b=b, by=Actor.for_user(olga))
    after = tables_of(seven)
    assert after[0][0] == b and after[1][1] == a
    first.refresh_from_db()
    second.refresh_from_db()
    by_entry = {e.pk: e.player_id for e in seven.entries}
    assert seats_of_game(first) == [by_entry[e] for e in after[0]]
    assert seats_of_game(second) == [by_entry[e] for e in after[1]]
    # The same games and links: the phones holding them follow.
    assert {t.game_id: TableLink.objects.get(game=t.game).token for t in (first, second)} == links
    assert AuditEvent.objects.filter(action="reseat_game").count() == 2
    event = CompetitionEvent.objects.get(action="swap_published")
    assert event.data["tables"] == [1, 2] and event.actor == olga
    assert len(mail.outbox) == 7  # every entry of the two changed tables
    assert selectors.tables_to_reprint(seven) == [1, 2]


def test_a_swap_is_refused_where_a_table_has_hands_and_nothing_changes(seven, olga):
    first = seven.tables.select_related("game").get(number=1)
    play(first.game, terziglio_won_by(1, len(tables_of(seven)[0]))[:1], olga)
    before = tables_of(seven)
    with pytest.raises(RuleViolation) as refused:
        services.swap_published(
            round_=seven, a=before[0][0], b=before[1][0], by=Actor.for_user(olga)
        )
    assert codes(refused.value) == {("a", "not_allowed")}
    assert refused.value.problems[0].params == {"reason": "has_hands", "table": 1}
    assert "Table 1 has hands entered" in message(refused.value.problems[0])
    assert tables_of(seven) == before
    assert not CompetitionEvent.objects.filter(action="swap_published").exists()


def test_swap_refusals_by_name(seven, olga, sara):
    by = Actor.for_user(olga)
    (t1, t2) = tables_of(seven)
    with pytest.raises(RuleViolation) as refused:
        services.swap_published(round_=seven, a=t1[0], b=t1[1], by=by)
    assert codes(refused.value) == {("b", "not_allowed")}
    with pytest.raises(RuleViolation) as refused:
        services.swap_published(round_=seven, a=t1[0], b=999999, by=by)
    assert codes(refused.value) == {("b", "not_found")}
    with pytest.raises(RuleViolation) as refused:
        services.swap_published(round_=seven, a="x", b=t2[0], by=by)
    assert codes(refused.value) == {("a", "type")}
    with pytest.raises(NotAllowed):
        services.swap_published(round_=seven, a=t1[0], b=t2[0], by=Actor.for_user(sara))
    forfeited = seven.tables.get(number=2)
    services.forfeit_table(table=forfeited, by=by, points={}, reason="left")
    with pytest.raises(RuleViolation) as refused:
        services.swap_published(round_=seven, a=t1[0], b=t2[0], by=by)
    assert refused.value.problems[0].params["reason"] == "forfeited"


def test_a_draft_round_is_not_changed_this_way(club, olga):
    competition = make_competition(club, olga, format="club_night")
    enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    (t1, t2) = tables_of(round_)
    for change in (
        lambda: services.swap_published(round_=round_, a=t1[0], b=t2[0], by=Actor.for_user(olga)),
        lambda: services.replace_entry(round_=round_, absent=t1[0], by=Actor.for_user(olga)),
        lambda: services.redraw_tables(round_=round_, by=Actor.for_user(olga)),
        lambda: services.unpublish_round(round_=round_, by=Actor.for_user(olga)),
    ):
        with pytest.raises(RuleViolation) as refused:
            change()
        assert refused.value.problems[0].params["reason"] == "not_changeable"


def test_a_late_entrant_takes_the_absent_seat(
    seven, olga, django_user_model, django_capture_on_commit_callbacks
):
    give_emails(seven, django_user_model)
    late = services.add_entry(competition=seven.competition, player="Zeno", by=Actor.for_user(olga))
    late.player.user = django_user_model.objects.create_user("zeno", email="zeno@example.org")
    late.player.save()
    services.give_bye(round_=seven, entry=late, by=Actor.for_user(olga))  # sat out, then came
    absent = tables_of(seven)[1][0]
    table = seven.tables.select_related("game").get(number=2)
    game_id = table.game_id
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_entry(round_=seven, absent=absent, late=late.pk, by=Actor.for_user(olga))
    assert tables_of(seven)[1][0] == late.pk and not seven.byes.exists()
    table.refresh_from_db()
    assert table.game_id == game_id and late.player_id in seats_of_game(table)
    assert "zeno@example.org" in {m.to[0] for m in mail.outbox}
    assert len(mail.outbox) == len(tables_of(seven)[1])
    assert CompetitionEvent.objects.get(action="replace_entry").data == {
        "number": 1, "absent": absent, "late": late.pk, "tables": [2],
    }  # fmt: skip
    # The absent entry is not "left out by mistake"; it may still come back as a late entrant.
    assert selectors.unseated(seven) == []
    back = next(t for t in tables_of(seven) if len(t) == 4)[1]
    services.replace_entry(round_=seven, absent=back, late=absent, by=Actor.for_user(olga))
    assert absent in [e for t in tables_of(seven) for e in t]


def test_a_bye_makes_a_table_of_four_play_with_three(seven, olga):
    sizes = [len(t) for t in tables_of(seven)]
    four = sizes.index(4) + 1
    table = seven.tables.select_related("game").get(number=four)
    absent = tables_of(seven)[four - 1][2]
    services.replace_entry(round_=seven, absent=absent, by=Actor.for_user(olga))
    assert len(tables_of(seven)[four - 1]) == 3 and absent not in tables_of(seven)[four - 1]
    game = Game.objects.get(pk=table.game_id)
    assert game.seats.count() == 3 and game.status == "in_progress"
    assert [s.index for s in game.seats.order_by("index")] == [0, 1, 2]


def test_a_bye_is_refused_where_the_game_needs_everyone(seven, olga):
    three = [len(t) for t in tables_of(seven)].index(3) + 1
    absent = tables_of(seven)[three - 1][0]
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=seven, absent=absent, by=Actor.for_user(olga))
    assert codes(refused.value) == {("late", "required")}
    assert f"Table {three} cannot play with 2" in message(refused.value.problems[0])
    assert absent in tables_of(seven)[three - 1]


def test_replacement_refusals_by_name(seven, olga):
    by = Actor.for_user(olga)
    (t1, t2) = tables_of(seven)
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=seven, absent=t1[0], late=t2[0], by=by)  # already seated
    assert codes(refused.value) == {("late", "not_found")}
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=seven, absent=424242, by=by)
    assert codes(refused.value) == {("absent", "not_found")}
    late = services.add_entry(competition=seven.competition, player="Zeno", by=by)
    services.withdraw_entry(entry=late, by=by)
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=seven, absent=t1[0], late=late.pk, by=by)
    assert codes(refused.value) == {("late", "not_allowed")}
    assert message(refused.value.problems[0]) == (
        "Zeno has withdrawn: a withdrawn player takes no seat."
    )
    game = seven.tables.select_related("game").get(number=1).game
    play(game, terziglio_won_by(1, len(t1))[:1], olga)
    other = services.add_entry(competition=seven.competition, player="Yuri", by=by)
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=seven, absent=t1[0], late=other.pk, by=by)
    assert refused.value.problems[0].params == {"reason": "has_hands", "table": 1}


def test_redraw_moves_the_tables_not_started_and_keeps_the_others(club, olga):
    competition = make_competition(club, olga, format="club_night")
    enter(competition, olga, 9)
    round_ = services.add_round(competition=competition, by=Actor.for_user(olga))
    services.generate_round(round_=round_, by=Actor.for_user(olga), seed=1)
    services.publish_round(round_=round_, by=Actor.for_user(olga))
    before = tables_of(round_)
    assert len(before) == 3
    started = round_.tables.select_related("game").get(number=1)
    play(started.game, terziglio_won_by(1, len(before[0]))[:1], olga)
    games = dict(round_.tables.values_list("number", "game_id"))
    services.redraw_tables(round_=round_, by=Actor.for_user(olga), seed=7)
    after = tables_of(round_)
    assert after[0] == before[0]
    assert {frozenset(t) for t in after[1:]} != {frozenset(t) for t in before[1:]}
    assert set(after[1] + after[2]) == set(before[1] + before[2])
    assert dict(round_.tables.values_list("number", "game_id")) == games
    event = CompetitionEvent.objects.get(action="redraw_tables")
    assert event.data["tables"] == [2, 3] and event.data["seed"] == 7
    # One table left without a hand: nothing to draw again.
    play(round_.tables.get(number=2).game, terziglio_won_by(1, 3)[:1], olga)
    with pytest.raises(RuleViolation) as refused:
        services.redraw_tables(round_=round_, by=Actor.for_user(olga))
    assert refused.value.problems[0].params["reason"] == "nothing_to_redraw"
    with pytest.raises(RuleViolation) as refused:
        services.redraw_tables(round_=round_, by=Actor.for_user(olga), seed="x")
    assert codes(refused.value) == {("seed", "type")}


def test_unpublish_takes_the_round_back_to_a_draft(seven, olga):
    games = list(seven.tables.values_list("game_id", flat=True))
    drawn = tables_of(seven)
    services.unpublish_round(round_=seven, by=Actor.for_user(olga), reason="too early")
    seven.refresh_from_db()
    assert seven.status == RoundStatus.DRAFT and seven.published_at is None
    assert tables_of(seven) == drawn
    assert set(seven.tables.values_list("game_id", flat=True)) == {None}
    assert set(Game.objects.filter(pk__in=games).values_list("status", flat=True)) == {"abandoned"}
    assert CompetitionEvent.objects.get(action="unpublish_round").reason == "too early"
    # Published again: new games, new links.
    services.publish_round(round_=seven, by=Actor.for_user(olga))
    assert set(seven.tables.values_list("game_id", flat=True)).isdisjoint(games)


def test_unpublish_is_refused_once_a_hand_is_entered_or_a_later_round_is_published(seven, olga):
    by = Actor.for_user(olga)
    play(seven.tables.get(number=2).game, terziglio_won_by(1, 3)[:1], olga)
    with pytest.raises(RuleViolation) as refused:
        services.unpublish_round(round_=seven, by=by)
    assert refused.value.problems[0].params == {"reason": "has_hands", "table": 2}
    seven.refresh_from_db()
    assert seven.status == RoundStatus.PUBLISHED


def test_unpublish_is_refused_while_a_later_round_is_published(seven, olga):
    by = Actor.for_user(olga)
    later = services.add_round(competition=seven.competition, by=by)
    services.generate_round(round_=later, by=by, seed=2)
    services.publish_round(round_=later, by=by)
    with pytest.raises(RuleViolation) as refused:
        services.unpublish_round(round_=seven, by=by)
    assert refused.value.problems[0].params == {"reason": "later_round_playing"}


def test_a_bracket_round_keeps_its_matches_but_may_go_back_to_a_draft(club, olga):
    by = Actor.for_user(olga)
    competition, _entries = knockout_of_six(club, olga, rounds_played=0)
    first = competition.rounds.get(number=1)
    services.generate_round(round_=first, by=by)
    services.publish_round(round_=first, by=by)
    matches = tables_of(first)
    (a, _), (b, _) = matches[0], matches[1]
    for change in (
        lambda: services.swap_published(round_=first, a=a, b=b, by=by),
        lambda: services.replace_entry(round_=first, absent=a, by=by),
        lambda: services.redraw_tables(round_=first, by=by),
    ):
        with pytest.raises(Conflict) as refused:
            change()
        assert refused.value.problems[0].params == {"reason": "fixed_matches"}
    assert tables_of(first) == matches
    services.unpublish_round(round_=first, by=by)
    first.refresh_from_db()
    assert first.status == RoundStatus.DRAFT and tables_of(first) == matches


def test_a_swap_of_pairs_seats_both_partners_on_their_side(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    pairs = {e.pk: e for e in enter_pairs(competition, olga, 4)}
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    (a, _), (b, _) = tables_of(round_)
    services.swap_published(round_=round_, a=a, b=b, by=by)
    for table in round_.tables.select_related("game"):
        first, second = (pairs[e] for e in tables_of(round_)[table.number - 1])
        seats = list(table.game.seats.order_by("index").values_list("player_id", "side"))
        assert seats == [
            (first.player_id, 0),
            (second.player_id, 1),
            (first.partner_id, 0),
            (second.partner_id, 1),
        ]
    with pytest.raises(RuleViolation) as refused:
        services.replace_entry(round_=round_, absent=a, by=by)  # a pair cannot play alone
    assert codes(refused.value) == {("late", "required")}


# -- withdrawn and absent entries (issue 32, point 2) ----------------------------------------


def withdraw(round_, entry_id, user):
    entry = next(e for e in round_.entries if e.pk == entry_id)
    services.withdraw_entry(entry=entry, by=Actor.for_user(user), reason="went home")
    return entry


def seated_ids(round_) -> set[int]:
    return {e for table in tables_of(round_) for e in table}


@pytest.mark.parametrize("size", [4, 3])
def test_a_redraw_leaves_a_withdrawn_entry_out_and_seats_every_active_one(seven, olga, size):
    at = [len(t) for t in tables_of(seven)].index(size)
    gone = withdraw(seven, tables_of(seven)[at][0], olga)
    assert gone.pk in seated_ids(seven)  # a published round keeps its seats on a withdrawal
    services.redraw_tables(round_=seven, by=Actor.for_user(olga), seed=3)
    assert seated_ids(seven) == {e.pk for e in seven.entries} - {gone.pk}
    assert sorted(len(t) for t in tables_of(seven)) == [3, 3]
    assert CompetitionEvent.objects.get(action="redraw_tables").data["left_out"] == [gone.pk]
    games = Game.objects.filter(competition_table__round=seven)
    assert not games.filter(seats__player=gone.player).exists()


def test_a_redraw_that_cannot_fill_the_tables_without_the_withdrawn_entry_is_refused(club, olga):
    six = published_night(club, olga, 6)  # two tables of three: a table of two cannot play
    before = tables_of(six)
    gone = withdraw(six, before[1][0], olga)
    with pytest.raises(Conflict) as refused:
        services.redraw_tables(round_=six, by=Actor.for_user(olga), seed=3)
    assert refused.value.problems[0].params == {
        "reason": "withdrawn_unfilled", "table": 2, "name": gone.name,
    }  # fmt: skip
    assert message(refused.value.problems[0]).startswith(
        f"Table 2 seats {gone.name}, who has withdrawn"
    )
    assert tables_of(six) == before


def test_a_swap_never_moves_a_withdrawn_entry_to_another_table(seven, olga):
    (t1, t2) = tables_of(seven)
    gone = withdraw(seven, t1[0], olga)
    for a, b, field in ((t1[0], t2[0], "a"), (t2[0], t1[0], "b")):
        with pytest.raises(RuleViolation) as refused:
            services.swap_published(round_=seven, a=a, b=b, by=Actor.for_user(olga))
        assert codes(refused.value) == {(field, "not_allowed")}
        assert message(refused.value.problems[0]).startswith(f"{gone.name} has withdrawn")
    assert tables_of(seven) == [t1, t2]


def test_a_withdrawn_entry_is_replaced_by_a_late_entrant(seven, olga):
    (t1, _t2) = tables_of(seven)
    gone = withdraw(seven, t1[0], olga)
    late = services.add_entry(competition=seven.competition, player="Zeno", by=Actor.for_user(olga))
    services.replace_entry(round_=seven, absent=gone.pk, late=late.pk, by=Actor.for_user(olga))
    assert tables_of(seven)[0][0] == late.pk and gone.pk not in seated_ids(seven)


def test_the_warnings_name_the_table_of_a_withdrawn_or_absent_entry(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, format="club_night")
    entries = enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    # Checked in after the draw: Anna is seated but not here.
    services.set_check_ins(round_=round_, entries=[e.pk for e in entries[1:]], by=by)
    tables, _byes = selectors.round_tables(round_)
    assert selectors.seat_warnings(round_, tables) == []  # a draft: the draw is still open
    services.publish_round(round_=round_, by=by)
    round_.refresh_from_db()
    table_of = {e: n for n, seats in enumerate(tables_of(round_), start=1) for e in seats}
    services.withdraw_entry(entry=entries[1], by=by)
    tables, _byes = selectors.round_tables(round_)
    assert sorted(
        (w["table"], w["name"], w["state"]) for w in selectors.seat_warnings(round_, tables)
    ) == sorted(
        [
            (table_of[entries[0].pk], "Anna", "absent"),
            (table_of[entries[1].pk], "Bruno", "withdrawn"),
        ]
    )
    assert selectors.open_seats_of(entries[1]) == [{"round": 1, "table": table_of[entries[1].pk]}]
    # A table that has started keeps its players: nothing to fix there.
    started = round_.tables.select_related("game").get(number=table_of[entries[1].pk])
    play(started.game, terziglio_won_by(1, started.seats.count())[:1], olga)
    tables, _byes = selectors.round_tables(round_)
    assert "Bruno" not in {w["name"] for w in selectors.seat_warnings(round_, tables)}
    assert selectors.open_seats_of(entries[1]) == []


def test_a_warning_offers_drawing_again_only_where_it_leaves_the_withdrawn_out(club, olga):
    # 7 at tables of 3–4 (a 4 and a 3): the 4 may lose its withdrawn player, so drawing again
    # fixes Bruno's table; it would seat the absent Anna again, so her warning does not offer it.
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, format="club_night")
    entries = enter(competition, olga, 7)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.set_check_ins(round_=round_, entries=[e.pk for e in entries[1:]], by=by)
    services.publish_round(round_=round_, by=by)
    services.withdraw_entry(entry=entries[1], by=by)
    tables, _byes = selectors.round_tables(round_)
    offered = {w["name"]: w["redraw"] for w in selectors.seat_warnings(round_, tables)}
    assert offered == {"Anna": False, "Bruno": True}


def test_a_pairs_round_does_not_offer_a_redraw_that_would_be_refused(club, olga):
    # A pairs table seats two pairs and may not seat one: drawing again cannot leave a
    # withdrawn pair out, and the service says so; the round page offers only the replacement.
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, rulesets=["briscola"], options={"briscola": {"format": "pairs"}}
    )
    pairs = enter_pairs(competition, olga, 4)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    services.publish_round(round_=round_, by=by)
    services.withdraw_entry(entry=pairs[0], by=by)
    tables, _byes = selectors.round_tables(round_)
    (warning,) = selectors.seat_warnings(round_, tables)
    assert warning["state"] == "withdrawn" and warning["redraw"] is False
    with pytest.raises(Conflict):
        services.redraw_tables(round_=round_, by=by, seed=1)
    page = login(olga).get(f"/c/{club.slug}/k/{competition.slug}/rounds/1/").content.decode()
    box = page.split('id="seat-warnings"', 1)[1].split("</section>", 1)[0]
    assert "Replace at this table" in box and "Draw the tables again" not in box
    assert "data-no-redraw" in box
