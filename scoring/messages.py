"""Human messages for rule and service problems, translated at the edge.

The rules package, the services and the API's input serializers all report a
``Problem(field, code, params)``; this module is the one catalog that turns it into a sentence
in the active language. It holds the scoring app's sentences; another app adds its own with
:func:`register` when it loads (``tournaments.messages``), so scoring never names them. Pages show it next to the field
(``scoring.forms.errors``), the API returns it as ``message`` (``as_errors``), ``manage.py score``
prints it: the same refusal reads the same everywhere. Tests assert ``field`` and ``code``,
rarely the text.

A sentence is chosen, most specific first: the problem's ``(code, reason)`` (``REASONS``), its
``(field, code)`` (``FIELDS``), then its code (``PLURALS``, ``TEMPLATES``).

Every message is a whole sentence in words. A generic one names its field as a heading
("Soloist's points: enter a number from 0 to 11, not 12."), never as the subject of a verb, so
that no language has to agree a verb or an adjective with a label it cannot see. The name is the
form's label on a page, else the field's name in words (``LABELS``); a key the catalog does not
know (one the client made up) is quoted as it was sent. Values read as JSON writes them.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy, ngettext, ngettext_lazy

from scoring.rules import Problem

EXPECTED = {
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "seat": gettext_lazy("a seat number"),
    "boolean": gettext_lazy("true or false"),
    "string": gettext_lazy("a text value"),
    "object": gettext_lazy("an object"),
    "list": gettext_lazy("a list"),
    "player": gettext_lazy("a player's name or id"),
    "date": gettext_lazy("a date written YYYY-MM-DD"),
    "time": gettext_lazy("a time written HH:MM"),
}

#: What the fields of the documents are called, for a message with no form label (the API,
#: ``manage.py score``, a problem shown above a form). Looked up by the whole path, then by its
#: head (``points`` of ``points[1]``), then by its last part (``aces`` of ``soloist_cards.aces``).
LABELS = {
    "document": gettext_lazy("The hand"),
    "dealer": gettext_lazy("Dealer"),
    "outcome": gettext_lazy("Outcome"),
    "soloist": gettext_lazy("Soloist"),
    "contract": gettext_lazy("Contract"),
    "entry": gettext_lazy("Enter"),
    "soloist_points": gettext_lazy("Soloist's points"),
    "soloist_cards": gettext_lazy("Cards counted"),
    "aces": gettext_lazy("Aces"),
    "thirds": gettext_lazy("Thirds (3, 2, figures)"),
    "counters": gettext_lazy("Counters (3, 2, figures)"),
    "last_trick": gettext_lazy("Last trick"),
    "sweep": gettext_lazy("Every trick?"),
    "caller": gettext_lazy("Caller"),
    "partner": gettext_lazy("Partner"),
    "target": gettext_lazy("Target"),
    "caller_points": gettext_lazy("Caller's side points"),
    "points": gettext_lazy("Card points"),
    "went_out": gettext_lazy("Went out"),
    "cards_left": gettext_lazy("Cards left"),
    "penalties": gettext_lazy("Penalties"),
    "seat": gettext_lazy("Seat"),
    "court": gettext_lazy("Court cards"),
    "tens": gettext_lazy("Tens"),
    "other": gettext_lazy("Other cards"),
    "players": gettext_lazy("Players"),
    "ruleset": gettext_lazy("Game"),
    "title": gettext_lazy("Title"),
    "options": gettext_lazy("Options"),
    "options.preset": gettext_lazy("Rules preset"),
    "options.format": gettext_lazy("Sides"),
    "abandon_reason": gettext_lazy("Reason"),
    "seating": gettext_lazy("Seating"),
}

TEMPLATES = {
    "look_alike": gettext_lazy(
        "%(field)s: “%(value)s” reads as “%(existing)s”, which is there already (it differs by"
        " %(character)s)."
    ),
    "required": gettext_lazy("%(field)s: fill this in."),
    "unknown_key": gettext_lazy("%(field)s: this game has no such field, leave it out."),
    "not_allowed": gettext_lazy("%(field)s: leave this out here."),
    "type": gettext_lazy("%(field)s: enter %(expected)s."),
    "choice": gettext_lazy("%(field)s: choose one of %(choices)s, not %(value)s."),
    "range": gettext_lazy("%(field)s: enter a number from %(min)s to %(max)s, not %(value)s."),
    "not_a_seat": gettext_lazy("%(field)s: choose a seat from 0 to %(max)s, not %(value)s."),
    "sitting_out": gettext_lazy(
        "%(field)s: seat %(value)s deals and sits out this hand, so it cannot be chosen."
    ),
    "wrong_dealer": gettext_lazy(
        "Seat %(expected)s must deal this hand (the deal passes in turn), not seat %(value)s."
    ),
    "conflict": gettext_lazy("%(field)s: leave this out when %(other)s is sent."),
    "throttled": gettext_lazy("Too many wrong tries: wait %(wait)s and try again."),
    "reset_throttled": gettext_lazy(
        "Password reset e-mails were asked for too often: wait %(wait)s and try again."
    ),
    "inconsistent": gettext_lazy("%(field)s: this contradicts the other values of the hand."),
    "impossible": gettext_lazy(
        "%(field)s: no card is worth 1 point, so a total of %(value)s cannot happen."
    ),
    "sum": gettext_lazy("%(field)s: the values must add up to %(total)s, not %(value)s."),
    "duplicate_seat": gettext_lazy("Seat %(value)s appears twice in the list."),
    "no_cards": gettext_lazy(
        "%(field)s: a player who did not go out still holds at least one card."
    ),
    "not_multiple": gettext_lazy(
        "%(field)s: no set of cards gives %(value)s; enter a multiple of %(divisor)s."
    ),
    "exceeds_pack": gettext_lazy("%(field)s: more cards or points than the packs in use hold."),
    "game_finished": gettext_lazy("The game is finished: no more hands can be added."),
    "game_abandoned": gettext_lazy("The game was abandoned: it cannot change any more."),
    "has_hands": gettext_lazy(
        "Hands are already entered in this game: its players can no longer change."
    ),
    "not_found": gettext_lazy("%(field)s: %(value)s is not a player of this club."),
    "duplicate": gettext_lazy("%(value)s is already listed."),
    "stale": gettext_lazy(
        "Hand %(number)s was changed by someone else (now version %(version)s): "
        "reload it and try again."
    ),
    "reused": gettext_lazy("This Idempotency-Key was already used for a different hand."),
    "in_flight": gettext_lazy(
        "A request with this Idempotency-Key is still being answered: send it again in a moment."
    ),
    # What any input is refused for (scoring.validators, scoring.api.parsers).
    "control_character": gettext_lazy(
        "%(field)s: remove the invisible control character (%(value)s) it contains."
    ),
    "too_deep": gettext_lazy("%(field)s: this is nested more than %(max)s levels deep."),
    "too_large": gettext_lazy("The request body is larger than %(max)s bytes."),
    "too_long": gettext_lazy("%(field)s: at most %(max)s characters, not %(value)s."),
    "locked": gettext_lazy("This game is locked: an organizer of the club can reopen it."),
    "seating_changed": gettext_lazy("The players at this table changed after this hand was typed."),
    # A device's push subscription (scoring.services.push), as its browser sent it.
    "not_a_key": gettext_lazy("%(field)s: this is not a key a browser made for notifications."),
    "not_https": gettext_lazy("%(field)s: a push service's address starts with https://."),
}

#: Codes whose sentence depends on how many things a parameter holds, or on a number: the
#: parameter (a list is counted) and the singular and plural sentences.
PLURALS = {
    "length": (
        "expected",
        ngettext_lazy(
            "%(field)s: enter %(expected)s value, not %(value)s.",
            "%(field)s: enter %(expected)s values, not %(value)s.",
            "count",
        ),
    ),
    "missing_seat": (
        "seats",
        ngettext_lazy(
            "%(field)s: nothing was entered for seat %(seats)s.",
            "%(field)s: nothing was entered for seats %(seats)s.",
            "count",
        ),
    ),
}

#: Sharper messages for some (code, reason) pairs.
REASONS = {
    ("look_alike", "list_name"): gettext_lazy(
        "Line %(line)s: “%(value)s” reads as “%(existing)s”, a player of the club or a line above"
        " already, but is written with %(character)s: write it as it is written there, or a name"
        " that reads differently."
    ),
    ("look_alike", "player_name"): gettext_lazy(
        "“%(value)s” reads as “%(existing)s”, a player of the club already, but is written with"
        " %(character)s: choose that player, or a name that reads differently."
    ),
    ("inconsistent", "sweep_soloist"): gettext_lazy(
        "A sweep by the soloist means he took every card and the last trick."
    ),
    ("inconsistent", "sweep_opponents"): gettext_lazy(
        "A sweep by the opponents leaves the soloist without a single point or trick."
    ),
    ("inconsistent", "pairs_need_four"): gettext_lazy("The pairs format needs exactly 4 players."),
    ("not_allowed", "passed_out"): gettext_lazy(
        "%(field)s is not allowed on a passed-out hand: send only dealer and outcome."
    ),
    ("not_allowed", "went_out"): gettext_lazy(
        "Seat %(value)s went out and scores nothing: leave it out of the list."
    ),
    # The API's own preconditions.
    ("reused", "request"): gettext_lazy(
        "This Idempotency-Key was already used for another request (another body or query): "
        "make a new key for a new request."
    ),
    ("invalid", "idempotency_key"): gettext_lazy(
        "An Idempotency-Key is 1 to %(max)s characters without control characters, e.g. a UUID."
    ),
    ("required", "idempotency_key"): gettext_lazy(
        "Send an Idempotency-Key header (up to 255 characters) with every hand, e.g. a UUID."
    ),
    ("required", "if_match"): gettext_lazy(
        "Send If-Match with the ETag of the hand as you read it (or the game's ETag)."
    ),
    ("required", "versions"): gettext_lazy(
        "Send If-Match with the game's ETag, or versions with the ETag of every hand you correct."
    ),
    ("not_found", "hand"): gettext_lazy("This game has no hand %(number)s."),
    ("stale", "game"): gettext_lazy(
        "This game changed since you read it (now version %(version)s): read it again."
    ),
    # Locked games and competitions (scoring.services.Locked).
    ("locked", "round_closed"): gettext_lazy(
        "Round %(round)s of %(competition)s is closed: an organizer of the club can reopen this "
        "game."
    ),
    ("locked", "finalized"): gettext_lazy(
        "%(competition)s is final: an organizer of the club must reopen the competition before "
        "anything changes."
    ),
    ("not_allowed", "not_locked"): gettext_lazy("This game is not locked."),
    ("not_allowed", "app_game"): gettext_lazy(
        "This game belongs to a competition: its next game is the competition's to draw."
    ),
    ("not_allowed", "no_acceptance"): gettext_lazy(
        "The hands of this game count without being accepted."
    ),
    ("duplicate", "club_slug"): gettext_lazy(
        "A club with the address “%(value)s” already exists: choose another address."
    ),
    ("invalid", "cursor"): gettext_lazy(
        "This page address was not given out by this list: start again from its first page."
    ),
    ("invalid", "club_slug"): gettext_lazy(
        "“%(value)s” cannot be a club's address: use lower-case letters and digits, with single "
        "hyphens or underscores between them, at most 60 characters."
    ),
    # A club's members, invitations and players linked to accounts (services.members).
    ("not_allowed", "owner_only"): gettext_lazy("Only an owner may make or unmake an owner."),
    ("not_allowed", "last_owner"): gettext_lazy(
        "The club must keep an owner: make someone else owner first."
    ),
    ("not_found", "member"): gettext_lazy("This person is not a member of the club."),
    ("duplicate", "already_member"): gettext_lazy("%(value)s is already a member of the club."),
    ("not_found", "invitation"): gettext_lazy(
        "This invitation link is not valid: ask the club for a new one."
    ),
    ("not_allowed", "invitation_accepted"): gettext_lazy("This invitation was already used."),
    ("not_allowed", "invitation_declined"): gettext_lazy("This invitation was declined."),
    ("not_allowed", "invitation_revoked"): gettext_lazy("This invitation was withdrawn."),
    ("not_allowed", "invitation_expired"): gettext_lazy(
        "This invitation has expired: ask the club for a new one."
    ),
    ("not_allowed", "player_linked"): gettext_lazy("%(value)s is already linked to an account."),
    ("not_allowed", "already_has_player"): gettext_lazy(
        "This account is already linked to the player %(value)s of this club."
    ),
    ("duplicate", "claim_pending"): gettext_lazy(
        "%(value)s is already claimed: an organizer will answer."
    ),
    ("not_allowed", "claim_decided"): gettext_lazy("This claim was already answered."),
    ("not_allowed", "own_claim"): gettext_lazy(
        "You cannot approve your own claim: another organizer of the club answers it."
    ),
    # A list of players pasted or uploaded (scoring.players_list, scoring.services.players).
    ("too_long", "list_line"): gettext_lazy(
        "Line %(line)s is longer than %(max)s characters: one player per line."
    ),
    ("range", "list_lines"): gettext_lazy(
        "The list holds %(value)s players: add at most %(max)s at once."
    ),
    ("range", "list_file"): gettext_lazy(
        "The file is larger than %(max)s kB: split it and send each part."
    ),
    ("invalid", "list_encoding"): gettext_lazy(
        'The file is not UTF-8 text: save it as "CSV UTF-8" and send it again.'
    ),
    ("required", "list_name_column"): gettext_lazy(
        'The file\'s first row names its columns but none is "name": add a name column.'
    ),
    ("required", "list_empty"): gettext_lazy("The list names nobody: write one name per line."),
    ("required", "list_name"): gettext_lazy("Line %(line)s: the name is missing."),
    ("range", "list_name"): gettext_lazy(
        "Line %(line)s: a name has at most %(max)s characters, not %(value)s."
    ),
    ("duplicate", "list_name"): gettext_lazy(
        "Line %(line)s: %(value)s is already on line %(first)s."
    ),
    ("duplicate", "list_taken"): gettext_lazy(
        "Some of these players were added meanwhile by someone else: send the list again."
    ),
    ("invalid", "list_email"): gettext_lazy("Line %(line)s: %(value)s is not an e-mail address."),
    ("choice", "list_language"): gettext_lazy(
        "Line %(line)s: the language must be one of %(choices)s, not %(value)s."
    ),
    ("invalid", "unsubscribe_token"): gettext_lazy(
        "This unsubscribe link is not valid: copy the whole link from the e-mail."
    ),
    # Anonymous writes that send e-mail, beyond their rate (scoring/rates.py).
    ("throttled", "signup_address"): gettext_lazy(
        "Too many accounts were asked for from your address: wait %(wait)s and try again."
    ),
    ("throttled", "signup_email"): gettext_lazy(
        "Too many accounts were asked for %(value)s: wait %(wait)s and try again."
    ),
    ("throttled", "invitation_address"): gettext_lazy(
        "Too many invitations were answered from your address: wait %(wait)s and try again."
    ),
    ("throttled", "invitation"): gettext_lazy(
        "This invitation was tried too often: wait %(wait)s and try again."
    ),
    ("throttled", "club_account"): gettext_lazy(
        "Your account started too many clubs: wait %(wait)s and try again."
    ),
    # A hand typed for seats that changed since (services.record_hand, ``seating``).
    ("seating_changed", "replaced"): gettext_lazy(
        "The players changed after this hand was typed: %(new)s replaced %(old)s at this table."
    ),
    ("seating_changed", "swapped"): gettext_lazy(
        "The players changed after this hand was typed: %(a)s and %(b)s swapped seats."
    ),
    ("seating_changed", "left"): gettext_lazy(
        "The players changed after this hand was typed: %(old)s left this table."
    ),
    ("seating_changed", "joined"): gettext_lazy(
        "The players changed after this hand was typed: %(new)s joined this table."
    ),
    ("seating_changed", "reseated"): gettext_lazy(
        "The players changed after this hand was typed: the table is now %(players)s."
    ),
}

#: Sentences for a code on one field (``points.*``: any key under ``points``).
FIELDS = {
    ("players", "range"): gettext_lazy(
        "This game is played by %(min)s to %(max)s players, not %(value)s."
    ),
    ("players", "type"): gettext_lazy("Players: give the list of the players, in seat order."),
    ("status", "inconsistent"): gettext_lazy(
        "The document says the game is %(value)s, but its hands make it %(expected)s."
    ),
    ("time_zone", "choice"): gettext_lazy("%(value)s is not a known time zone."),
    ("email", "invalid"): gettext_lazy("%(value)s is not an e-mail address."),
    ("abandon_reason", "not_allowed"): gettext_lazy(
        "Only an abandoned game has a reason for being abandoned."
    ),
    # Two phones at a table, confirmation by the table (scoring.services.confirmations).
    ("number", "already_entered"): gettext_lazy(
        "Hand %(number)s was just entered from another phone: it is in the history now."
    ),
    ("seat", "same_side"): gettext_lazy(
        "%(value)s is on the side that entered this hand: a player of another side must check it."
    ),
    ("number", "rejected"): gettext_lazy(
        "Hand %(number)s was rejected: correct it first, then it is checked again."
    ),
    ("number", "accepted"): gettext_lazy(
        "Hand %(number)s was already accepted: correct it if it is wrong."
    ),
}


#: Seat-valued messages as a page shows them, with the players' names instead of seat numbers.
NAMED = {
    "not_a_seat": gettext_lazy("%(field)s: choose one of the players."),
    "sitting_out": gettext_lazy(
        "%(value)s deals and sits out this hand, so cannot be chosen here."
    ),
    "wrong_dealer": gettext_lazy(
        "%(expected)s must deal this hand (the deal passes in turn), not %(value)s."
    ),
    "duplicate_seat": gettext_lazy("%(value)s appears twice."),
    "missing_seat": gettext_lazy("%(field)s: nothing was entered for %(seats)s."),
}
SEAT_PARAMS = {"value", "expected", "seats"}


def _show(value: Any) -> str:
    """A value as JSON writes it (true, null), a list as its values joined by commas."""
    if isinstance(value, tuple | list):
        return ", ".join(_show(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def quoted(value: Any) -> str:
    return gettext("“%(key)s”") % {"key": _show(value)}


def field_name(path: str) -> str:
    """A field path in words: its name in ``LABELS`` (whole, head or last part), else the key as
    it was sent, in quotes."""
    head = path.split(".")[0].split("[")[0]
    for key in (path, head, path.split(".")[-1].split("[")[0]):
        if key in LABELS:
            return str(LABELS[key])
    return quoted(path)


def _template(problem: Problem) -> Any:
    """The most specific sentence the catalog has for ``problem``, or None."""
    code, field_ = problem.code, problem.field
    template = REASONS.get((code, problem.params.get("reason")))
    if template is None:
        template = FIELDS.get((field_, code))
    if template is None and "." in field_:
        template = FIELDS.get((field_.split(".")[0] + ".*", code))
    if template is None and code in PLURALS:
        template = PLURALS[code][1]
    return template if template is not None else TEMPLATES.get(code)


def duration(seconds: int) -> str:
    """A wait in words: seconds under two minutes, minutes (rounded up) above."""
    if seconds < 120:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def message(problem: Problem, *, label: str | None = None, names: list[str] | None = None) -> str:
    """The problem as a sentence in the active language. A page passes the field's ``label``
    and the players' ``names`` so that nobody reads field keys or seat numbers."""
    template = _template(problem)
    if names is not None and problem.code in NAMED:
        template = NAMED[problem.code]
    if template is None:  # a code this module does not know yet: still say where and what
        return f"{problem.field}: {problem.code}"
    params = {key: _show(value) for key, value in problem.params.items()}
    if problem.code in {"throttled", "reset_throttled"}:
        params["wait"] = duration(int(problem.params.get("wait", 0)))
    if problem.code in PLURALS:
        counted = problem.params.get(PLURALS[problem.code][0], ())
        if isinstance(counted, tuple | list):
            params["count"] = len(counted)
        else:
            params["count"] = counted if isinstance(counted, int) else 1
    # Seat numbers become the players' names only where the code's value is a seat (not in
    # "Penalty: enter a number from 5 to 420, not 3.").
    if problem.code == "choice":  # the values to send, as they must be written
        params["choices"] = ", ".join(quoted(c) for c in problem.params.get("choices", ()))
        params["value"] = quoted(problem.params.get("value"))
    if names is not None and problem.code in NAMED:
        for key in SEAT_PARAMS & set(problem.params):
            value = problem.params[key]
            seats = value if isinstance(value, tuple | list) else (value,)
            if all(isinstance(s, int) and 0 <= s < len(names) for s in seats):
                params[key] = ", ".join(names[s] for s in seats)
    params["field"] = str(label) if label else field_name(problem.field)
    if "other" in params and problem.code == "conflict":
        params["other"] = field_name(str(problem.params["other"]))
    if "expected" in problem.params and problem.params["expected"] in EXPECTED:
        params["expected"] = str(EXPECTED[problem.params["expected"]])
    try:
        return str(template % params)
    except KeyError:
        return f"{problem.field}: {problem.code}"


