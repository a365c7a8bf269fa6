"""Issue 32, point 7: a knockout stage has its own match length. A Briscola Swiss played to one
hand cuts to a knockout of the top four whose semi-finals (and third-place match) are best of 3
and whose final is best of 5; each match's game is played to its round's length, the bracket
says so, and a length is set on the settings page (the error next to its field) or through the
API (400 naming the field). The cut has its third-place match too."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Game, GameStatus
from scoring.rules import RuleViolation
from tests.builders import by
from tests.clients import api_as, login
from tournaments import services
from tournaments.models import Competition, Round

from .helpers import codes, enter, make_competition, play
from .pages_helpers import new_competition
from .test_edit_settings import posted
from .test_swiss_cut import STRENGTH, next_round, ranks, swiss_of_eight

pytestmark = pytest.mark.django_db


def hands(winners: list[int]) -> list[dict]:
    """One two-sided hand per winner (0: the home side), the deal passing each hand."""
    return [
        {"dealer": i % 2, "points": [70, 50] if w == 0 else [50, 70]} for i, w in enumerate(winners)
    ]


def names(table) -> list[str]:
    return [s.entry.player.display_name for s in table.seats.order_by("position")]


def play_long(round_: Round, user, wins: int) -> None:
    """Publish ``round_`` and play each match to ``wins``: the weaker side takes the first
    ``wins - 1`` hands, then the stronger wins every hand after (the bella decides). Each game
    is checked unfinished one hand before its end and finished at it."""
    services.publish_round(round_=round_, by=by(user))
    for table in round_.tables.select_related("game").order_by("number"):
        home, away = names(table)
        strong = 0 if STRENGTH[home] > STRENGTH[away] else 1
        run = [1 - strong] * (wins - 1) + [strong] * wins
        assert table.game.options["hands_to_win"] == wins, (round_.number, table.number)
        game = play(table.game, hands(run[:-1]), user)
        assert game.status != GameStatus.FINISHED
        game = play(game, hands(run)[-1:], user)
        assert game.status == GameStatus.FINISHED
    services.close_round(round_=Round.objects.get(pk=round_.pk), by=by(user))


def test_a_swiss_to_one_hand_then_semi_finals_best_of_3_and_a_final_best_of_5(club, olga, client):
    competition = swiss_of_eight(
        club, olga, third_place=True, semi_final_hands_to_win=2, final_hands_to_win=3
    )
    for _ in range(3):
        swiss = next_round(competition, olga)
        assert {t.game.options["hands_to_win"] for t in swiss.tables.all()} == {1}
    top = [name for name, _rank in ranks(competition)][:4]
    semis = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=semis, by=by(olga))
    play_long(semis, olga, wins=2)
    last = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=last, by=by(olga))
    last.refresh_from_db()
    # Table 1 plays the final (best of 5), table 2 the third-place match (best of 3).
    services.publish_round(round_=last, by=by(olga))
    final, third = last.tables.select_related("game").order_by("number")
    assert (final.game.options["hands_to_win"], third.game.options["hands_to_win"]) == (3, 2)
    for table, wins in ((final, 3), (third, 2)):
        home, away = names(table)
        strong = 0 if STRENGTH[home] > STRENGTH[away] else 1
        game = play(table.game, hands([1 - strong] * (wins - 1) + [strong] * (wins - 1)), olga)
        assert game.status != GameStatus.FINISHED  # 2–2 in the final: the bella is to come
        play(game, hands([1 - strong] * (wins - 1) + [strong] * wins)[-1:], olga)
    services.close_round(round_=Round.objects.get(pk=last.pk), by=by(olga))
    semi_winners = [max(pair, key=STRENGTH.get) for pair in ((top[0], top[3]), (top[1], top[2]))]
    champion = max(semi_winners, key=STRENGTH.get)
    assert ranks(competition)[0] == (champion, 1)
    decided = Game.objects.get(pk=final.game.pk)
    assert decided.hand_count == 5 and sorted(decided.totals) == [2, 3]  # 3–2 after the bella
    assert names(final)[decided.totals.index(3)] == champion
    html = client.get(
        reverse("public-bracket", args=[club.slug, competition.slug])
    ).content.decode()
    semi_column = html.split("Semi-finals", 1)[1].split("</section>", 1)[0]
    final_column = html.split('id="bracket-round-2"', 1)[1].split("</section>", 1)[0]
    assert '<p class="hint stage-length">best of 3</p>' in semi_column
    assert '<p class="hint stage-length">best of 5</p>' in final_column
    assert 'Third-place match · <span class="stage-length">best of 3</span>' in final_column


def test_each_round_of_a_knockout_of_eight_has_its_stage_length(club, olga):
    competition = make_competition(
        club, olga, rulesets=["briscola"], format="knockout", early_rounds_hands_to_win=1,
        final_hands_to_win=3, options={"briscola": {"hands_to_win": 2}},
    )  # fmt: skip
    enter(competition, olga, 8, seeded=True)
    assert [competition.stage_length(n) for n in (1, 2, 3)] == [1, None, 3]
    assert competition.stage_length(3, third_place=True) is None  # as the semi-finals
    quarters = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=quarters, by=by(olga))
    services.publish_round(round_=quarters, by=by(olga))
    assert {t.game.options["hands_to_win"] for t in quarters.tables.select_related("game")} == {1}


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"semi_final_hands_to_win": 0}, ("semi_final_hands_to_win", "range")),
        ({"final_hands_to_win": 11}, ("final_hands_to_win", "range")),
        ({"final_hands_to_win": 3, "cut_to": None}, ("final_hands_to_win", "inconsistent")),
        (
            {"early_rounds_hands_to_win": 2, "format": "rotation", "cut_to": None},
            ("early_rounds_hands_to_win", "inconsistent"),
        ),
        ({"third_place": True, "cut_to": 2}, ("third_place", "inconsistent")),
        (
            {"final_hands_to_win": 3, "format": "double", "cut_to": None, "planned_rounds": None},
            ("final_hands_to_win", "inconsistent"),
        ),
    ],
)
def test_a_stage_length_is_one_to_ten_hands_and_only_for_a_knockout_of_four_with_a_third(
    club, olga, fields, problem
):
    with pytest.raises(RuleViolation) as refused:
        swiss_of_eight(club, olga, **fields)
    assert problem in codes(refused.value)
    assert not Competition.objects.exists()


def test_the_api_sets_a_stage_length_and_names_a_bad_one(club, olga):
    competition = swiss_of_eight(club, olga)
    api = api_as(olga)
    address = f"/api/v1/competitions/{competition.pk}/"
    bad = api.patch(address, {"final_hands_to_win": 0}, format="json")
    assert bad.status_code == 400
    assert [(e["field"], e["code"]) for e in bad.json()["errors"]] == [
        ("final_hands_to_win", "range")
    ]
    good = api.patch(
        address, {"semi_final_hands_to_win": 2, "final_hands_to_win": 3}, format="json"
    )
    assert good.status_code == 200, good.content
    body = good.json()
    assert (body["semi_final_hands_to_win"], body["final_hands_to_win"]) == (2, 3)
    assert body["early_rounds_hands_to_win"] is None
    competition.refresh_from_db()
    assert competition.stage_length(5) == 3


def test_the_settings_page_sets_the_lengths_and_the_third_place_match_of_the_cut(club, olga):
    competition = swiss_of_eight(club, olga)
    client = login(olga)
    page = client.get(f"/c/uno/k/{competition.slug}/settings/").content.decode()
    assert 'name="final_hands_to_win"' in page and 'name="third_place"' in page
    answer = client.post(
        f"/c/uno/k/{competition.slug}/settings/",
        posted(competition, third_place="on", semi_final_hands_to_win="2", final_hands_to_win="3"),
    )
    assert answer.status_code == 302
    competition.refresh_from_db()
    assert competition.third_place
    assert (competition.semi_final_hands_to_win, competition.final_hands_to_win) == (2, 3)
    refused = client.post(
        f"/c/uno/k/{competition.slug}/settings/", posted(competition, final_hands_to_win="12")
    )
    assert refused.status_code == 400
    field = refused.content.decode().split('data-field="final_hands_to_win"', 1)[1]
    assert 'class="error"' in field.split("</div>", 1)[0]
    competition.refresh_from_db()
    assert competition.final_hands_to_win == 3


def test_a_new_swiss_with_a_cut_gets_its_third_place_match_and_lengths_from_the_page(club, olga):
    data = new_competition(
        name="Svizzera", rulesets=["briscola"], format="swiss", table_size="2",
        planned_rounds="3", cut_to="4", third_place="on", final_hands_to_win="3",
    )  # fmt: skip
    assert login(olga).post("/c/uno/k/new/", data).status_code == 302
    competition = Competition.objects.get()
    assert competition.third_place and competition.final_hands_to_win == 3
    assert competition.stage_length(5) == 3


def test_a_swiss_without_a_cut_keeps_no_stage_length_from_the_page(club, olga):
    data = new_competition(
        name="Svizzera", rulesets=["briscola"], format="swiss", table_size="2",
        planned_rounds="3", third_place="on", final_hands_to_win="3",
    )  # fmt: skip
    assert login(olga).post("/c/uno/k/new/", data).status_code == 302
    competition = Competition.objects.get()
    assert not competition.third_place and competition.final_hands_to_win is None


def test_a_length_changed_after_publishing_applies_when_the_round_is_published_again(club, olga):
    competition = make_competition(
        club, olga, rulesets=["briscola"], format="knockout", final_hands_to_win=2,
        options={"briscola": {"hands_to_win": 1}},
    )  # fmt: skip
    enter(competition, olga, 2, seeded=True)
    final = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=final, by=by(olga))
    services.publish_round(round_=final, by=by(olga))
    services.update_competition(competition=competition, by=by(olga), final_hands_to_win=3)
    assert final.tables.get().game.options["hands_to_win"] == 2  # a published game keeps it
    services.unpublish_round(round_=Round.objects.get(pk=final.pk), by=by(olga))
    services.publish_round(round_=Round.objects.get(pk=final.pk), by=by(olga))
    assert final.tables.get().game.options["hands_to_win"] == 3


def test_the_lengths_read_in_the_readers_language(club, olga):
    competition = swiss_of_eight(club, olga, final_hands_to_win=3)
    client = login(olga)
    page = client.get(
        f"/c/uno/k/{competition.slug}/settings/", headers={"accept-language": "it"}
    ).content.decode()
    final = page.split('name="final_hands_to_win"', 1)[1].split("</select>", 1)[0]
    assert '<option value="3" selected>al meglio delle cinque</option>' in final
    assert "come dicono le regole del circolo" in final
