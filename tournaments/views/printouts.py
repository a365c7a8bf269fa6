"""What an organizer prints for a round: one card per table (its QR code, PIN and seats in
dealing order) and one score sheet per table (the game's columns and a row per hand expected)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from scoring.forms.hands import hand_form
from scoring.labels import match_label
from scoring.links import qr_svg, table_url
from scoring.presenters.games import pair_sides
from tournaments import selectors
from tournaments.presenters import club_zone, schedule_row
from tournaments.views.access import organizer_or_404, round_or_404


@login_required
def round_cards(request, club_slug: str, slug: str, number: int):
    """One printable card per table: the table's QR code, PIN and seats in dealing order."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    round_ = round_or_404(competition, number)
    tables, _byes = selectors.round_tables(round_)
    links = selectors.table_links(tables)
    cards = []
    for table in tables:
        game = table.game
        card = {"table": table, "entries": [s.entry for s in table.seats.all()], "game": game}
        if game is not None:
            seats = list(game.seats.all())
            names = [s.player.display_name for s in seats]
            card |= {
                "seats": names,
                "sides": pair_sides(game, names),
                "sits_out": bool(game.rules.dealer_sits_out_with & {len(seats)}),
            }
            # Every game gets its link when it starts; printing reads it and never makes one.
            if (link := links.get(game.pk)) is not None:
                url = table_url(link, request)
                card |= {"pin": link.pin, "url": url, "qr": qr_svg(url)}
        cards.append(card)
    return render(
        request,
        "tournaments/cards.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "round": round_,
            "when": schedule_row(round_, club_zone(competition.club)),
            "cards": cards,
        },
    )


#: Minutes a hand takes at a club table, roughly: the score sheets get a row per hand expected
#: in the round's duration, rounded up so that every player deals as often.
MINUTES_PER_HAND = 6


def expected_hands(duration_minutes: int, seats: int) -> int:
    """Rows of a score sheet: the hands expected in ``duration_minutes`` at ``seats`` players,
    a whole number of deals round the table, at least two."""
    hands = max(2 * seats, -(-duration_minutes // MINUTES_PER_HAND))
    return -(-hands // seats) * seats


def match_length(game, seats: int) -> int | None:
    """A match played to a number of wins (Briscola): the most hands it can take with a
    winner each, every side one win short before the last (3 for two sides "best of 3"). None
    for a game played to a score or a time."""
    rules = game.rules
    target = game.options.get("hands_to_win")
    if not rules.totals_are_hands_won or not target:
        return None
    sides = rules.sides(game.options, seats) or ()
    return len(sides) * (target - 1) + 1


def sheet_columns(game, form) -> list[str]:
    """The hand form's columns a sheet keeps, by their labels: not the dealer (filled in), nor
    a field the form keeps hidden. A match's card points say so beside each side's names."""
    columns = []
    for key, field in form.fields.items():
        if key == "dealer" or field.widget.is_hidden or not field.label:
            continue
        label = str(field.label)
        if game.rules.totals_are_hands_won and key.startswith("points_"):
            label = _("Card points: %(side)s") % {"side": label}
        columns.append(label)
    return columns


@login_required
def round_sheets(request, club_slug: str, slug: str, number: int):
    """Printable score sheets, one per table of a published round: the game, the players in
    dealing order, the dealer of every hand filled in, the game's columns (what the hand form
    asks) and a points column per player, with a row per hand expected."""
    competition, role = organizer_or_404(request, club_slug, slug, manage=True)
    round_ = round_or_404(competition, number)
    tables, _byes = selectors.round_tables(round_)
    sheets = []
    for table in tables:
        game = table.game
        if game is None:
            continue
        names = [s.player.display_name for s in game.seats.all()]
        rows = match_length(game, len(names)) or expected_hands(round_.duration_minutes, len(names))
        sheets.append(
            {
                "table": table,
                "game": game,
                "names": names,
                "columns": sheet_columns(game, hand_form(game, names)),
                "match": match_label(game.options["hands_to_win"])
                if match_length(game, len(names))
                else "",
                # A match counts the hands each player wins; other games their points.
                "heads": [_("Hands won: %(name)s") % {"name": n} for n in names]
                if game.rules.totals_are_hands_won
                else names,
                "hands": [{"number": i + 1, "dealer": names[i % len(names)]} for i in range(rows)],
                "sits_out": bool(game.rules.dealer_sits_out_with & {len(names)}),
            }
        )
    return render(
        request,
        "tournaments/sheets.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "round": round_,
            "when": schedule_row(round_, club_zone(competition.club)),
            "sheets": sheets,
        },
    )
