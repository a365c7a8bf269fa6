"""Issue 32, "Done means": the tournament director's events scripted end to end in Chromium at
1280×800 (the registrant's phone at 390×844). The director's own steps go through the pages
(the registration form, the desk, publish, withdraw, replace, draw again, the prize page); the
bulk not under test (confirming 19 pairs, entering every game's hands) through the services.
Every figure the director checks is asserted: the waiting list, the cash report, the tables,
the e-mails and to whom (Django's locmem outbox: the live server runs in this process), the
standings and the money."""

import os
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from registration import services as registration_services
from registration.models import Registration
from scoring.services import Actor
from tests.browser.conftest import PHONE, TIMEOUT_MS, log_in
from tests.tournaments.helpers import make_competition, play, tables_of
from tournaments import selectors, services
from tournaments.models import Entry, EntryStatus, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SCREENSHOTS_DIR")

#: 40 players, two by two the 20 pairs that register (the earlier the pair, the stronger).
PLAYERS = (
    "Anna Bassi", "Bruno Conti", "Carla Dini", "Dario Elia", "Elena Fabbri", "Franco Galli",
    "Gina Lodi", "Ugo Mancini", "Ivo Neri", "Lia Orsi", "Mario Pace", "Nina Quaglia",
    "Olivia Riva", "Piero Sala", "Rita Tosi", "Sandro Villa", "Teresa Zanni", "Aldo Bruni",
    "Bice Colombo", "Cesare Donati", "Dora Ferri", "Enzo Gatti", "Fulvia Leone", "Gino Marini",
    "Ilaria Negri", "Luca Oliva", "Marta Parisi", "Nello Rossi", "Ornella Santi", "Paolo Testa",
    "Rosa Valli", "Silvio Zito", "Tina Amato", "Vito Barbieri", "Zora Caruso", "Adele Fontana",
    "Bepi Greco", "Cinzia Lombardi", "Dino Monti", "Emma Pellegrini",
)  # fmt: skip


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def address(name: str) -> str:
    return name.lower().replace(" ", ".") + "@example.org"


def token_in(message) -> str:
    return re.search(r"/r/([\w-]+)/", message.body).group(1)


def last_mail_to(email: str):
    return [m for m in mail.outbox if m.to == [email]][-1]


def sent_to(subject_part: str) -> set[str]:
    return {m.to[0] for m in mail.outbox if subject_part in m.subject}


def pair_register(competition, index: int) -> None:
    """Pair ``index`` registers without an account, and both confirm by their links."""
    name, partner = PLAYERS[2 * index], PLAYERS[2 * index + 1]
    registration_services.register(
        competition=competition,
        by=Actor(),
        name=name,
        email=address(name),
        partner_name=partner,
        partner_email=address(partner),
        language="en",
    )
    for email in (address(name), address(partner)):
        registration_services.confirm_registration(token=token_in(last_mail_to(email)), by=Actor())


def strength(entry_id: int) -> int:
    """The earlier a pair registered, the stronger (registrations keep their order)."""
    return -Registration.objects.get(entry_id=entry_id).pk


def hands(winners: list[int]) -> list[dict]:
    return [
        {"dealer": i % 4, "points": [70, 50] if w == 0 else [50, 70]} for i, w in enumerate(winners)
    ]


def play_round(round_: Round, olga, wins: int = 1) -> None:
    """Every table of ``round_`` (published) won by its stronger pair; in a longer match the
    weaker takes the first hand and the stronger the next ``wins`` (2–1 after the bella)."""
    for table in round_.tables.select_related("game").order_by("number"):
        home, away = tables_of_table(table)
        strong = 0 if strength(home) > strength(away) else 1
        run = [1 - strong] * (wins - 1) + [strong] * wins
        play(table.game, hands(run), olga)


def tables_of_table(table) -> tuple[int, ...]:
    return tuple(s.entry_id for s in table.seats.order_by("position"))


def generate(competition, olga) -> Round:
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    return Round.objects.get(pk=round_.pk)


def publish_on_the_page(desk, competition, number: int) -> None:
    desk.goto(f"/c/uno/k/{competition.slug}/rounds/{number}/")
    desk.get_by_role("button", name="Publish: open the games").click()
    expect(desk.locator("#change-redraw")).to_be_visible()


