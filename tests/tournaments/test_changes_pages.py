"""The round page's changes of a published round (issue 23, point 1): forms next to the tables,
refusals next to their field, a confirmation step before taking a round back to a draft, the
table cards to print again; and the public round page, the projector and the calendar
following (their ETags change)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Game
from scoring.services import Actor
from tests.clients import field_error, login
from tournaments import services
from tournaments.models import CompetitionEvent, RoundStatus

from .helpers import play, published_night, tables_of, terziglio_won_by


@pytest.fixture
def night(club, olga):
    return published_night(club, olga, 7, public=True)


def page(round_) -> str:
    c = round_.competition
    return reverse("round", args=[c.club.slug, c.slug, round_.number])


def public(round_, name="public-round") -> str:
    c = round_.competition
    args = [c.club.slug, c.slug] + ([round_.number] if name == "public-round" else [])
    return reverse(name, args=args)


def test_the_round_page_offers_the_changes_to_organizers_only(night, olga, sara):
    html = login(olga).get(page(night)).content.decode()
    for marker in (
        'id="change-swap"',
        'id="change-replace"',
        'id="change-redraw"',
        'id="unpublish"',
    ):
        assert marker in html
    assert "reprint" not in html
    assert 'id="change-swap"' not in login(sara).get(page(night)).content.decode()


def test_a_swap_from_the_page_says_which_cards_to_print_again(night, olga):
    (t1, t2) = tables_of(night)
    client = login(olga)
    public_before = client.get(public(night))["ETag"]
    response = client.post(page(night), {"action": "swap", "a": t1[0], "b": t2[0]})
    assert response.status_code == 302
    assert tables_of(night)[0][0] == t2[0]
    html = client.get(page(night)).content.decode()
    assert 'id="reprint"' in html and "Print the cards of tables 1, 2 again" in html
    assert client.get(public(night))["ETag"] != public_before
    name = night.entries[[e.pk for e in night.entries].index(t2[0])].name
    projector = client.get(public(night, "public-projector")).content.decode()
    assert name in projector


def test_a_swap_refused_shows_its_sentence_next_to_the_field(night, olga):
    (t1, t2) = tables_of(night)
    play(night.tables.get(number=2).game, terziglio_won_by(1, len(t2)), olga)
    response = login(olga).post(page(night), {"action": "swap", "a": t1[0], "b": t2[0]})
    assert response.status_code == 400
    assert "Table 2 has hands entered" in field_error(response.content.decode(), "b")
    assert tables_of(night) == [t1, t2]
    same = login(olga).post(page(night), {"action": "swap", "a": t1[0], "b": t1[1]})
    assert same.status_code == 400 and "same table" in field_error(same.content.decode(), "b")


def test_replace_from_the_page_by_a_late_entrant_and_refusals(night, olga):
    client = login(olga)
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    (t1, t2) = tables_of(night)
    three = 1 if len(t1) == 3 else 2
    absent = tables_of(night)[three - 1][0]
    refused = client.post(page(night), {"action": "replace", "absent": absent, "late": ""})
    assert refused.status_code == 400
    assert f"Table {three} cannot play with 2" in field_error(refused.content.decode(), "late")
    bad = client.post(page(night), {"action": "replace", "absent": "x"})
    assert bad.status_code == 400 and field_error(bad.content.decode(), "absent")
    assert tables_of(night) == [t1, t2]
    done = client.post(page(night), {"action": "replace", "absent": absent, "late": late.pk})
    assert done.status_code == 302 and late.pk in tables_of(night)[three - 1]
    assert f"Print the card of table {three} again" in client.get(page(night)).content.decode()


def test_redraw_from_the_page(club, olga):
    night = published_night(club, olga, 9, public=True)
    client = login(olga)
    bad = client.post(page(night), {"action": "redraw", "seed": "-3"})
    assert bad.status_code == 400 and field_error(bad.content.decode(), "seed")
    assert client.post(page(night), {"action": "redraw", "seed": "4"}).status_code == 302
    assert CompetitionEvent.objects.filter(action="redraw_tables").exists()
    for table in night.tables.all():
        play(table.game, terziglio_won_by(1, 3), olga)
    refused = client.post(page(night), {"action": "redraw"})
    assert refused.status_code == 400
    assert "nothing to draw again" in refused.content.decode()


def test_unpublish_asks_for_a_confirmation_first(night, olga):
    client = login(olga)
    calendar_before = client.get(public(night, "public-calendar"))["ETag"]
    html = client.get(page(night)).content.decode()
    assert "?unpublish=ask" in html and 'name="confirm"' not in html
    asked = client.get(page(night) + "?unpublish=ask").content.decode()
    assert 'name="confirm"' in asked
    unconfirmed = client.post(page(night), {"action": "unpublish"})
    assert unconfirmed.status_code == 400
    assert field_error(unconfirmed.content.decode(), "confirm") == "Tick the box to confirm."
    night.refresh_from_db()
    assert night.status == RoundStatus.PUBLISHED
    done = client.post(page(night), {"action": "unpublish", "confirm": "on", "reason": "oops"})
    assert done.status_code == 302
    night.refresh_from_db()
    assert night.status == RoundStatus.DRAFT
    assert client.get(public(night, "public-calendar"))["ETag"] != calendar_before
    assert Game.objects.filter(status="abandoned").count() == 2


def test_unpublish_refused_once_a_hand_is_entered(night, olga):
    play(night.tables.get(number=1).game, terziglio_won_by(1, len(tables_of(night)[0])), olga)
    response = login(olga).post(page(night), {"action": "unpublish", "confirm": "on"})
    assert response.status_code == 400
    assert "Table 1 has hands entered" in response.content.decode()
    night.refresh_from_db()
    assert night.status == RoundStatus.PUBLISHED


# -- withdrawn and absent entries (issue 32, point 2) ----------------------------------------


def entries_page(round_) -> str:
    c = round_.competition
    return reverse("competition-entries", args=[c.club.slug, c.slug])


def withdraw(round_, entry_id, user):
    entry = next(e for e in round_.entries if e.pk == entry_id)
    services.withdraw_entry(entry=entry, by=Actor.for_user(user), reason="went home")
    return entry


def test_the_round_page_warns_of_a_withdrawn_entry_at_its_table_and_links_its_replacement(
    night, olga, sara
):
    (_t1, t2) = tables_of(night)
    client = login(olga)
    assert 'id="seat-warnings"' not in client.get(page(night)).content.decode()
    gone = withdraw(night, t2[1], olga)
    html = client.get(page(night)).content.decode()
    assert 'id="seat-warnings"' in html
    assert f"Table 2: {gone.name} has withdrawn." in html
    link = f"{page(night)}?absent={gone.pk}#change-replace"
    assert f'href="{link}"' in html
    # The link opens the replacement with the withdrawn entry chosen.
    prefilled = client.get(link.split("#")[0]).content.decode()
    form = prefilled.split('id="change-replace"', 1)[1].split("</form>", 1)[0]
    assert f'<option value="{gone.pk}" selected>' in form
    assert 'id="seat-warnings"' not in login(sara).get(page(night)).content.decode()


def test_the_round_page_warns_of_a_seated_entry_not_checked_in(club, olga):
    by = Actor.for_user(olga)
    night = published_night(club, olga, 7)
    services.unpublish_round(round_=night, by=by)
    night.refresh_from_db()
    here = [e.pk for e in night.entries if e.pk != tables_of(night)[0][0]]
    services.set_check_ins(round_=night, entries=here, by=by)
    services.publish_round(round_=night, by=by)
    html = login(olga).get(page(night)).content.decode()
    absent = next(e for e in night.entries if e.pk == tables_of(night)[0][0])
    assert f"Table 1: {absent.name} is not checked in." in html


def test_a_change_naming_a_withdrawn_entry_is_refused_next_to_its_field(night, olga):
    (t1, t2) = tables_of(night)
    gone = withdraw(night, t1[0], olga)
    client = login(olga)
    swap = client.post(page(night), {"action": "swap", "a": t1[0], "b": t2[0]})
    assert swap.status_code == 400
    assert f"{gone.name} has withdrawn" in field_error(swap.content.decode(), "a")
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    services.withdraw_entry(entry=late, by=Actor.for_user(olga))
    replace = client.post(page(night), {"action": "replace", "absent": t1[1], "late": late.pk})
    assert replace.status_code == 400 and field_error(replace.content.decode(), "late")
    assert tables_of(night) == [t1, t2]


def test_a_redraw_from_the_page_leaves_the_withdrawn_entry_out(night, olga):
    (t1, _t2) = tables_of(night)
    gone = withdraw(night, t1[0], olga)
    client = login(olga)
    assert client.post(page(night), {"action": "redraw", "seed": "5"}).status_code == 302
    assert gone.pk not in {e for t in tables_of(night) for e in t}
    assert 'id="seat-warnings"' not in client.get(page(night)).content.decode()


def test_withdrawing_a_seated_entry_offers_the_change_of_its_table(night, olga):
    (t1, _t2) = tables_of(night)
    entry = next(e for e in night.entries if e.pk == t1[0])
    client = login(olga)
    response = client.post(
        entries_page(night), {"action": "withdraw", "entry": entry.pk, "reason": "went home"}
    )
    assert response.status_code == 302
    assert response.url == f"{entries_page(night)}?withdrawn={entry.pk}#to-fix"
    html = client.get(response.url.split("#")[0]).content.decode()
    assert 'id="to-fix"' in html and "Round 1, table 1" in html
    assert f'href="{page(night)}?absent={entry.pk}#change-replace"' in html
    # Once the table is fixed, nothing is left to offer.
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    services.replace_entry(round_=night, absent=entry.pk, late=late.pk, by=Actor.for_user(olga))
    assert 'id="to-fix"' not in client.get(response.url.split("#")[0]).content.decode()


def test_withdrawing_an_entry_with_no_seat_to_fix_goes_back_to_the_list(night, olga):
    late = services.add_entry(competition=night.competition, player="Zeno", by=Actor.for_user(olga))
    response = login(olga).post(
        entries_page(night), {"action": "withdraw", "entry": late.pk, "reason": "flu"}
    )
    assert response.status_code == 302 and response.url == entries_page(night)
