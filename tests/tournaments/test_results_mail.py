"""Each player's results e-mailed after a round closes and at the end: once, in their language,
with both parts and a working unsubscribe link; none to a player who opted out or has no
address."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.utils import formats, translation

from scoring import services as scoring
from scoring.models import AuditEvent, Player
from scoring.services import Actor
from tests.concurrency import race
from tournaments import services, tasks
from tournaments.models import ResultsMail
from tournaments.selectors.standings import standings_of

from .helpers import enter, make_competition, play, terziglio_won_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, olga):
    return make_night(club, olga)


def make_night(club, olga):
    """Four players at one Terziglio table: Anna (Italian), Bruno (French), Carla (opted
    out), Dario (no address); a round published, its game won by seat 1."""
    by = Actor.for_user(olga)
    competition = make_competition(club, olga, planned_rounds=2)
    entries = enter(competition, olga, 4)
    anna, bruno, carla, dario = (e.player for e in entries)
    scoring.update_player(player=anna, by=by, email="anna@example.org", language="it")
    scoring.update_player(player=bruno, by=by, email="bruno@example.org", language="fr")
    scoring.update_player(player=carla, by=by, email="carla@example.org", results_by_email=False)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    services.publish_round(round_=round_, by=by)
    (table,) = round_.tables.select_related("game")
    play(table.game, terziglio_won_by(1, 4), olga)
    mail.outbox.clear()
    return competition, round_, (anna, bruno, carla, dario)


def close(round_, olga, capture):
    with capture(execute=True):
        services.close_round(round_=round_, by=Actor.for_user(olga))


def by_address(outbox) -> dict[str, EmailMultiAlternatives]:
    return {message.to[0]: message for message in outbox}


def test_each_player_with_an_address_gets_one_email_in_their_language(
    night, olga, django_capture_on_commit_callbacks
):
    competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    sent = by_address(mail.outbox)
    assert sorted(sent) == ["anna@example.org", "bruno@example.org"]  # not Carla, not Dario
    italian, french = sent["anna@example.org"], sent["bruno@example.org"]
    assert "Turno 1" in italian.body and "Classifica" in italian.body
    assert "Posizione" in italian.body and "Anna (tu)" in italian.body
    assert "Tour 1" in french.body and "Classement" in french.body
    assert "Rang" in french.body and "Bruno (vous)" in french.body
    for message in (italian, french):
        assert competition.name in message.subject
        # The table: every seat's name, the opponents included, and the scores.
        for name in ("Anna", "Bruno", "Carla", "Dario"):
            assert name in message.body
        ((html, kind),) = message.alternatives
        assert kind == "text/html" and "<table>" in html and "Dario" in html
        assert "/p/uno/torneo/" in message.body  # the competition's public page
        link = message.extra_headers["List-Unsubscribe"]
        assert link.startswith("<http") and "/unsubscribe/" in link
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert ResultsMail.objects.filter(round=round_).count() == 2


def test_the_email_says_the_players_own_rank_and_points(
    night, olga, django_capture_on_commit_callbacks
):
    _competition, round_, (anna, bruno, _c, _d) = night
    close(round_, olga, django_capture_on_commit_callbacks)
    from tournaments import selectors  # the standings the e-mail must agree with

    rows = {
        row["name"]: row for row in selectors.standings_of(round_.competition)["tables"][0]["rows"]
    }
    sent = by_address(mail.outbox)
    for player, address, rank_word in ((anna, "anna@example.org", "Posizione"),
                                       (bruno, "bruno@example.org", "Rang")):  # fmt: skip
        row = rows[player.display_name]
        assert f"{rank_word} {row['rank']} · " in sent[address].body
        with translation.override(player.language):
            points = formats.localize(row["points"])
        assert f" {points}\n" in sent[address].body


def test_the_unsubscribe_link_works_without_login_and_then_no_email_comes(
    night, olga, client, django_capture_on_commit_callbacks
):
    competition, round_, (anna, *_rest) = night
    close(round_, olga, django_capture_on_commit_callbacks)
    body = by_address(mail.outbox)["anna@example.org"].body
    path = re.search(r"https?://[^/\s]+(/unsubscribe/[^\s]+/)", body).group(1)
    page = client.get(path)
    assert page.status_code == 200 and b"<form" in page.content
    anna.refresh_from_db()
    assert anna.results_by_email  # looking is not unsubscribing
    done = client.post(path)
    assert done.status_code == 200 and 'role="status"' in done.content.decode()
    anna.refresh_from_db()
    assert not anna.results_by_email
    assert AuditEvent.objects.filter(action="update_player", club=competition.club).exists()
    again = client.get(path)
    assert "already unsubscribed" in again.content.decode().replace("\n", " ")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=Actor.for_user(olga))
    assert [m.to for m in mail.outbox] == [["bruno@example.org"]]


def test_a_one_click_post_from_a_mail_program_unsubscribes_without_a_csrf_token(
    night, olga, django_capture_on_commit_callbacks
):
    from django.test import Client

    _competition, round_, (anna, *_rest) = night
    close(round_, olga, django_capture_on_commit_callbacks)
    link = by_address(mail.outbox)["anna@example.org"].extra_headers["List-Unsubscribe"]
    path = re.search(r"https?://[^/]+(/unsubscribe/[^>]+)>", link).group(1)
    answer = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    anna.refresh_from_db()
    assert not anna.results_by_email


def test_a_forged_unsubscribe_token_is_refused_and_changes_nothing(night, client):
    _competition, _round, (anna, *_rest) = night
    from scoring.links import unsubscribe_token

    forged = unsubscribe_token(anna.pk)[:-3] + "abc"
    for answer in (client.get(f"/unsubscribe/{forged}/"), client.post(f"/unsubscribe/{forged}/")):
        assert answer.status_code == 400
        assert "not valid" in answer.content.decode()
    anna.refresh_from_db()
    assert anna.results_by_email


def test_closing_again_and_running_the_task_twice_send_once(
    night, olga, django_capture_on_commit_callbacks
):
    _competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 2
    assert tasks.mail_round_results(round_.pk) == 0
    assert tasks.mail_round_results.apply((round_.pk,)).get() == 0
    assert len(mail.outbox) == 2


def test_a_sending_that_fails_is_sent_by_the_retry_and_only_once(
    night, olga, django_capture_on_commit_callbacks
):
    _competition, round_, _players = night
    real_send = EmailMultiAlternatives.send
    calls = {"n": 0}

    def flaky(message, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("SMTP server went away")
        return real_send(message, *args, **kwargs)

    with mock.patch.object(EmailMultiAlternatives, "send", flaky), pytest.raises(OSError):
        close(round_, olga, django_capture_on_commit_callbacks)
    # The first went out and is recorded; the second was rolled back with its record.
    assert len(mail.outbox) == 1 and ResultsMail.objects.filter(round=round_).count() == 1
    assert tasks.mail_round_results(round_.pk) == 1
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "bruno@example.org"]


def test_a_players_account_address_is_used_when_they_have_none_of_their_own(
    night, olga, django_user_model, django_capture_on_commit_callbacks
):
    _competition, round_, (_a, _b, _c, dario) = night
    dario.user = django_user_model.objects.create_user("dario", email="dario@example.org")
    dario.save(update_fields=["user"])
    close(round_, olga, django_capture_on_commit_callbacks)
    assert "dario@example.org" in by_address(mail.outbox)


def test_the_final_email_lists_the_final_standings_and_no_prizes_section_without_prizes(
    night, olga, django_capture_on_commit_callbacks
):
    competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=Actor.for_user(olga))
    sent = by_address(mail.outbox)
    assert sorted(sent) == ["anna@example.org", "bruno@example.org"]
    italian = sent["anna@example.org"]
    assert "Classifica" in italian.subject or "Classifica" in italian.body
    lines = [line for line in italian.body.splitlines() if re.match(r"^\d+\. ", line)]
    assert len(lines) == 4  # every entry, ranked
    assert any("Anna (tu)" in line for line in lines)
    assert "Prizes" not in italian.body and "Premi" not in italian.body
    ((html, _kind),) = italian.alternatives
    assert html.count("<tr>") == 5  # a header and four entries
    # Declared final again after a reopening: nobody gets it twice.
    by = Actor.for_user(olga)
    services.reopen_competition(competition=competition, by=by, reason="typo")
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=by)
    assert len(mail.outbox) == 2


def test_the_final_email_shows_the_prizes_when_there_are_some(
    night, olga, django_capture_on_commit_callbacks
):
    """The prize list of the competition (services.add_prize), as the final standings award
    it, in each player's language."""
    from tournaments.selectors.prizes import awarded

    competition, round_, _players = night
    close(round_, olga, django_capture_on_commit_callbacks)
    services.add_prize(competition=competition, rank=1, amount_cents=5000, by=Actor.for_user(olga))
    winner = awarded(competition)[0]["name"]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=Actor.for_user(olga))
    letters = by_address(mail.outbox)
    assert letters
    for message in letters.values():
        assert winner in message.body and "50" in message.body
        assert f"{winner}" in message.alternatives[0][0]
    assert "posto 1" in letters["anna@example.org"].body  # Italian
    assert "place 1" in letters["bruno@example.org"].body  # French: « place 1 »


