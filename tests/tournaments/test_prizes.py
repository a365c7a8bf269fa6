"""The prize list: the club's rules, prizes by rank and category, refusals, who wins on real
standings (a tie splitting a prize), categories from player tags and newcomers."""

from __future__ import annotations

import pytest

from scoring import services as scoring
from scoring.messages import message
from scoring.models import AuditEvent, Player
from scoring.rules import RuleViolation
from scoring.services import Locked, NotAllowed
from tests.builders import by
from tests.clients import api_as
from tournaments import selectors, services
from tournaments.models import CompetitionEvent, Payment, Prize, Round
from tournaments.selectors.prizes import awarded
from tournaments.services import club_data

from .helpers import codes, enter, make_competition, play, terziglio_in_order

pytestmark = pytest.mark.django_db


def played(club, olga, capture, name="Torneo", count=6):
    """``count`` players, one round of two tables played (each 1st 4 points, 2nd 2, 3rd 0:
    two entries tied on 4 points) and closed."""
    competition = make_competition(club, olga, name=name, slug=name.lower(), planned_rounds=1)
    entries = enter(competition, olga, count)
    first = services.add_round(competition=competition, by=by(olga))
    services.generate_round(round_=first, by=by(olga), seed=1)
    services.publish_round(round_=first, by=by(olga))
    with capture(execute=True):
        for table in first.tables.select_related("game"):
            play(table.game, terziglio_in_order([0, 1, 2]), olga)
    services.close_round(round_=Round.objects.get(pk=first.pk), by=by(olga))
    return competition, entries


@pytest.fixture
def torneo(club, olga, django_capture_on_commit_callbacks):
    return played(club, olga, django_capture_on_commit_callbacks)


def prizes_of(competition):
    return list(Prize.objects.filter(competition=competition).values_list("category", "rank"))


def test_a_tie_splits_the_two_prizes_equally(torneo, olga):
    competition, _entries = torneo
    services.add_prize(competition=competition, rank=1, amount_cents=5001, by=by(olga))
    services.add_prize(competition=competition, rank=2, amount_cents=3000, by=by(olga))
    services.add_prize(competition=competition, rank=3, object="Bottle of wine", by=by(olga))
    rows = awarded(competition)
    money = [r for r in rows if r["amount_cents"]]
    assert [(r["place"], r["amount_cents"]) for r in money] == [("1–2", 4001), ("1–2", 4000)]
    assert sum(r["amount_cents"] for r in money) == 8001
    assert rows[0]["prize"] == "€40.01"
    wine = [r for r in rows if r["object"]]
    assert [(r["place"], r["prize"]) for r in wine] == [("3", "Bottle of wine")]


def test_tie_break_rule_gives_each_tied_entry_a_whole_prize(torneo, olga):
    competition, _entries = torneo
    services.set_prize_rules(competition=competition, ties="tie_break", both=False, by=by(olga))
    services.add_prize(competition=competition, rank=1, amount_cents=5000, by=by(olga))
    services.add_prize(competition=competition, rank=2, amount_cents=3000, by=by(olga))
    standings = selectors.standings_of(competition)["tables"][0]["rows"]
    ranks = [row["rank"] for row in standings[:2]]
    amounts = [r["amount_cents"] for r in awarded(competition)]
    if ranks == [1, 2]:  # the tie-breaks separate them: the better one takes the first prize
        assert amounts == [5000, 3000]
    else:  # they cannot: they still share
        assert amounts == [4000, 4000]


def test_a_category_prize_from_a_player_tag(torneo, olga):
    competition, entries = torneo
    women = [e for e in entries if e.player.display_name in ("Anna", "Carla", "Elena")]
    for entry in women:
        scoring.set_player_tags(player=entry.player, tags=["Women"], by=by(olga))
    tag = f"tag:{entry.player.tags.get().pk}"
    services.add_prize(competition=competition, rank=1, amount_cents=5000, by=by(olga))
    services.add_prize(competition=competition, category=tag, rank=1, object="Rose", by=by(olga))
    rows = awarded(competition)
    rose = next(r for r in rows if r["category"] == tag)
    assert rose["category_label"] == "Women"
    winner = next(r for r in rows if r["category"] == "overall")
    assert rose["entry"] != winner["entry"]
    assert rose["entry"] in {e.pk for e in women}
    assert AuditEvent.objects.filter(action="tag_player").count() == 3