def as_errors(problems) -> list[dict[str, Any]]:
    """The API / ``--json`` shape: ``[{"hand", "field", "code", "message"}, ...]``."""
    return [problem.as_dict() | {"message": message(problem)} for problem in problems]


def error(code: str, text: Any, *, field: str | None = None, **extra: Any) -> dict[str, Any]:
    """One error of the shape every refusal has, for a sentence already made."""
    return {"hand": None, "field": field, "code": code, "message": str(text)} | extra


def refusal(code: str, text: Any, *, field: str | None = None, **extra: Any) -> dict[str, Any]:
    """The body of a refusal with one error: ``{"errors": [{"hand", "field", "code",
    "message"}]}``, the same for the API and for the pages' JSON answers (the outbox)."""
    return {"errors": [error(code, text, field=field, **extra)]}


def register(*, reasons=None, fields=None, plurals=None, templates=None) -> None:
    """Add an app's sentences to the catalog. A key already there is a mistake (two apps
    wording the same refusal differently) and fails loudly."""
    for catalog, entries in (
        (REASONS, reasons),
        (FIELDS, fields),
        (PLURALS, plurals),
        (TEMPLATES, templates),
    ):
        for key, value in (entries or {}).items():
            if key in catalog and catalog[key] is not value:
                raise ValueError(f"the message catalog already has {key!r}")
            catalog[key] = value