def test_briscola_pairs_from_registration_to_the_prizes(browser, live_server, laptop, club, olga):
    by = Actor.for_user(olga)
    competition = make_competition(
        club, olga, name="Briscola a coppie", slug="coppie", rulesets=["briscola"],
        options={"briscola": {"format": "pairs", "hands_to_win": 1}}, format="swiss",
        table_size=2, planned_rounds=4, cut_to=4, semi_final_hands_to_win=2,
        final_hands_to_win=2, public=True, notify_entrants=True,
    )  # fmt: skip
    now = timezone.now()
    registration_services.set_registration(
        competition=competition, by=by, opens_at=now - timedelta(hours=1),
        closes_at=now + timedelta(days=5), capacity=16, unit="entries", waiting_list=True,
    )  # fmt: skip
    services.set_fee(competition=competition, amount_cents=1000, by=by)

    # The first pair registers on a phone, from the public page's form; both confirm.
    context = browser.new_context(base_url=live_server.url, **PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    phone = context.new_page()
    phone.goto(f"/p/uno/{competition.slug}/register/")
    phone.get_by_label("Your name").fill(PLAYERS[0])
    phone.get_by_label("Your e-mail address").fill(address(PLAYERS[0]))
    phone.get_by_label("Your partner's name").fill(PLAYERS[1])
    phone.get_by_label("Your partner's e-mail address").fill(address(PLAYERS[1]))
    phone.get_by_role("button", name="Register").tap()
    expect(phone.locator("#registration-done")).to_be_visible()
    shot(phone, "director-register-390")
    phone.goto(f"/r/{token_in(last_mail_to(address(PLAYERS[0])))}/")
    phone.get_by_role("button", name="Confirm my registration").tap()
    expect(phone.locator("#registration-status")).to_contain_text("partner")
    phone.goto(f"/r/{token_in(last_mail_to(address(PLAYERS[1])))}/")
    phone.get_by_role("button", name="Confirm our pair").tap()
    expect(phone.locator("#registration-status")).to_contain_text("You have a place")
    context.close()
    for index in range(1, 20):
        pair_register(competition, index)
    statuses = list(Registration.objects.order_by("pk").values_list("status", flat=True))
    assert statuses == ["entered"] * 16 + ["waiting"] * 4

    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto(f"/c/uno/k/{competition.slug}/registration/")
    waiting = desk.locator("#waiting-list li")
    expect(waiting).to_have_count(4)
    expect(waiting.nth(0)).to_contain_text(f"1. {PLAYERS[32]} & {PLAYERS[33]}")
    shot(desk, "director-registration-1280")

    # Fees at the desk: 14 pairs pay cash; the two no-shows (pairs 5 and 12) never come.
    entries = list(competition.entries.order_by("pk"))
    no_shows = [entries[4], entries[11]]
    desk.goto(f"/c/uno/k/{competition.slug}/desk/")
    expect(desk.locator('[data-total="expected"]')).to_have_text("€160.00")
    for entry in entries:
        if entry not in no_shows:
            desk.locator(f"#entry-{entry.pk}").get_by_role("button", name="Cash").click()
            expect(desk.locator(f'#entry-{entry.pk} [data-status="paid"]')).to_be_visible()
    expect(desk.locator('[data-total="received"]')).to_have_text("€140.00")
    expect(desk.locator('[data-total="outstanding"]')).to_have_text("€20.00")

    # Round 1 published: every registrant and partner (no account) gets their table.
    first = generate(competition, olga)
    mail.outbox.clear()
    publish_on_the_page(desk, competition, 1)
    seated = {address(p) for p in PLAYERS[:32]}
    assert sent_to("Briscola a coppie: round 1") == seated
    assert len(mail.outbox) == 32
    table_of = {e: n for n, t in enumerate(tables_of(first), start=1) for e in t}
    letter = last_mail_to(address(PLAYERS[0]))
    assert f"You play at table {table_of[entries[0].pk]} with " in letter.body

    # The two no-shows withdrawn from the registration page: the first two waiting take their
    # places (and are told), the withdrawn are told too.
    mail.outbox.clear()
    for entry in no_shows:
        desk.goto(f"/c/uno/k/{competition.slug}/registration/")
        row = desk.locator(f"#registration-{entry.registration.pk}")
        row.get_by_role("button", name="Withdraw").click()
        desk.get_by_role("button", name=f"Yes, withdraw {entry.name}").click()
        expect(desk.locator(f"#registration-{entry.registration.pk}")).to_contain_text("withdrawn")
    expect(desk.locator("#waiting-list li")).to_have_count(2)
    promoted = list(
        Entry.objects.filter(competition=competition).order_by("pk")[16:18]
    )  # pairs 17 and 18, the first two on the waiting list
    assert [e.name for e in promoted] == [
        f"{PLAYERS[32]} & {PLAYERS[33]}",
        f"{PLAYERS[34]} & {PLAYERS[35]}",
    ]
    assert all(e.status == EntryStatus.ACTIVE for e in promoted)
    told = {m.to[0] for m in mail.outbox}
    gone = {address(p) for e in no_shows for p in (e.player.display_name, e.partner.display_name)}
    assert told == gone | {address(p) for p in PLAYERS[32:36]}

    # The round page warns about both seated no-shows; each is replaced by a promoted pair.
    desk.goto(f"/c/uno/k/{competition.slug}/rounds/1/")
    warnings = desk.locator("#seat-warnings li")
    expect(warnings).to_have_count(2)
    for entry in no_shows:
        expect(desk.locator("#seat-warnings")).to_contain_text(
            f"Table {table_of[entry.pk]}: {entry.name} has withdrawn."
        )
    shot(desk, "director-round-warning-1280")
    mail.outbox.clear()
    for entry, late in zip(no_shows, promoted, strict=True):
        desk.locator("#replace_absent").select_option(str(entry.pk))
        desk.locator("#replace_late").select_option(str(late.pk))
        desk.locator("#change-replace button[type=submit]").click()
        expect(desk.locator("#reprint")).to_be_visible()
    expect(desk.locator("#seat-warnings")).to_have_count(0)
    assert sent_to("round 1") == {address(p) for p in PLAYERS[32:36]}
    # "Draw again": the withdrawn stay out; whoever moved is e-mailed their new table.
    mail.outbox.clear()
    desk.locator("#change-redraw").get_by_label("Seed").fill("7")
    desk.locator("#change-redraw button[type=submit]").click()
    expect(desk.locator("#reprint")).to_be_visible()
    shot(desk, "director-round-redrawn-1280")
    now_seated = {e for t in tables_of(first) for e in t}
    active = set(competition.entries.filter(status="active").values_list("pk", flat=True))
    assert now_seated == active and len(active) == 16
    assert not now_seated & {e.pk for e in no_shows}
    moved = {m.to[0] for m in mail.outbox}
    assert moved and moved <= {
        address(n) for e in Entry.objects.filter(pk__in=active) for n in e.name.split(" & ")
    }
    expect(desk.locator("#seat-warnings")).to_have_count(0)

    # The promoted pay by card at the desk: the cash report balances.
    desk.goto(f"/c/uno/k/{competition.slug}/desk/")
    for entry in promoted:
        desk.locator(f"#entry-{entry.pk}").get_by_role("button", name="Card").click()
        expect(desk.locator(f'#entry-{entry.pk} [data-status="paid"]')).to_be_visible()
    desk.goto(f"/c/uno/k/{competition.slug}/desk/report/")
    expect(desk.locator('.cash-totals [data-total="expected"]')).to_have_text("€160.00")
    expect(desk.locator('.cash-totals [data-total="received"]')).to_have_text("€160.00")
    expect(desk.locator('[data-method="cash"]')).to_have_text("€140.00")
    expect(desk.locator('[data-method="card"]')).to_have_text("€20.00")
    expect(desk.locator('.cash-totals [data-total="outstanding"]')).to_have_text("€0.00")
    shot(desk, "director-cash-report-1280")

    # Four Swiss rounds (the stronger pair wins), then the knockout of the top 4, best of 3.
    play_round(first, olga)
    services.close_round(round_=Round.objects.get(pk=first.pk), by=by)
    for _ in range(3):  # rounds 2 to 4
        round_ = generate(competition, olga)
        services.publish_round(round_=round_, by=by)
        play_round(round_, olga)
        services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    table = selectors.standings_of(competition)["tables"][0]["rows"]
    # 16 pairs, 4 rounds, the stronger always winning (2 points a win): one pair 4–0, four
    # 3–1, six 2–2, four 1–3, one 0–4. The no-shows withdrew after the start (round 1 was
    # published): by the rule of docs (point 8) they keep a row, last, marked withdrawn.
    swiss = [row for row in table if not row["withdrawn"]]
    assert [row["points"] for row in swiss] == [8] + [6] * 4 + [4] * 6 + [2] * 4 + [0]
    assert [(row["entry"], row["rank"], row["points"]) for row in table[16:]] == sorted(
        (e.pk, 17, 0) for e in no_shows
    )
    assert [row["rank"] for row in swiss[:2]] == [1, 2]
    top = [row["entry"] for row in swiss[:4]]
    semis = generate(competition, olga)
    assert sorted(map(sorted, tables_of(semis))) == sorted(
        [sorted([top[0], top[3]]), sorted([top[1], top[2]])]
    )
    services.publish_round(round_=semis, by=by)
    play_round(semis, olga, wins=2)
    services.close_round(round_=Round.objects.get(pk=semis.pk), by=by)
    winners = [max(pair, key=strength) for pair in ((top[0], top[3]), (top[1], top[2]))]
    losers = [e for e in top if e not in winners]
    final = generate(competition, olga)
    assert sorted(tables_of(final)[0]) == sorted(winners)
    services.publish_round(round_=final, by=by)
    play_round(final, olga, wins=2)
    services.close_round(round_=Round.objects.get(pk=final.pk), by=by)
    champion, runner_up = sorted(winners, key=strength, reverse=True)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    # The bracket's ranking: the champion, the final's loser, the two semi-final losers 3rd.
    assert [(row["entry"], row["rank"]) for row in rows[:2]] == [(champion, 1), (runner_up, 2)]
    assert {row["entry"] for row in rows[2:4]} == set(losers)
    assert [row["rank"] for row in rows[2:4]] == [3, 3]
    # The final's loser level on Swiss points with a semi-final loser: the case of the issue.
    by_entry = {row["entry"]: row for row in swiss}
    assert by_entry[runner_up]["points"] in {by_entry[e]["points"] for e in losers}
    assert {row["entry"] for row in rows[16:]} == {e.pk for e in no_shows}

    # The prize page: 50 / 30 / 20, third shared by the two semi-final losers, split equally.
    desk.goto(f"/c/uno/k/{competition.slug}/prizes/")
    form = desk.locator("#add-prize")
    for rank, amount in (("1", "50"), ("2", "30"), ("3", "20")):
        form.get_by_label("Rank").fill(rank)
        form.get_by_label("Money (EUR)").fill(amount)
        form.get_by_role("button", name="Add the prize").click()
        expect(desk.locator(".prize-list li")).to_have_count(int(rank))
    money = {
        rows[0]["entry"]: "€50.00",
        rows[1]["entry"]: "€30.00",
        rows[2]["entry"]: "€10.00",
        rows[3]["entry"]: "€10.00",
    }
    for entry, text in money.items():
        expect(desk.locator(f'#awards tr[data-entry="{entry}"] .prize')).to_have_text(text)
    expect(desk.locator("#awards tbody tr")).to_have_count(4)
    expect(desk.locator(f'#awards tr[data-entry="{rows[2]["entry"]}"] td').nth(1)).to_have_text(
        "3–4"
    )
    shot(desk, "director-prizes-1280")
    desk.goto(f"/c/uno/k/{competition.slug}/prizes/results/")
    for entry, text in money.items():
        expect(desk.locator(f'.results-sheet tr[data-entry="{entry}"] .prize')).to_have_text(text)
    expect(desk.locator(".results-sheet tbody tr")).to_have_count(18)
    shot(desk, "director-results-sheet-1280")

    mail.outbox.clear()
    services.finalize_competition(competition=competition, by=by)
    public = laptop.new_page()
    public.goto(f"/p/uno/{competition.slug}/")
    for entry, text in money.items():
        expect(public.locator(f'#prizes tr[data-entry="{entry}"] .prize')).to_have_text(text)
    expect(public.locator("#prizes tbody tr")).to_have_count(4)
    shot(public, "director-public-1280")
    # The final e-mails: one to each of the 36 players of the 18 pairs in the standings (the
    # no-shows' rows included), each in the language they registered in.
    finals = {m.to[0] for m in mail.outbox}
    assert finals == {address(p) for p in PLAYERS[:36]} and len(mail.outbox) == 36
    champion = Entry.objects.get(pk=rows[0]["entry"])
    letter = last_mail_to(address(champion.player.display_name))
    for row, text in zip(rows[:4], ["€50.00", "€30.00", "€10.00", "€10.00"], strict=True):
        assert f"{row['name']} — {text}" in letter.body


def turkish_hands(n: int) -> list[dict]:
    """Two deals of a table of ``n``, both won by seat 0; seat ``s`` pays 5 × s each deal:
    totals 0, 10, 20, …: seat order is the final order."""
    return [
        {
            "dealer": deal,
            "went_out": 0,
            "penalties": [{"seat": s, "points": 5 * s} for s in range(1, n)],
        }
        for deal in range(2)
    ]


def test_a_turkish_evening_of_22_at_tables_of_3_to_6(laptop, club, olga):
    by = Actor.for_user(olga)
    competition = services.create_competition(
        club=club, by=by, name="Serata turca", slug="turca", rulesets=["turkish"],
        format="club_night", min_table_size=3, max_table_size=6, table_size=5,
        planned_rounds=1, options={"turkish": {"deals": 2}}, public=True,
    )  # fmt: skip
    for name in PLAYERS[:22]:
        services.add_entry(competition=competition, player=name, by=by)
    services.add_round(competition=competition, by=by)
    desk = laptop.new_page()
    log_in(desk, "olga", "pw-olga")
    desk.goto(f"/c/uno/k/{competition.slug}/rounds/1/")
    desk.locator("#draw").get_by_role("button", name="Draw").click()
    boxes = desk.locator(".table-box[data-table]")
    expect(boxes).to_have_count(4)
    sizes = [boxes.nth(i).locator("ol.seats li").count() for i in range(4)]
    # 22 at 3 to 6, preferred 5: two tables of 6 and two of 5, none of 7.
    assert sorted(sizes, reverse=True) == [6, 6, 5, 5]
    shot(desk, "director-turkish-draft-1280")
    desk.get_by_role("button", name="Publish: open the games").click()
    expect(desk.locator("#change-redraw")).to_be_visible()
    round_ = competition.rounds.get(number=1)
    for table in round_.tables.select_related("game"):
        play(table.game, turkish_hands(table.seats.count()), olga)
    desk.reload()
    expect(desk.locator('.table-box [data-status="finished"]')).to_have_count(4)
    services.close_round(round_=Round.objects.get(pk=round_.pk), by=by)
    rows = selectors.standings_of(competition)["tables"][0]["rows"]
    size_of = {s.entry_id: t.seats.count() for t in round_.tables.all() for s in t.seats.all()}
    # Fair placement points, first 100 and last 0 at every size: a table of 6 pays
    # 100/80/60/40/20/0, a table of 5 100/75/50/25/0; each place is held by two players.
    assert [(row["points"], size_of[row["entry"]]) for row in rows] == [
        (points, size)
        for points, size in (
            (100, 6), (100, 5), (80, 6), (75, 5), (60, 6), (50, 5), (40, 6), (25, 5), (20, 6),
            (0, 5), (0, 6),
        )
        for _ in range(2)
    ]  # fmt: skip
    assert [row["rank"] for row in rows] == [1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15,
                                             15, 17, 17, 19, 19, 21, 21]  # fmt: skip
    # The winners level on 100 and one win, parted by the opponents' strength counted per game
    # (the mean of the table's other players): 200 / 5 = 40 at a 6, 150 / 4 = 37.5 at a 5.
    assert [row["values"]["opponents_strength"] for row in rows[:4]] == [40, 40, 37.5, 37.5]
    # The last, on 0: 250 / 4 = 62.5 at a 5 ahead of 300 / 5 = 60 at a 6.
    assert [row["values"]["opponents_strength"] for row in rows[18:]] == [62.5, 62.5, 60, 60]
    standings = laptop.new_page()
    standings.goto(f"/p/uno/{competition.slug}/standings/")
    table = standings.locator(".standings-table tbody tr")
    expect(table).to_have_count(22)
    for index, row in enumerate(rows):
        expect(table.nth(index)).to_have_attribute("data-entry", str(row["entry"]))
        expect(table.nth(index).locator("td.points")).to_have_text(str(row["points"]))
    shot(standings, "director-turkish-standings-1280")