def test_newcomers_are_those_with_no_earlier_entry_in_the_club(
    club, olga, django_capture_on_commit_callbacks
):
    first, _ = played(club, olga, django_capture_on_commit_callbacks, name="Primo", count=3)
    second, entries = played(club, olga, django_capture_on_commit_callbacks, "Secondo", 6)
    categories = selectors.entry_categories(second)
    newcomers = {e.player.display_name for e in entries if "newcomer" in categories[e.pk]}
    assert newcomers == {"Dario", "Elena", "Franco"}
    assert all("newcomer" in c for c in selectors.entry_categories(first).values())


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({"rank": 0, "amount_cents": 100}, ("rank", "range")),
        ({"rank": 101, "amount_cents": 100}, ("rank", "range")),
        ({"rank": 1, "amount_cents": -5}, ("amount_cents", "range")),
        ({"rank": 1, "amount_cents": 10**12}, ("amount_cents", "range")),
        ({"rank": 1}, ("amount_cents", "required")),
        ({"rank": 1, "amount_cents": 100, "object": "Cup"}, ("amount_cents", "conflict")),
        ({"rank": 1, "amount_cents": 100, "category": "women"}, ("category", "choice")),
        ({"rank": 1, "amount_cents": 100, "category": "tag:999"}, ("category", "choice")),
    ],
)
def test_a_bad_prize_is_refused_naming_the_field(club, olga, arguments, problem):
    competition = make_competition(club, olga)
    before = CompetitionEvent.objects.count()
    with pytest.raises(RuleViolation) as refused:
        services.add_prize(competition=competition, by=by(olga), **arguments)
    assert codes(refused.value) == {problem}
    assert not Prize.objects.exists() and CompetitionEvent.objects.count() == before


def test_a_rank_twice_is_refused_and_a_removed_prize_frees_it(club, olga):
    competition = make_competition(club, olga)
    prize = services.add_prize(competition=competition, rank=1, amount_cents=100, by=by(olga))
    with pytest.raises(RuleViolation) as refused:
        services.add_prize(competition=competition, rank=1, object="Cup", by=by(olga))
    assert message(refused.value.problems[0]).startswith("Rank 1 of this list already has")
    services.remove_prize(prize=prize, by=by(olga))
    services.add_prize(competition=competition, rank=1, object="Cup", by=by(olga))
    assert prizes_of(competition) == [("overall", 1)]


def test_bad_rules_are_refused(club, olga):
    competition = make_competition(club, olga)
    with pytest.raises(RuleViolation) as refused:
        services.set_prize_rules(competition=competition, ties="coin", both=False, by=by(olga))
    assert codes(refused.value) == {("ties", "choice")}
    with pytest.raises(RuleViolation) as refused:
        services.set_prize_rules(competition=competition, ties="split", both="no", by=by(olga))
    assert codes(refused.value) == {("both", "type")}


def test_the_list_is_fixed_once_the_results_are_final(torneo, olga, sara):
    competition, _entries = torneo
    with pytest.raises(NotAllowed):
        services.add_prize(competition=competition, rank=1, amount_cents=100, by=by(sara))
    services.finalize_competition(competition=competition, by=by(olga))
    with pytest.raises(Locked):
        services.add_prize(competition=competition, rank=1, amount_cents=100, by=by(olga))
    assert not Prize.objects.exists()


def test_tags_refuse_bad_names(club, olga):
    player = Player.objects.create(club=club, display_name="Zoe")
    with pytest.raises(RuleViolation) as refused:
        scoring.set_player_tags(player=player, tags="Women", by=by(olga))
    assert codes(refused.value) == {("tags", "type")}
    with pytest.raises(RuleViolation) as refused:
        scoring.set_player_tags(player=player, tags=["x" * 41], by=by(olga))
    assert codes(refused.value) == {("tags", "too_long")}
    assert scoring.set_player_tags(player=player, tags=["women", " ", "Women"], by=by(olga)) == [
        "women"
    ]


# -- the API -----------------------------------------------------------------------------------


