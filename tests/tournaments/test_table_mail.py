"""Who is e-mailed about a registration and a table (issue 32, point 3): every entrant with an
address gets their table on publish and after a change that moves them, account or not, in the
language their registration was made in; the partner of a pair promoted from the waiting list is
told too; the organizer's withdrawal asks first and tells the registrant and partner. Nobody gets
an e-mail twice."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from registration import services as registration_services
from registration.models import Registration, RegistrationStatus
from scoring.services import Actor
from tests.clients import login
from tests.registration import test_registration as service_tests
from tests.registration.test_registration import ANON, open_for, token_in
from tests.tournaments.helpers import make_competition, tables_of
from tournaments import services
from tournaments.models import EntryStatus

pytestmark = pytest.mark.django_db

mails_now = service_tests.mails_now

#: The subject of the table e-mail of round 1 of "Coppie", by language.
SUBJECTS = {"en": "Coppie: round 1", "fr": "Coppie\u00a0: tour 1", "it": "Coppie: turno 1"}


@pytest.fixture
def coppie(club, olga):
    """A Briscola pairs Swiss of two tables (four pairs), a waiting list, table e-mails on."""
    competition = make_competition(
        club,
        olga,
        name="Coppie",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
        format="swiss",
        notify_entrants=True,
    )
    open_for(competition, olga, capacity=2, unit="tables")
    return competition


def pair(competition, name, partner, language) -> Registration:
    """A pair without accounts registers (in ``language``), and both confirm by their links."""
    mail.outbox.clear()
    registration = registration_services.register(
        competition=competition,
        by=ANON,
        name=name,
        email=f"{name.lower()}@example.org",
        partner_name=partner,
        partner_email=f"{partner.lower()}@example.org",
        language=language,
    )
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration.refresh_from_db()
    return registration


def addressed(outbox=None) -> list[str]:
    return sorted(m.to[0] for m in (mail.outbox if outbox is None else outbox))


def publish(competition, olga, django_capture_on_commit_callbacks):
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=1)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.publish_round(round_=round_, by=by)
    return round_


def test_a_registration_is_mailed_in_its_own_language_and_its_players_take_it(coppie):
    anna = pair(coppie, "Anna", "Bruno", "fr")
    assert anna.language == "fr" and anna.status == RegistrationStatus.ENTERED
    # Each e-mail in French although the club is Italian: both confirmations, "registered".
    confirm, partner, registered = mail.outbox
    assert confirm.subject == "Confirmez votre inscription à Coppie"
    assert partner.to == ["bruno@example.org"]
    assert partner.subject == "Confirmez votre paire pour Coppie"
    assert registered.to == ["anna@example.org"]
    assert registered.subject == "Vous êtes inscrit à Coppie"
    assert 'lang="fr"' in registered.alternatives[0][0]
    assert (anna.player.language, anna.partner.language) == ("fr", "fr")
    # A language the site does not speak: the club's.
    carla = pair(coppie, "Carla", "Dario", "de")
    assert carla.language == "" and carla.player.language == ""
    assert mail.outbox[-1].subject == "Sei iscritto a Coppie"


def test_the_public_form_keeps_the_language_the_registrant_reads(coppie):
    page = Client()
    page.cookies["django_language"] = "en"
    url = f"/p/{coppie.club.slug}/{coppie.slug}/register/"
    fields = {
        "name": "Anna",
        "email": "anna@example.org",
        "partner_name": "Bruno",
        "partner_email": "bruno@example.org",
    }
    assert page.post(url, fields).status_code == 200
    registration = Registration.objects.get(competition=coppie)
    assert registration.language == "en"
    (confirm,) = mail.outbox
    assert confirm.subject == "Confirm your registration for Coppie"


def test_every_address_gets_its_table_once_on_publish_in_its_registrations_language(
    coppie, olga, django_capture_on_commit_callbacks
):
    pair(coppie, "Anna", "Bruno", "fr")
    pair(coppie, "Carla", "Dario", "en")
    pair(coppie, "Elena", "Franco", "it")
    pair(coppie, "Gina", "Ugo", "")  # the club's (Italian)
    round_ = publish(coppie, olga, django_capture_on_commit_callbacks)
    everyone = [
        f"{n}@example.org"
        for n in ("anna", "bruno", "carla", "dario", "elena", "franco", "gina", "ugo")
    ]
    assert addressed() == sorted(everyone)
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects["anna@example.org"] == subjects["bruno@example.org"] == SUBJECTS["fr"]
    assert subjects["carla@example.org"] == subjects["dario@example.org"] == SUBJECTS["en"]
    assert subjects["elena@example.org"] == subjects["gina@example.org"] == SUBJECTS["it"]
    english = next(m for m in mail.outbox if m.to == ["carla@example.org"])
    assert english.body.startswith("You play at table ")
    # The recipient's table names the other pair, not their own.
    carla = Registration.objects.get(email="carla@example.org").entry
    (table,) = [t for t in tables_of(round_) if carla.pk in t]
    (other,) = [e for e in table if e != carla.pk]
    assert round_.competition.entries.get(pk=other).name in english.body
    assert "Carla" not in english.body.split(" with ", 1)[1]

    # A swap moves two pairs: the entries of both changed tables hear it, each address once.
    first, second = tables_of(round_)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_published(round_=round_, a=first[0], b=second[0], by=Actor.for_user(olga))
    assert addressed() == sorted(everyone)


def test_a_redraw_and_a_replacement_mail_those_moved_accounts_or_not(
    coppie, olga, django_capture_on_commit_callbacks, django_user_model
):
    for names in (("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gina", "Ugo")):
        pair(coppie, *names, "it")
    by = Actor.for_user(olga)
    round_ = publish(coppie, olga, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.redraw_tables(round_=round_, by=by, seed=7)
    moved = {e for t in tables_of(round_) for e in t}
    assert len(mail.outbox) == 2 * len(moved)
    assert len(set(addressed())) == len(addressed())
    # A late pair entered by the organizer, one of them with an account: both hear of their seat.
    late = services.add_entry(competition=coppie, player="Ivo", partner="Lia", by=by)
    late.player.user = django_user_model.objects.create_user("ivo", email="ivo@example.org")
    late.player.save()
    late.partner.email = "lia@example.org"
    late.partner.save()
    absent = tables_of(round_)[0][0]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_entry(round_=round_, absent=absent, late=late.pk, by=by)
    assert {"ivo@example.org", "lia@example.org"} <= set(addressed())
    assert len(set(addressed())) == len(addressed())


def test_an_address_shared_by_a_pair_gets_one_email(club, olga, django_capture_on_commit_callbacks):
    competition = make_competition(
        club,
        olga,
        name="Coppie",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
        format="swiss",
        notify_entrants=True,
    )
    by = Actor.for_user(olga)
    home = services.add_entry(competition=competition, player="Anna", partner="Bruno", by=by)
    for player in (home.player, home.partner):
        player.email = "casa@example.org"
        player.save()
    services.add_entry(competition=competition, player="Carla", partner="Dario", by=by)
    publish(competition, olga, django_capture_on_commit_callbacks)
    assert addressed() == ["casa@example.org"]


def test_the_partner_of_a_promoted_pair_is_told_too(coppie, olga):
    for names in (("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gina", "Ugo")):
        pair(coppie, *names, "it")
    waiting = pair(coppie, "Ivo", "Lia", "en")
    assert waiting.status == RegistrationStatus.WAITING
    mail.outbox.clear()
    registration_services.promote(registration=waiting, by=Actor.for_user(olga))
    assert addressed() == ["ivo@example.org", "lia@example.org"]
    ivo, lia = sorted(mail.outbox, key=lambda m: m.to[0])
    assert ivo.subject == "A place for you in Coppie" and "/r/" in ivo.body
    assert lia.subject == "A place for your pair in Coppie"
    assert "Hello Lia, a place came free in Coppie" in lia.body
    assert "you and Ivo are in" in lia.body
    assert "/r/" not in lia.body  # the registrant's own link is not the partner's
    assert f"/p/{coppie.club.slug}/{coppie.slug}/" in lia.body


def test_the_organizers_withdrawal_asks_first_then_mails_the_pair(coppie, olga):
    for names in (("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gina", "Ugo")):
        pair(coppie, *names, "it")
    waiting = pair(coppie, "Ivo", "Lia", "fr")
    anna = Registration.objects.get(email="anna@example.org")
    page = login(olga)
    url = f"/c/{coppie.club.slug}/k/{coppie.slug}/registration/"
    mail.outbox.clear()
    asked = page.post(url, {"action": "withdraw", "registration": anna.pk})
    assert asked.status_code == 200
    assert 'id="confirm-withdraw"' in asked.text
    assert "Withdraw Anna &amp; Bruno?" in asked.text
    assert "anna@example.org" in asked.text and "bruno@example.org" in asked.text
    assert 'name="confirmed" value="yes"' in asked.text
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.ENTERED and mail.outbox == []
    done = page.post(
        url, {"action": "withdraw", "registration": anna.pk, "confirmed": "yes", "reason": "flu"}
    )
    assert done.status_code == 302
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.WITHDRAWN
    assert anna.entry.status == EntryStatus.WITHDRAWN
    withdrawn = [m for m in mail.outbox if "ritirata" in m.subject]
    assert addressed(withdrawn) == ["anna@example.org", "bruno@example.org"]
    assert withdrawn[0].subject == "La tua iscrizione a Coppie è stata ritirata"
    # The place went to Ivo and Lia, told in French; nobody else heard anything.
    others = [m for m in mail.outbox if m not in withdrawn]
    assert addressed(others) == ["ivo@example.org", "lia@example.org"]
    assert {m.subject for m in others} == {
        "Une place pour vous à Coppie",
        "Une place pour votre paire à Coppie",
    }
    waiting.refresh_from_db()
    assert waiting.status == RegistrationStatus.ENTERED


def test_a_withdrawal_by_the_registrants_own_link_sends_no_withdrawal_mail(coppie):
    anna = pair(coppie, "Anna", "Bruno", "en")
    manage = token_in(mail.outbox[-1])
    mail.outbox.clear()
    registration_services.withdraw_registration(token=manage, by=ANON)
    anna.refresh_from_db()
    assert anna.status == RegistrationStatus.WITHDRAWN
    assert mail.outbox == []


def test_a_replacement_does_not_mail_a_withdrawn_pair_still_seated_at_the_table(
    coppie, olga, django_capture_on_commit_callbacks
):
    """Both pairs of a table are no-shows: replacing the first tells the late pair (and, had it
    one, the pair playing on), never the other withdrawn pair, who is not coming to play."""
    for names in (("Anna", "Bruno"), ("Carla", "Dario"), ("Elena", "Franco"), ("Gina", "Ugo")):
        pair(coppie, *names, "it")
    by = Actor.for_user(olga)
    round_ = publish(coppie, olga, django_capture_on_commit_callbacks)
    first, second = tables_of(round_)[0]
    for entry_id in (first, second):
        services.withdraw_entry(entry=coppie.entries.get(pk=entry_id), by=by, reason="no-show")
    gone = coppie.entries.get(pk=second)
    late = services.add_entry(competition=coppie, player="Ivo", partner="Lia", by=by)
    late.player.email, late.partner.email = "ivo@example.org", "lia@example.org"
    late.player.save()
    late.partner.save()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.replace_entry(round_=round_, absent=first, late=late.pk, by=by)
    assert addressed() == ["ivo@example.org", "lia@example.org"]
    assert gone.player.email not in addressed()