def test_a_player_without_address_or_opted_out_gets_nothing_even_when_the_task_runs_again(
    night, olga, django_capture_on_commit_callbacks
):
    _competition, round_, (_a, _b, carla, dario) = night
    close(round_, olga, django_capture_on_commit_callbacks)
    tasks.mail_round_results(round_.pk)
    addresses = [m.to[0] for m in mail.outbox]
    assert "carla@example.org" not in addresses
    assert not ResultsMail.objects.filter(player__in=[carla, dario]).exists()
    assert Player.objects.get(pk=carla.pk).email == "carla@example.org"


@pytest.mark.django_db(transaction=True)
def test_two_runs_of_the_task_at_once_send_each_player_one_email(night, olga):
    """Real commits (PostgreSQL with ``DATABASE_URL``): the second run waits on the first's
    ``ResultsMail`` row and skips what it sent."""
    _competition, round_, _players = night
    with mock.patch.object(tasks.mail_round_results, "apply"):  # closed, nothing sent yet
        services.close_round(round_=round_, by=Actor.for_user(olga))
    assert mail.outbox == []
    runs = race(*[(lambda: None, lambda _: tasks.mail_round_results(round_.pk))] * 2)
    assert sorted(outcome for outcome, _ in runs) == ["done", "done"]
    assert sum(sent for _, sent in runs) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "bruno@example.org"]


