"""The table flow reads in French and Italian, with no English left over.

Every page a table goes through (start a game, the game page and its hand form for every game,
its history, a correction, the table card and the table link's PIN page) and every refusal of
every game's rules is rendered in ``fr`` and ``it`` while the translation machinery records each
message looked up. It fails on

* a message with no translation (or one left identical to the English, unless it is a proper name
  or has no words: "Terziglio", "%(a)s–%(b)s");
* a piece of text of the English page found unchanged in the French or Italian page, other than
  names (players, club, games) and numbers: words that never went through gettext at all.
"""

import json
import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import trans_real

from scoring import demo, services
from scoring.messages import message
from scoring.models import TableLink
from scoring.rules import RULESETS, RuleViolation
from scoring.services import Actor

pytestmark = pytest.mark.django_db

LANGUAGES = ("fr", "it")

#: Words that are the same in every language: the product, games and Italian card terms,
#: abbreviations. Player and club names are added by the tests.
PROPER = {
    "Segnapunti",
    "Terziglio",
    "Calabrasella",
    "Briscola",
    "Briscola chiamata",
    "Chiamo",
    "Solo",
    "Solissimo",
    "Solissimo dividete",
    "Solissimo scegliete",
    "Cappotto",
    "famiglia Prini",
    "EN",
    "FR",
    "IT",
    "PIN",
    "JSON",
    "API",
    "QR",
    "Segnapunti · Circolo Uno",
}
#: Words that read the same in English and in French or Italian.
SAME = {"No", "Offline", "Standard", "Solo", "points", "Points", "Version", "figures", "Olga"}
#: Messages whose translation is rightly the English text.
SAME_MESSAGES = {
    "fr": {"%(points)s points", "Points", "Version %(version)s", "Options", "Contact"},
    "it": {"Email", "Offline", "Standard"},
}
NAMES = {"Anna", "Bruno", "Carla", "Dario", "Extra 0", "Extra 1", "Circolo Uno", "olga"}


class Recorder:
    """Every message id looked up while it is on, with the language it was looked up in."""

    def __init__(self, monkeypatch):
        self.seen: set[tuple[str, str, str | None]] = set()
        original_gettext = trans_real.DjangoTranslation.gettext
        original_ngettext = trans_real.DjangoTranslation.ngettext
        recorder = self

        def gettext(self, message):
            recorder.seen.add((self.to_language(), message, None))
            return original_gettext(self, message)

        def ngettext(self, singular, plural, number):
            recorder.seen.add((self.to_language(), singular, plural))
            return original_ngettext(self, singular, plural, number)

        monkeypatch.setattr(trans_real.DjangoTranslation, "gettext", gettext)
        monkeypatch.setattr(trans_real.DjangoTranslation, "ngettext", ngettext)

    def untranslated(self) -> list[str]:
        missing = []
        for language, singular, plural in sorted(self.seen, key=str):
            if language not in LANGUAGES or not singular:
                continue
            catalog = trans_real.translation(language)
            values = {v for part in catalog._catalog._catalogs for v in part.values()}
            if singular in values:
                continue  # a translation translated again (Django's language names)
            if plural is None:
                text = catalog._catalog.get(singular)
                same = text == singular
            else:
                count = 3 if language == "fr" else 2  # the plural forms of the language
                forms = [catalog._catalog.get((singular, i)) for i in range(count)]
                text = None if None in forms or "" in forms else forms[0]
                same = forms[0] == singular or forms[-1] == plural
            if same and singular in SAME_MESSAGES.get(language, ()):
                continue
            if text is None or text == "" or (same and not exempt(singular)):
                missing.append(f"{language}: {singular!r}")
        return missing


def exempt(msgid: str) -> bool:
    """A message that may read the same in every language: a proper name, or no words."""
    if msgid in PROPER:
        return True
    words = re.sub(r"%\(\w+\)[sd]|\{\{?\s*\w+\s*\}?\}|%[sd]", "", msgid)
    return not re.search(r"[A-Za-z]{2,}", words)


