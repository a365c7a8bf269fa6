"""What a player met at the table, measured in the browser at 390×844 (issue 21, points 10–14):
tap targets of 44×44 CSS px, no word broken in the middle, QR codes whole and filling their
box, Turkish penalties red in the history as in the form, six players' totals on one row, the
winner's card readable (4.5:1), the removal dialog's focus on the safe answer.

Screenshots of what is measured go to ``$SHOTS_DIR`` when it is set, to be looked at."""

import pytest
from playwright.sync_api import Page, expect

from scoring import services
from scoring.models import Hand, Player
from scoring.services import Actor
from tests.browser.test_phone_layout import shot
from tests.browser.test_pwa import G1, play
from tournaments import services as tournaments

from .conftest import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TAP = 44

#: Each word of the visible text of ``main`` (and the top bar) whose letters sit on more than
#: one line: a word broken in the middle. Addresses (``.url``) may break anywhere.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const root of document.querySelectorAll('.topbar, main')) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('.url, script, style, svg, [hidden]') || !el.getClientRects().length) continue;
      for (const m of node.data.matchAll(/[^\\s\\-–—\\/·,]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""

#: The contrast ratio of an element's text on the background behind it, from computed styles
#: (the text's colour and the opacities of it and its ancestors blended over that background).
CONTRAST = """(el) => {
  const rgba = (s) => { const v = s.match(/[\\d.]+/g).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; };
  let bg = null, opacity = 1;
  for (let e = el; e; e = e.parentElement) {
    const style = getComputedStyle(e);
    opacity *= Number(style.opacity);
    const c = rgba(style.backgroundColor);
    if (!bg && c[3] > 0) bg = c;
  }
  bg = bg || [255, 255, 255, 1];
  const fg = rgba(getComputedStyle(el).color);
  const a = fg[3] * opacity;
  const text = [0, 1, 2].map((i) => fg[i] * a + bg[i] * (1 - a));
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const [hi, lo] = [lum(text), lum(bg)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def small_targets(page: Page, selector: str) -> list[tuple[str, float, float]]:
    """The visible elements of ``selector`` smaller than 44×44 CSS px: (text, width, height)."""
    return page.eval_on_selector_all(
        selector,
        """(els, tap) => els.filter((e) => e.getClientRects().length)
             .map((e) => { const r = e.getBoundingClientRect();
                           return [e.innerText.trim(), Math.round(r.width), Math.round(r.height)]; })
             .filter(([, w, h]) => w < tap || h < tap)""",
        TAP,
    )


def no_word_broken(page: Page) -> None:
    assert page.evaluate(BROKEN_WORDS) == []


# -- 10: tap targets, and Deactivate asks first -------------------------------------------------


def test_the_top_bar_and_the_game_links_are_44_px_targets(page, olga, club, players, terziglio):
    page.goto("/")
    assert small_targets(page, ".topbar a, .topbar button") == []  # Log in
    log_in(page, "olga", "pw-olga")
    page.goto(f"/g/{terziglio.pk}/")
    shot(page, "game-top-390")
    assert small_targets(page, ".topbar a, .topbar button") == []  # Log out, the club
    links = page.locator(".actions .links a")
    expect(links).to_have_count(4)
    assert small_targets(page, ".actions .links a, .actions summary") == []


def test_this_is_me_and_deactivate_are_44_px_and_deactivate_asks_first(olga_page, players):
    page = olga_page
    page.goto("/c/uno/players/")
    row = page.locator("li.row").filter(has_text="Anna")
    assert small_targets(page, "li.row a, li.row button, li.row summary") == []
    row.locator("summary", has_text="Deactivate").tap()
    question = row.locator(".ask-first form")
    expect(question).to_contain_text("Deactivate Anna?")
    shot(page, "deactivate-asks-390")
    assert Player.objects.get(pk=players[0].pk).active  # one tap did not deactivate
    assert small_targets(page, "li.row a, li.row button, li.row summary") == []
    question.get_by_role("button", name="Yes, deactivate Anna").tap()
    expect(page.locator("li.row").filter(has_text="Anna")).to_contain_text("inactive")
    assert not Player.objects.get(pk=players[0].pk).active


def test_deactivate_asks_first_without_javascript(browser, live_server, olga, players):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False, **PHONE)
    try:
        page = context.new_page()
        log_in(page, "olga", "pw-olga")
        page.goto("/c/uno/players/")
        row = page.locator("li.row").filter(has_text="Bruno")
        expect(row.get_by_role("button", name="Yes, deactivate Bruno")).to_be_hidden()
        row.locator("summary", has_text="Deactivate").tap()
        row.get_by_role("button", name="Yes, deactivate Bruno").tap()
        expect(page.locator("li.row").filter(has_text="Bruno")).to_contain_text("inactive")
        assert not Player.objects.get(pk=players[1].pk).active
    finally:
        context.close()


# -- 11: no word broken mid-word ------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "pending"), [("en-GB", "pending"), ("it-IT", "in attesa")])
def test_the_pending_badge_names_and_sentences_are_never_broken_inside_a_word(
    browser, live_server, olga, club, players, locale, pending
):
    by = Actor.for_user(olga)
    game = services.start_game(
        club=club, ruleset="terziglio", players=players[:3], by=by, hands_need_acceptance=True
    )
    services.record_hand(game=game, document=G1[0], by=by, seat=0)
    play(services.start_game(club=club, ruleset="terziglio", players=players[:3], by=by), G1, olga)
    context = browser.new_context(base_url=live_server.url, **{**PHONE, "locale": locale})
    try:
        page = context.new_page()
        page.goto("/login/")
        page.locator('input[name="username"]').fill("olga")
        page.locator('input[name="password"]').fill("pw-olga")
        page.locator('main button[type="submit"]').tap()
        expect(page.locator(".topbar form button")).to_be_visible()  # Log out, Esci
        page.goto(f"/g/{game.pk}/")
        badge = page.locator(".history .badge.wait")
        expect(badge).to_have_text(pending)
        assert badge.bounding_box()["height"] < 30  # one line
        badge.scroll_into_view_if_needed()
        shot(page, f"pending-{locale}")
        no_word_broken(page)
        for url in (f"/c/uno/players/{players[0].pk}/", f"/g/{game.pk}/table/", "/c/uno/players/"):
            page.goto(url)
            no_word_broken(page)
        shot(page, f"table-card-{locale}")
    finally:
        context.close()


# -- 12: QR codes whole, filling their box --------------------------------------------------------


def qr_fills_its_box(page: Page, box: str) -> dict:
    """The QR code's box, its SVG and the drawing inside it, in CSS px."""
    sizes = page.eval_on_selector(
        box,
        """(box) => { const svg = box.querySelector('svg'), path = svg.querySelector('path');
                      const r = (e) => { const b = e.getBoundingClientRect();
                                         return [b.left, b.top, b.width, b.height]; };
                      return {box: r(box), svg: r(svg), drawing: r(path),
                              viewBox: svg.getAttribute('viewBox')}; }""",
    )
    _bx, _by, bw, bh = sizes["box"]
    sx, sy, sw, sh = sizes["svg"]
    dx, dy, dw, dh = sizes["drawing"]
    assert sizes["viewBox"], sizes
    assert abs(sw - bw) <= 1 and abs(sh - bh) <= 1 and abs(sw - sh) <= 1, sizes  # fills, square
    # The whole code inside the SVG (nothing cut) and spread over it (no blank margin beyond
    # the code's own quiet zone: 2 modules of 29 here).
    assert (
        sx - 0.5 <= dx and dx + dw <= sx + sw + 0.5 and sy - 0.5 <= dy and dy + dh <= sy + sh + 0.5
    )
    assert dw >= 0.8 * sw and dh >= 0.8 * sh, sizes
    return sizes


def test_the_table_card_and_the_projector_qr_codes_are_whole_and_fill_their_box(
    olga_page, browser, live_server, olga, club, terziglio
):
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/table/")
    sizes = qr_fills_its_box(page, ".table-card .qr")
    assert sizes["box"][2] >= 280  # min(80vw, 320px) at 390 px
    main = page.locator("main").bounding_box()
    centre = sizes["box"][0] + sizes["box"][2] / 2
    assert abs(centre - (main["x"] + main["width"] / 2)) <= 2  # centred, not left
    shot(page, "table-card-qr-390")

    by = Actor.for_user(olga)
    competition = tournaments.create_competition(
        club=club, by=by, name="Coppa", slug="coppa", rulesets=["terziglio"], public=True
    )
    for name in ("Elio", "Fabio", "Gino", "Ugo", "Vera", "Zoe"):
        tournaments.add_entry(competition=competition, player=name, by=by)
    round_ = tournaments.add_round(competition=competition, by=by)
    tournaments.generate_round(round_=round_, by=by, seed=3)
    tournaments.publish_round(round_=round_, by=by)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 800})
    try:
        projector = context.new_page()
        projector.goto("/p/uno/coppa/projector/")
        sizes = qr_fills_its_box(projector, ".projector-qr .qr")
        assert sizes["box"][2] >= 90
        shot(projector, "projector-qr-1280")
    finally:
        context.close()


