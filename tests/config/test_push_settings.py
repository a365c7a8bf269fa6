"""Web Push's settings (config/push.py): off with no keys, on with a matching pair, and a bad
value stops the start naming the variable."""

from __future__ import annotations

import environ
import pytest

from config.push import new_keys, vapid


class Refused(Exception):
    pass


def refuse(problem: str):
    raise Refused(problem)


def read(monkeypatch, **values):
    for name in ("VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return vapid(environ.Env(), refuse, "Segnapunti <desk@club.example>")


def test_no_keys_is_web_push_off_with_the_senders_address_as_subject(monkeypatch):
    assert read(monkeypatch) == ("", "", "mailto:desk@club.example")


def test_a_matching_pair_is_taken_as_given(monkeypatch):
    public, private = new_keys()
    got = read(monkeypatch, VAPID_PUBLIC_KEY=public + "=", VAPID_PRIVATE_KEY=private)
    assert got == (public, private, "mailto:desk@club.example")


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"VAPID_PUBLIC_KEY": "B" * 87}, "go together"),
        ({"VAPID_PRIVATE_KEY": "x"}, "go together"),
        ({"VAPID_PUBLIC_KEY": "B" * 87, "VAPID_PRIVATE_KEY": "!!"}, "VAPID_PRIVATE_KEY must be"),
        ({"VAPID_PUBLIC_KEY": "B" * 87, "VAPID_PRIVATE_KEY": "AAAA"}, "VAPID_PRIVATE_KEY must be"),
        ({"VAPID_PUBLIC_KEY": new_keys()[0], "VAPID_PRIVATE_KEY": new_keys()[1]}, "not the public"),
        ({"VAPID_SUBJECT": "desk@club.example"}, "VAPID_SUBJECT must be"),
    ],
    ids=["public-alone", "private-alone", "not-base64", "short", "other-pair", "subject"],
)
def test_a_bad_value_stops_the_start_naming_it(monkeypatch, values, words):
    with pytest.raises(Refused, match=words):
        read(monkeypatch, **values)
