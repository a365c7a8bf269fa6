"""The competitions' sentences: how a refusal of ``tournaments.services`` reads, in the active
language. They join the one catalog of ``scoring.messages`` (``register``) when the app loads
(``TournamentsConfig.ready``), so that a competition's problem reads the same on a page, in the
API and in ``manage.py`` commands as any other; scoring itself never names a competition's
refusal.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy, ngettext_lazy

from scoring.messages import register

#: What an organizer does about a refused background draw (the round page and the API).
DRAW_REFUSED_ADVICE = gettext_lazy(
    "Nothing was drawn. Put right what the refusal says (who is present, the entries, the "
    "previous round), then draw again; this notice stays until a draw succeeds."
)

#: Sharper messages for some (code, reason) pairs of the competition services.
REASONS = {
    ("not_allowed", "round_open"): gettext_lazy(
        "Round %(round)s is still open: close it before declaring the results final."
    ),
    ("not_allowed", "not_final"): gettext_lazy("The results of this competition are not final."),
    ("not_allowed", "no_entrants"): gettext_lazy(
        "Nobody has entered this competition: there are no results to declare final."
    ),
    ("inconsistent", "mixed_needs_league"): gettext_lazy(
        "Several games can be mixed only in a league: choose one game, or make it a league."
    ),
    ("inconsistent", "cut_needs_swiss"): gettext_lazy(
        "A knockout of the top players follows Swiss rounds: choose the Swiss format."
    ),
    ("inconsistent", "cut_needs_briscola"): gettext_lazy(
        "A knockout seats two sides: a Swiss with a knockout of the top is for Briscola only."
    ),
    ("required", "cut_needs_rounds"): gettext_lazy(
        "Say how many Swiss rounds come before the knockout of the top players."
    ),
    ("inconsistent", "length_needs_knockout"): gettext_lazy(
        "Only a knockout has rounds of its own length: choose the knockout format, or a Swiss "
        "with a knockout of the top."
    ),
    ("inconsistent", "third_place_needs_four"): gettext_lazy(
        "A third-place match is played by the two semi-final losers: the knockout needs the top "
        "4 at least, not %(value)s."
    ),
    ("not_allowed", "bracket_drawn"): gettext_lazy(
        "The knockout is already drawn: the Swiss rounds and the cut can no longer change."
    ),
    ("inconsistent", "two_sided_needs_briscola"): gettext_lazy(
        "Round robin and knockout seat two sides: they are for Briscola only. For a team event "
        "of another game, choose rotation, Swiss or club nights, then let its teams meet at "
        "mixed tables."
    ),
    ("inconsistent", "unlike_units"): gettext_lazy(
        "This league mixes games: their own scores are in different units and cannot be added "
        "up. Rank by placement points or games won, and break ties by wins, head to head or "
        "opponents' strength."
    ),
    ("inconsistent", "largest_below_smallest"): gettext_lazy(
        "The largest table cannot be smaller than the smallest table."
    ),
    ("inconsistent", "preferred_out_of_range"): gettext_lazy(
        "The preferred table size must lie between the smallest and the largest table."
    ),
    ("inconsistent", "no_table_of_game"): gettext_lazy(
        "%(game)s is played at tables of %(min)s to %(max)s players: these table sizes leave it "
        "none."
    ),
    ("inconsistent", "ends_before_it_starts"): gettext_lazy(
        "The last day comes before the first day."
    ),
    ("not_allowed", "published"): gettext_lazy(
        "This round is already published: its tables are fixed."
    ),
    ("not_allowed", "not_published"): gettext_lazy("Only a published round can be closed."),
    ("not_allowed", "not_closed"): gettext_lazy("Only a closed round can be reopened."),
    ("not_allowed", "round_closed_unfinished"): gettext_lazy(
        "Round %(round)s of %(competition)s is closed: its games stay finished. Correct the "
        "hand so that the game still ends."
    ),
    ("not_allowed", "bracket_complete"): gettext_lazy("The bracket has no round left to draw."),
    ("not_allowed", "previous_round_open"): gettext_lazy(
        "The matches of the previous round are not all finished yet."
    ),
    ("required", "no_tables"): gettext_lazy("Draw the tables of this round first."),
    # The API's preconditions on a round (If-Match, issue 22).
    ("required", "if_match_round"): gettext_lazy(
        "Send If-Match with the ETag of the round as you read it."
    ),
    ("stale", "entry"): gettext_lazy(
        "This entry changed since you read it (withdrawn, reinstated...): read it again."
    ),
    ("stale", "round"): gettext_lazy(
        "Round %(number)s is not the round you read, or it changed since: read it again."
    ),
    ("required", "knockout_winner"): gettext_lazy(
        "A knockout match needs a winner: give the player who goes through more points."
    ),
    ("not_allowed", "forfeited"): gettext_lazy("This table is already settled."),
    ("not_allowed", "not_playing"): gettext_lazy(
        "A late entrant joins a table only while the round is being played: draw a draft round "
        "again instead."
    ),
    ("not_allowed", "table_full"): gettext_lazy(
        "This table cannot take one more player: choose another table, or give a bye."
    ),
    ("not_allowed", "table_started"): gettext_lazy(
        "This table has started its game: choose a table with no hand yet, or give a bye."
    ),
    ("not_allowed", "not_changeable"): gettext_lazy(
        "Only a round being played changes this way: a draft is drawn again, a closed round "
        "stays as it was played."
    ),
    ("not_allowed", "has_hands"): gettext_lazy(
        "Table %(table)s has hands entered: its players can no longer change."
    ),
    ("not_allowed", "same_table"): gettext_lazy(
        "These two players sit at the same table: choose players of two tables."
    ),
    ("required", "too_few"): gettext_lazy(
        "Table %(table)s cannot play with %(value)s: choose a late entrant to take the seat."
    ),
    ("not_allowed", "fixed_matches"): gettext_lazy(
        "The matches of this round follow the format (a bracket, a round robin): they do not "
        "change once published; settle a match by forfeit instead."
    ),
    ("not_allowed", "nothing_to_redraw"): gettext_lazy(
        "Fewer than two tables have no hand yet: there is nothing to draw again."
    ),
    ("not_allowed", "later_round_playing"): gettext_lazy(
        "A later round is already published: this round can no longer go back to a draft."
    ),
    ("not_allowed", "finished"): gettext_lazy(
        "This table's game is finished: there is nothing to settle."
    ),
    ("not_allowed", "withdrawn"): gettext_lazy("This player has already withdrawn."),
    ("not_allowed", "withdrawn_entry"): gettext_lazy(
        "%(name)s has withdrawn: a withdrawn player takes no seat."
    ),
    ("not_allowed", "withdrawn_unfilled"): gettext_lazy(
        "Table %(table)s seats %(name)s, who has withdrawn, and the tables cannot be drawn "
        "again with one player fewer: replace them first (a late entrant, or one player fewer)."
    ),
    ("not_allowed", "not_pairs"): gettext_lazy(
        "This competition is played by single players, not pairs."
    ),
    ("not_allowed", "not_manager"): gettext_lazy(
        "Only the owner or an organizer of the club may draw the tables."
    ),
    ("not_allowed", "has_adjustments"): gettext_lazy(
        "Points were adjusted in this round: it cannot be deleted."
    ),
    ("not_allowed", "later_round_published"): gettext_lazy(
        "A later round is already published: this round cannot be deleted."
    ),
    ("not_allowed", "not_withdrawn"): gettext_lazy("This player has not withdrawn."),
    ("required", "counted_results"): gettext_lazy(
        "This change recomputes the standings of the rounds already played: tick the box to "
        "confirm."
    ),
    ("not_allowed", "unseated"): gettext_lazy(
        "Not seated in this round: %(value)s. Draw again, or give a bye, before publishing."
    ),
    # A club's data document (export_club / import_club).
    ("not_allowed", "not_a_club_document"): gettext_lazy(
        "This file is not a Segnapunti club export."
    ),
    ("not_allowed", "club_document_version"): gettext_lazy(
        "This club export has version %(value)s, which this Segnapunti cannot read."
    ),
    ("inconsistent", "club_document_broken"): gettext_lazy(
        "This club export is damaged and was not imported (%(value)s)."
    ),
    ("required", "club_import_owner"): gettext_lazy(
        "The imported club would have no owner: its owners' accounts already exist here and "
        "were left out."
    ),
    # The desk's fees (services.fees) and the prize list (services.prizes).
    ("not_allowed", "already_paid"): gettext_lazy(
        "%(name)s has already paid: marked on %(on)s by %(by)s. Undo that mark first to change it."
    ),
    ("not_allowed", "already_waived"): gettext_lazy(
        "The fee of %(name)s was already waived on %(on)s by %(by)s. Undo that mark first to "
        "change it."
    ),
    ("not_allowed", "not_paid"): gettext_lazy(
        "%(name)s has neither paid nor been let off: there is nothing to undo."
    ),
    ("not_allowed", "no_fee"): gettext_lazy("This competition charges no fee: set the fee first."),
    ("duplicate", "prize_rank"): gettext_lazy(
        "Rank %(value)s of this list already has a prize: remove it first, or choose another rank."
    ),
    ("required", "money_or_object"): gettext_lazy(
        "Give the prize an amount of money or an object."
    ),
}

#: Sentences for a code on one field of a competition's documents.
FIELDS = {
    ("entries", "range"): gettext_lazy(
        "At least %(min)s players must be present to draw the tables; there are %(value)s."
    ),
    ("slug", "duplicate"): gettext_lazy(
        "Another competition of the club already uses the address “%(value)s”."
    ),
    ("tie_breaks", "duplicate"): gettext_lazy("Each tie-break may be listed only once."),
    ("a", "not_found"): gettext_lazy("This player is not in this round."),
    ("b", "not_found"): gettext_lazy("This player is not in this round."),
    ("entry", "not_found"): gettext_lazy("This player is not in this round."),
    ("absent", "not_found"): gettext_lazy("This player has no seat at a table of this round."),
    ("late", "not_found"): gettext_lazy(
        "Choose an active player who has no seat at a table of this round."
    ),
    ("points.*", "not_found"): gettext_lazy("This player is not in this round."),
    ("amount_cents", "range"): gettext_lazy(
        "Amount: enter a whole number of cents from %(min)s to %(max)s, not %(value)s."
    ),
    ("amount_cents", "type"): gettext_lazy("Amount: enter a whole number of cents."),
    ("amount_cents", "conflict"): gettext_lazy(
        "A prize is an amount of money or an object, not both."
    ),
    ("method", "choice"): gettext_lazy("Method: choose one of %(choices)s, not %(value)s."),
    ("category", "choice"): gettext_lazy(
        "Category: choose “overall”, “newcomer” or one of the club's player tags "
        "(“tag:” and its number), not %(value)s."
    ),
}

#: Codes whose sentence counts the tables they name.
PLURALS = {
    "unfinished": (
        "tables",
        ngettext_lazy(
            "Table %(tables)s has not finished: finish or forfeit it first.",
            "Tables %(tables)s have not finished: finish or forfeit them first.",
            "count",
        ),
    ),
    "unaccepted": (
        "tables",
        ngettext_lazy(
            "Table %(tables)s has hands waiting to be accepted: a player of another side must "
            "accept them first.",
            "Tables %(tables)s have hands waiting to be accepted: a player of another side must "
            "accept them first.",
            "count",
        ),
    ),
}

register(reasons=REASONS, fields=FIELDS, plurals=PLURALS)

#: A table calling the director (``services.calls``).
CALL_REASONS = {
    ("not_allowed", "call_open"): gettext_lazy(
        "The director has been called already: wait for them, or call again after %(minutes)s "
        "minutes."
    ),
    ("not_allowed", "call_resolved"): gettext_lazy("This call was already resolved."),
    ("not_allowed", "call_throttled"): gettext_lazy(
        "Too many calls from this table: wait %(wait)s seconds and try again."
    ),
    ("not_allowed", "call_not_playing"): gettext_lazy(
        "This round is not being played: there is no director to call."
    ),
}
CALL_FIELDS = {
    ("reason", "choice"): gettext_lazy(
        "Reason: choose a dispute, a rules question, a player leaving or something else."
    ),
}

register(reasons=CALL_REASONS, fields=CALL_FIELDS)

#: The manual pairing editor (``services.pairing``).
PAIRING_REASONS = {
    ("not_allowed", "table_size"): gettext_lazy(
        "Table %(table)s would seat %(value)s: the tables of this competition seat %(min)s to "
        "%(max)s."
    ),
    ("not_allowed", "seated_twice"): gettext_lazy(
        "This player would be seated twice: each player takes one seat."
    ),
    ("not_allowed", "already_there"): gettext_lazy("This player already has a bye."),
    ("not_allowed", "bye_published"): gettext_lazy(
        "A published round gives no new bye: replace the player instead (one player fewer)."
    ),
}

register(reasons=PAIRING_REASONS)