# -- 13: Turkish penalties red, six players' totals on one row ------------------------------------


@pytest.fixture
def six_at_turkish(club, players, olga):
    by = Actor.for_user(olga)
    more = [services.add_player(club=club, display_name=n, by=by) for n in ("Sandro", "Franco")]
    game = services.start_game(club=club, ruleset="turkish", players=[*players, *more], by=by)
    document = {
        "dealer": 0,
        "went_out": 0,
        "penalties": [
            {"seat": s, "points": p} for s, p in ((1, 20), (2, 10), (3, 105), (4, 5), (5, 40))
        ],
    }
    services.record_hand(game=game, document=document, by=by)
    return game


def test_turkish_penalties_are_red_in_the_history_as_in_the_form(olga_page, six_at_turkish):
    page = olga_page
    page.goto(f"/g/{six_at_turkish.pk}/")
    red = page.locator(".seat-row .penalty").first.evaluate("e => getComputedStyle(e).color")
    deltas = page.locator(".history .delta")
    expect(deltas.nth(1)).to_have_text("+20")
    colours = deltas.evaluate_all("els => els.map((e) => getComputedStyle(e).color)")
    assert colours[1:] == [red] * 5, (red, colours)


def test_six_players_totals_stay_on_one_row_with_their_names(olga_page, six_at_turkish):
    page = olga_page
    page.goto(f"/g/{six_at_turkish.pk}/")
    totals = page.locator("#live .totals .total")
    expect(totals).to_have_count(6)
    boxes = [totals.nth(i).bounding_box() for i in range(6)]
    assert len({round(b["y"]) for b in boxes}) == 1, boxes  # one row
    assert page.locator("#live .totals").bounding_box()["height"] <= 0.12 * 844
    # Every name whole, or cut with its full name in the title; every score whole.
    names = page.eval_on_selector_all(
        "#live .total .name, #live .total .score",
        "els => els.map((e) => [e.textContent, e.title, e.scrollWidth <= e.clientWidth])",
    )
    for text, title, fits in names:
        assert fits or title == text, names
    assert [n[0] for n in names[::2]] == ["Anna", "Bruno", "Carla", "Dario", "Sandro", "Franco"]
    assert all(fits for _text, _title, fits in names), names  # these six fit at 390 px
    shot(page, "six-totals-390")


# -- 14: winner's card contrast, the removal dialog's focus ---------------------------------------


def test_the_winners_card_is_readable(olga_page, olga, terziglio):
    play(terziglio, G1, olga)
    page = olga_page
    page.goto(f"/g/{terziglio.pk}/")
    winner = page.locator("#live .total.winner")
    expect(winner).to_have_count(1)
    for part in (".name", ".score", ".place"):
        ratio = winner.locator(part).evaluate(CONTRAST)
        assert ratio >= 4.5, (part, ratio)
    shot(page, "winner-390")


def test_the_removal_dialog_focuses_keep_the_hand(olga_page, olga, terziglio):
    page = olga_page
    play(terziglio, G1[:4], olga)
    page.goto(f"/g/{terziglio.pk}/hands/2/")
    page.get_by_label("Reason").last.fill("misdeal")
    page.get_by_role("button", name="Remove", exact=True).tap()
    dialog = page.get_by_role("alertdialog")
    expect(dialog.get_by_role("link", name="Keep the hand")).to_be_focused()
    shot(page, "removal-dialog-390")
    page.keyboard.press("Enter")  # the hurried answer keeps the hand
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    assert Hand.objects.filter(game=terziglio).count() == 4