def test_prizes_through_the_api_and_awards_public_only_once_final(torneo, olga):
    competition, _entries = torneo
    api = api_as(olga)
    base = f"/api/v1/competitions/{competition.pk}"
    rules = api.put(f"{base}/prize-rules/", {"ties": "split", "both": True}, format="json")
    assert rules.json() == {"ties": "split", "both": True}
    first = api.post(f"{base}/prizes/", {"rank": 1, "amount_cents": 5001}, format="json")
    assert first.status_code == 201 and first.json()["text"] == "€50.01"
    api.post(f"{base}/prizes/", {"rank": 2, "amount_cents": 3000}, format="json")
    cup = api.post(
        f"{base}/prizes/", {"category": "newcomer", "rank": 1, "object": "Cup"}, format="json"
    )
    assert cup.json()["category_label"] == "Best newcomers"
    listed = api.get(f"{base}/prizes/").json()
    assert [p["rank"] for p in listed["prizes"]] == [1, 2, 1]
    assert listed["categories"][:2] == [
        {"key": "overall", "label": "Overall"},
        {"key": "newcomer", "label": "Best newcomers"},
    ]
    provisional = api.get(f"{base}/awards/").json()
    assert provisional["final"] is False
    assert [a["amount_cents"] for a in provisional["awards"][:2]] == [4001, 4000]
    assert api_as(None).get(f"{base}/awards/").status_code == 404
    services.finalize_competition(competition=competition, by=by(olga))
    public = api_as(None).get(f"{base}/awards/").json()
    assert public["final"] is True and public["awards"] == provisional["awards"]
    locked = api.post(f"{base}/prizes/", {"rank": 3, "object": "Pen"}, format="json")
    assert locked.status_code == 409


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"rank": 0, "amount_cents": 100}, "rank"),
        ({"rank": 1, "amount_cents": -100}, "amount_cents"),
        ({"rank": 1, "amount_cents": 100, "category": "women"}, "category"),
        ({"rank": 1}, "amount_cents"),
        ({"rank": "1", "amount_cents": 100}, "rank"),
    ],
)
def test_api_refuses_a_bad_prize_naming_the_field(club, olga, body, field):
    competition = make_competition(club, olga)
    answer = api_as(olga).post(
        f"/api/v1/competitions/{competition.pk}/prizes/", body, format="json"
    )
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert not Prize.objects.exists()


def test_api_rank_twice_and_remove(club, olga, sara):
    competition = make_competition(club, olga)
    base = f"/api/v1/competitions/{competition.pk}/prizes/"
    api = api_as(olga)
    prize = api.post(base, {"rank": 1, "amount_cents": 100}, format="json").json()
    twice = api.post(base, {"rank": 1, "object": "Cup"}, format="json")
    assert twice.status_code == 400 and twice.json()["errors"][0]["field"] == "rank"
    assert api_as(sara).delete(f"{base}{prize['id']}/").status_code == 403
    assert api.delete(f"{base}{prize['id']}/").status_code == 204
    assert not Prize.objects.exists()


def test_a_clubs_export_carries_its_tags_fees_payments_and_prizes(torneo, olga):
    competition, entries = torneo
    scoring.set_player_tags(player=entries[0].player, tags=["Women"], by=by(olga))
    tag = entries[0].player.tags.get()
    services.set_fee(competition=competition, amount_cents=500, by=by(olga))
    services.mark_paid(entry=entries[0], method="card", by=by(olga))
    services.add_prize(
        competition=competition, category=f"tag:{tag.pk}", rank=1, object="Rose", by=by(olga)
    )
    services.set_prize_rules(competition=competition, ties="tie_break", both=True, by=by(olga))
    document = club_data.export_club(club=competition.club)
    copy = club_data.import_club(document=document, slug="copia")
    twin = copy.competitions.get()
    new_tag = copy.player_tags.get()
    assert list(new_tag.players.values_list("display_name", flat=True)) == ["Anna"]
    assert twin.fee.amount_cents == 500
    assert Payment.objects.filter(entry__competition=twin, method="card").count() == 1
    assert [p.key for p in twin.prizes.all()] == [f"tag:{new_tag.pk}"]
    assert (twin.prize_rules.ties, twin.prize_rules.both) == ("tie_break", True)