class TextOf(HTMLParser):
    """The text a person reads on a page: text nodes and the words of some attributes."""

    ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-template"}

    def __init__(self):
        super().__init__()
        self.pieces: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        # The outbox's sentences travel in the data attributes of its status line.
        outbox = ("id", "outbox-status") in attrs
        for name, value in attrs:
            if value and (name in self.ATTRIBUTES or (outbox and name.startswith("data-"))):
                self.add(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.add(data)

    def add(self, text: str) -> None:
        text = re.sub(r"%\(\w+\)s|https?://\S+", " ", text)
        for piece in re.split(r"\s*(?:·|\n|:|\(|\)|—|–|,|\+)\s*", text):
            piece = piece.strip(" .°?!“”\"'")
            if "/" in piece or re.fullmatch(r".* #\d+", piece):  # an address; a game's number
                continue
            if re.search(r"[A-Za-z]{2,}", piece):
                self.pieces.append(piece)


def text_of(html: str) -> set[str]:
    parser = TextOf()
    parser.feed(html)
    return set(parser.pieces)


def leftovers(english: str, other: str) -> set[str]:
    """Pieces of the English page found unchanged on the other one, names aside."""
    allowed = PROPER | NAMES | SAME
    same = text_of(english) & text_of(other)
    return {
        piece
        for piece in same
        if piece not in allowed
        and not re.fullmatch(r"[\W\d_]*|/[\w/.-]*|https?://\S+|[\w.-]+\.(?:css|js|json)", piece)
        and not all(word in allowed or word.isdigit() for word in re.split(r"\s+", piece))
    }


def client_in(language: str, user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def games(club, players, olga):
    """A game of every ruleset at its ideal table, with a few demo hands."""
    by = Actor.for_user(olga)
    made = {}
    for key, rules in RULESETS.items():
        n = min(rules.ideal_seats, len(players))
        n = max(n, rules.min_seats)
        seated = players[:n] if n <= len(players) else None
        if seated is None:
            extra = [
                services.add_player(club=club, display_name=f"Extra {i}", by=by)
                for i in range(n - len(players))
            ]
            seated = players + extra
        game = services.start_game(club=club, ruleset=key, players=seated, by=by)
        options = rules.resolve_options({}, n)
        plan = demo.Plan(key, (), "contract", finish=False, hands=2)
        _docs, replayed = demo.deal_once(key, options, n, random.Random(6), plan)
        for hand in replayed.hands[:2]:
            services.record_hand(game=game, document=dict(hand.document), by=by)
        game.refresh_from_db()
        made[key] = game
    return made


def pages(games) -> list[str]:
    """The table flow: every page a table goes through, for every game."""
    urls = ["/c/uno/games/new/"]
    for game in games.values():
        urls += [f"/g/{game.pk}/", f"/g/{game.pk}/hands/1/", f"/g/{game.pk}/table/"]
    return urls


def test_every_page_of_the_table_flow_is_translated(monkeypatch, olga, games):
    recorder = Recorder(monkeypatch)
    found: dict[str, set[str]] = {}
    link = TableLink.objects.filter(game__in=games.values()).first()
    for url in pages(games):
        english = client_in("en", olga).get(url)
        assert english.status_code == 200, url
        for language in LANGUAGES:
            other = client_in(language, olga).get(url)
            assert other.status_code == 200
            left = leftovers(english.content.decode(), other.content.decode())
            if left:
                found[f"{language} {url}"] = left
    # The table link's PIN page, seen by a phone that is not logged in.
    english = client_in("en").get(f"/t/{link.token}/").content.decode()
    for language in LANGUAGES:
        other = client_in(language).get(f"/t/{link.token}/").content.decode()
        if left := leftovers(english, other):
            found[f"{language} PIN page"] = left
    assert not found, json.dumps({k: sorted(v) for k, v in found.items()}, indent=1)
    assert not recorder.untranslated(), recorder.untranslated()


def broken_documents(document: dict[str, Any]) -> list[Any]:
    """Ways to get a hand wrong, made from a right one: every key missing, of the wrong type,
    out of range, emptied; a key too many; not an object at all."""
    broken: list[Any] = [[], {}, {**document, "surprise": 1}]
    for key, value in document.items():
        broken.append({k: v for k, v in document.items() if k != key})
        broken.append({**document, key: "x"})
        broken.append({**document, key: 999})
        broken.append({**document, key: -1})
        if isinstance(value, list):
            broken.append({**document, key: value[:-1]})
            broken.append({**document, key: [*value, value[-1]]})
            broken.append({**document, key: [999 for _ in value]})
            broken.append({**document, key: [1 for _ in value]})
            broken.append({**document, key: [10 for _ in value]})
            if value and isinstance(value[0], dict):
                for inner in value[0]:
                    first = {**value[0], inner: 999}
                    broken.append({**document, key: [first, *value[1:]]})
                    broken.append({**document, key: [value[0], *value]})
        if isinstance(value, dict):
            for inner in value:
                broken.append({**document, key: {**value, inner: 999}})
                broken.append({**document, key: {**value, inner: "x"}})
                broken.append({**document, key: {k: v for k, v in value.items() if k != inner}})
    return broken


def test_every_refusal_of_every_game_reads_in_french_and_italian(monkeypatch, olga, games):
    recorder = Recorder(monkeypatch)
    by = Actor.for_user(olga)
    problems = []
    for game in games.values():
        names = [seat.player.display_name for seat in game.seats.order_by("index")]
        document = dict(game.hands.order_by("number").first().document)
        for bad in broken_documents(document):
            try:
                services.record_hand(game=game, document=bad, by=by)
            except RuleViolation as refused:
                problems += [(p, names) for p in refused.problems]
            else:  # pragma: no cover - a broken document the rules accepted
                game.hands.order_by("-number").first().delete()
    # Starting a game with too few players, and with an unknown preset.
    for players in ([], ["Anna", "Anna"]):
        try:
            services.start_game(
                club=games["terziglio"].club,
                ruleset="terziglio",
                players=players,
                by=by,
                options={"preset": "nope"},
            )
        except RuleViolation as refused:
            problems += [(p, None) for p in refused.problems]
    codes = {p.code for p, _names in problems}
    assert {"required", "type", "range", "unknown_key", "sum"} <= codes, codes
    wrong = []
    for problem, names in problems:
        for seat_names in (None, names):
            with translation.override("en"):
                english = message(problem, names=seat_names)
            assert not re.search(r"\b(True|False|None)\b", english), english
            # No machine key, but the values to send, quoted.
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", re.sub("“[^”]*”", "", english)), english
            for language in LANGUAGES:
                with translation.override(language):
                    text = message(problem, names=seat_names)
                if text == english or leftovers(english, text):
                    wrong.append(f"{language}: {english} -> {text}")
    assert not wrong, "\n".join(sorted(set(wrong)))
    assert not recorder.untranslated(), recorder.untranslated()