def test_the_unsubscribe_page_speaks_the_players_language(night, client):
    _competition, _round, (anna, bruno, *_rest) = night
    from scoring.links import unsubscribe_token

    italian = client.get(f"/unsubscribe/{unsubscribe_token(anna.pk)}/", HTTP_ACCEPT_LANGUAGE="")
    assert '<html lang="it"' in italian.content.decode()
    french = client.get(f"/unsubscribe/{unsubscribe_token(bruno.pk)}/", HTTP_ACCEPT_LANGUAGE="")
    assert '<html lang="fr"' in french.content.decode()


def test_the_final_email_writes_labels_money_and_points_in_the_readers_language(
    night, olga, django_capture_on_commit_callbacks
):
    """Issue 32, point 8: the Italian final e-mail said "Overall", "€50.00" and "1 punti" (the
    prize line was made in the task's language, and "points" had no singular)."""
    competition, round_, (anna, bruno, _carla, _dario) = night
    close(round_, olga, django_capture_on_commit_callbacks)
    services.add_prize(competition=competition, rank=1, amount_cents=5000, by=Actor.for_user(olga))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.finalize_competition(competition=competition, by=Actor.for_user(olga))
    letters = by_address(mail.outbox)
    italian, french = letters["anna@example.org"].body, letters["bruno@example.org"].body
    assert "Generale, posto 1:" in italian and "50,00\xa0€" in italian
    assert "Overall" not in italian and "€50.00" not in italian
    assert "Général, place 1\xa0:" in french or "Général, place 1 :" in french
    assert "50,00\xa0€" in french or "50,00\u202f€" in french
    rows = {row["entry"]: row for row in standings_of(competition)["tables"][0]["rows"]}
    points = {e.player_id: rows[e.pk]["points"] for e in competition.entries.all()}
    for player, body, language in ((anna, italian, "it"), (bruno, french, "fr")):
        value = points[player.pk]
        with translation.override(language):
            shown = formats.localize(value)
        # Italian's singular is 1 alone; French's covers what is below 2 ("0,5 point").
        one = value == 1 if language == "it" else abs(value) < 2
        word = {"it": ("punto", "punti"), "fr": ("point", "points")}[language][0 if one else 1]
        assert f" {shown} {word}." in body.split("\n\n", 2)[1], body


@pytest.mark.parametrize(
    ("language", "points", "line"),
    [
        ("it", 1, "Il tuo posto finale: 4, con 1 punto."),
        ("it", 3, "Il tuo posto finale: 4, con 3 punti."),
        ("it", 1.5, "Il tuo posto finale: 4, con 1,5 punti."),
        ("fr", 1, "Votre place finale : 4, avec 1 point."),
        # French's singular covers what is below 2 (issue 32, point 8: "0,5 point").
        ("fr", 0.5, "Votre place finale : 4, avec 0,5 point."),
        ("fr", 1.5, "Votre place finale : 4, avec 1,5 point."),
        ("fr", 2.5, "Votre place finale : 4, avec 2,5 points."),
        ("it", 0.5, "Il tuo posto finale: 4, con 0,5 punti."),
        ("en", 1, "Your final place: 4, with 1 point."),
        ("en", 0.5, "Your final place: 4, with 0.5 points."),
        ("en", 2.5, "Your final place: 4, with 2.5 points."),
    ],
)
def test_the_final_emails_place_says_point_or_points_in_the_readers_number_format(
    night, olga, language, points, line
):
    from django.template.loader import render_to_string

    from tournaments.selectors.results_mail import _letter, _standing

    competition, _round, (anna, *_others) = night
    scoring.update_player(player=anna, by=Actor.for_user(olga), language=language)
    anna.refresh_from_db()
    letter = _letter(anna, competition.club, _standing({"rank": 4, "points": points, "nights": []}))
    context = letter.context | {
        "standings": [],
        "prizes": [],
        "competition": competition,
        "club": competition.club,
        "page_url": "",
        "unsubscribe_url": "",
    }
    assert letter.language == language
    with translation.override(letter.language):
        assert line in render_to_string("tournaments/mail/final_results.txt", context)
