"""Issue 11, point 1: withdraw and reinstate; a late entrant goes into the drawn draft round
(drawn again), and a published round that leaves someone out says so by name and offers a bye;
Publish is refused while an active player is unseated. Every change is in the events."""

import pytest

from scoring.models import Player
from scoring.rules import RuleViolation
from scoring.services import Actor
from tests.clients import login
from tests.tournaments.helpers import codes, enter, make_competition, tables_of
from tournaments import selectors, services
from tournaments.models import Bye, CompetitionEvent, Entry, EntryStatus, Round

pytestmark = pytest.mark.django_db


def seated(round_):
    return {e for t in tables_of(round_) for e in t} | set(
        round_.byes.values_list("entry_id", flat=True)
    )


@pytest.fixture
def drawn(club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, slug="coppa", format="swiss", planned_rounds=3)
    entries = enter(competition, olga, 6)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=3)
    return competition, round_, entries


def test_a_late_entrant_goes_into_the_drawn_draft_round(olga, drawn):
    competition, round_, entries = drawn
    maria = services.add_entry(competition=competition, player="Maria", by=Actor.for_user(olga))
    assert seated(round_) == {e.pk for e in entries} | {maria.pk}
    assert selectors.unseated(round_) == []
    assert CompetitionEvent.objects.filter(action="generate_round").count() == 2


def test_a_published_round_names_the_late_entrant_and_offers_a_bye(olga, drawn):
    competition, round_, _entries = drawn
    by = Actor.for_user(olga)
    services.publish_round(round_=round_, by=by)
    maria = services.add_entry(competition=competition, player="Maria", by=by)
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Maria entered after round 1 was drawn and is not seated." in page
    assert "every active player is seated" not in page
    answer = client.post("/c/uno/k/coppa/rounds/1/", {"action": "bye", "entry": maria.pk})
    assert answer.status_code == 302
    assert Bye.objects.filter(round=round_, entry=maria).exists()
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "is not seated" not in page
    assert CompetitionEvent.objects.filter(action="give_bye", round=round_).count() == 1
    # Twice is refused, and nothing changes.
    with pytest.raises(RuleViolation) as refused:
        services.give_bye(round_=round_, entry=maria, by=by)
    assert codes(refused.value) == {("entry", "not_found")}
    assert Bye.objects.filter(round=round_, entry=maria).count() == 1


def test_publish_is_disabled_and_refused_while_someone_is_unseated(olga, club, drawn):
    competition, round_, _entries = drawn
    by = Actor.for_user(olga)
    # An entry written behind the services' back (an import, an older version of the app):
    # the draw does not know her, and the page must not pretend it does.
    maria = Player.objects.create(club=club, display_name="Maria")
    late = Entry.objects.create(competition=competition, player=maria)
    page = login(olga).get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Maria is not seated in this round." in page
    assert 'type="submit" disabled aria-describedby="unseated"' in page
    answer = login(olga).post("/c/uno/k/coppa/rounds/1/", {"action": "publish"})
    assert answer.status_code == 400
    assert "Not seated in this round: Maria." in answer.content.decode()
    round_.refresh_from_db()
    assert round_.status == "draft"
    services.generate_round(round_=round_, by=by, seed=1)
    assert late.pk in seated(round_)
    services.publish_round(round_=round_, by=by)


def test_withdraw_then_reinstate_from_the_entries_page(olga, drawn):
    _competition, round_, entries = drawn
    anna = entries[0]
    client = login(olga)
    client.post("/c/uno/k/coppa/entries/",
                {"action": "withdraw", "entry": anna.pk, "reason": "ill"})  # fmt: skip
    anna.refresh_from_db()
    assert anna.status == EntryStatus.WITHDRAWN and anna.pk not in seated(round_)
    page = client.get("/c/uno/k/coppa/entries/").content.decode()
    assert "Reinstate" in page
    answer = client.post("/c/uno/k/coppa/entries/", {"action": "reinstate", "entry": anna.pk})
    assert answer.status_code == 302
    anna.refresh_from_db()
    assert anna.status == EntryStatus.ACTIVE and anna.withdrawn_at is None
    assert anna.pk in seated(Round.objects.get(pk=round_.pk))
    assert CompetitionEvent.objects.filter(action="reinstate_entry").get().data["name"] == "Anna"
    # An active entry is not reinstated: the page says why, nothing changes.
    answer = client.post("/c/uno/k/coppa/entries/", {"action": "reinstate", "entry": anna.pk})
    assert answer.status_code == 400
    assert "This player has not withdrawn." in answer.content.decode()
    assert CompetitionEvent.objects.filter(action="reinstate_entry").count() == 1


def test_a_late_entrant_joins_a_table_whose_game_has_not_started(olga, drawn):
    from scoring.models import GameStatus
    from tests.tournaments.helpers import play, terziglio_won_by

    competition, round_, _entries = drawn
    by = Actor.for_user(olga)
    services.publish_round(round_=round_, by=by)
    first, second = round_.tables.order_by("number")
    play(second.game, terziglio_won_by(0, 3), olga)  # table 2 has played
    maria = services.add_entry(competition=competition, player="Maria", by=by)
    assert selectors.late_seat_tables(round_) == [first]
    client = login(olga)
    page = client.get("/c/uno/k/coppa/rounds/1/").content.decode()
    assert "Seat at this table" in page and f'<option value="{first.pk}">Table 1</option>' in page
    refused = client.post(
        "/c/uno/k/coppa/rounds/1/", {"action": "seat", "entry": maria.pk, "table": second.pk}
    )
    assert refused.status_code == 400
    assert "This table has started its game" in refused.content.decode()
    old_game = first.game
    answer = client.post(
        "/c/uno/k/coppa/rounds/1/", {"action": "seat", "entry": maria.pk, "table": first.pk}
    )
    assert answer.status_code == 302
    first.refresh_from_db()
    old_game.refresh_from_db()
    assert old_game.status == GameStatus.ABANDONED
    assert first.game.n == 4
    assert first.game.seats.order_by("index").last().player.display_name == "Maria"
    assert [s.entry_id for s in first.seats.order_by("position")][-1] == maria.pk
    assert selectors.unseated(round_) == []
    assert CompetitionEvent.objects.filter(action="seat_late_entrant", round=round_).count() == 1
    # Twice is refused, and nothing changes.
    with pytest.raises(RuleViolation) as again:
        services.seat_late_entrant(round_=round_, entry=maria, table=first, by=by)
    assert codes(again.value) == {("entry", "not_found")}


def test_a_full_table_does_not_take_a_late_entrant(olga, drawn):
    competition, round_, _entries = drawn
    by = Actor.for_user(olga)
    services.publish_round(round_=round_, by=by)
    first = round_.tables.order_by("number").first()
    maria = services.add_entry(competition=competition, player="Maria", by=by)
    services.seat_late_entrant(round_=round_, entry=maria, table=first, by=by)
    nina = services.add_entry(competition=competition, player="Nina", by=by)
    with pytest.raises(RuleViolation) as refused:
        services.seat_late_entrant(round_=round_, entry=nina, table=first, by=by)
    assert codes(refused.value) == {("table", "not_allowed")}
    with pytest.raises(RuleViolation) as missing:
        services.seat_late_entrant(round_=round_, entry=nina, table=10**9, by=by)
    assert codes(missing.value) == {("table", "not_found")}
