"""Registration (issue 24, points 1 to 3): players register themselves, confirm by e-mailed
links, wait beyond capacity, withdraw by their link, and check in from their phones. Every
refusal is named; nothing is lost."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from registration import services as registration_services
from registration.models import Registration, RegistrationStatus
from registration.services import registration as registration_service
from scoring.models import Player
from scoring.rules import RuleViolation
from scoring.services import Actor, NotAllowed
from scoring.services.queue import enqueue
from tests.tournaments.helpers import codes, make_competition, tables_of
from tournaments import services
from tournaments.models import CheckIn, CompetitionEvent, Entry, EntryStatus

pytestmark = pytest.mark.django_db

ANON = Actor()


@pytest.fixture(autouse=True)
def mails_now(monkeypatch):
    """The e-mails leave on commit (``enqueue_on_commit``), which a test's own transaction never
    reaches: here they leave at once (the on-commit path is the browser tests' and the races')."""
    monkeypatch.setattr(registration_service, "enqueue_on_commit", enqueue)


def open_for(competition, olga, *, capacity=2, waiting_list=True, eligibility="anyone", **kw):
    now = timezone.now()
    return registration_services.set_registration(
        competition=competition,
        by=Actor.for_user(olga),
        opens_at=kw.pop("opens_at", now - timedelta(hours=1)),
        closes_at=kw.pop("closes_at", now + timedelta(days=7)),
        capacity=capacity,
        waiting_list=waiting_list,
        eligibility=eligibility,
        **kw,
    )


def token_in(message, kind="/r/") -> str:
    found = re.search(rf"{kind}([\w-]+)/", message.body)
    assert found, message.body
    return found.group(1)


def registered(competition, name, email) -> Registration:
    """A person without an account registers and confirms by the e-mailed link."""
    mail.outbox.clear()
    registration = registration_services.register(
        competition=competition, by=ANON, name=name, email=email
    )
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration.refresh_from_db()
    return registration


@pytest.fixture
def torneo(club, olga):
    competition = make_competition(club, olga, name="Torneo di Briscola")
    open_for(competition, olga)
    return competition


@pytest.fixture
def coppie(club, olga):
    competition = make_competition(
        club,
        olga,
        name="Coppie",
        rulesets=["briscola"],
        options={"briscola": {"format": "pairs"}},
        format="swiss",
    )
    open_for(competition, olga, capacity=1, unit="tables")
    return competition


def test_a_person_without_an_account_registers_confirms_and_becomes_an_entry(torneo):
    registration = registration_services.register(
        competition=torneo, by=ANON, name="Anna Rossi", email="Anna@Example.org"
    )
    assert registration.status == RegistrationStatus.UNCONFIRMED
    assert not torneo.entries.exists()
    (sent,) = mail.outbox
    assert sent.to == ["anna@example.org"]
    assert sent.alternatives and "text/html" in sent.alternatives[0][1]
    registration_services.confirm_registration(token=token_in(sent), by=ANON)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ENTERED
    assert registration.entry.player.display_name == "Anna Rossi"
    # Her confirmed address is her player's: the results e-mails reach her.
    assert registration.entry.player.email == "anna@example.org"
    # In the club's language (Italian): the link to withdraw or check in.
    assert "ritirarti" in mail.outbox[-1].body and "/r/" in mail.outbox[-1].body
    actions = list(
        CompetitionEvent.objects.filter(competition=torneo).values_list("action", flat=True)
    )
    assert {"register", "registration_confirmed", "add_entry", "registration_entered"} <= set(
        actions
    )


def test_an_account_registers_without_confirming_its_own_address(torneo, sara):
    sara.email = "sara@example.org"
    sara.save()
    registration = registration_services.register(
        competition=torneo, by=Actor.for_user(sara), name="Sara"
    )
    assert registration.status == RegistrationStatus.ENTERED
    assert registration.email == "sara@example.org"


def test_beyond_capacity_registrations_wait_and_a_withdrawal_promotes_the_first(torneo):
    a = registered(torneo, "Anna", "a@example.org")
    registered(torneo, "Bruno", "b@example.org")
    c = registered(torneo, "Carla", "c@example.org")
    d = registered(torneo, "Dario", "d@example.org")
    assert (c.status, c.position, d.position) == ("waiting", 1, 2)
    assert "lista d'attesa" in mail.outbox[-1].subject.lower()
    manage = token_in(_manage_mail(a))
    mail.outbox.clear()
    registration_services.withdraw_registration(token=manage, by=ANON)
    a.refresh_from_db()
    c.refresh_from_db()
    d.refresh_from_db()
    assert a.status == "withdrawn" and a.entry.status == EntryStatus.WITHDRAWN
    assert c.status == "entered" and c.entry.status == EntryStatus.ACTIVE
    assert (d.status, d.position) == ("waiting", 1)
    (promoted,) = mail.outbox
    assert promoted.to == ["c@example.org"] and "un posto per te" in promoted.subject.lower()
    assert CompetitionEvent.objects.filter(
        competition=torneo, action="registration_promoted", data__automatic=True
    ).exists()
    # The link served: used again, it is refused by name, and nothing changes.
    with pytest.raises(RuleViolation) as refused:
        registration_services.withdraw_registration(token=manage, by=ANON)
    assert codes(refused.value) == {("token", "not_allowed")}
    assert refused.value.problems[0].params["reason"] == "link_used"


def _manage_mail(registration) -> object:
    return _manage_mails[registration.pk]


_manage_mails: dict[int, object] = {}


@pytest.fixture(autouse=True)
def keep_manage_mails(monkeypatch):
    """Remember each registration's last withdrawal link (the "registered" mail)."""
    from registration.services import registration_mail

    original = registration_mail.send_registration_mail

    def send(registration_id, kind, token):
        if kind in ("registered", "promoted"):
            _manage_mails[registration_id] = type("M", (), {"body": f"/r/{token}/"})()
        return original(registration_id, kind, token)

    monkeypatch.setattr(registration_mail, "send_registration_mail", send)


def test_the_organizer_reorders_and_promotes_and_closing_freezes_the_list(torneo, olga):
    by = Actor.for_user(olga)
    a = registered(torneo, "Anna", "a@example.org")
    registered(torneo, "Bruno", "b@example.org")
    c = registered(torneo, "Carla", "c@example.org")
    d = registered(torneo, "Dario", "d@example.org")
    registration_services.reorder_waiting(competition=torneo, order=[d.pk, c.pk], by=by)
    reordered = CompetitionEvent.objects.filter(action="registration_reordered")
    assert reordered.count() == 1
    registration_services.reorder_waiting(competition=torneo, order=[d.pk, c.pk], by=by)  # as it is
    assert reordered.count() == 1  # nothing moved, nothing recorded
    with pytest.raises(RuleViolation) as refused:
        registration_services.reorder_waiting(competition=torneo, order=[d.pk], by=by)
    assert codes(refused.value) == {("order", "inconsistent")}
    registration_services.promote(registration=d, by=by)
    d.refresh_from_db()
    c.refresh_from_db()
    assert d.status == "entered" and (c.status, c.position) == ("waiting", 1)
    registration_services.close_registration(competition=torneo, by=by)
    registration_services.withdraw_registration(registration=a, by=by, reason="ill")
    c.refresh_from_db()
    assert c.status == "waiting"  # frozen: nobody moves by itself
    with pytest.raises(RuleViolation) as refused:
        registration_services.reorder_waiting(competition=torneo, order=[c.pk], by=by)
    assert refused.value.problems[0].params["reason"] == "registration_closed"
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=torneo, by=ANON, name="Ugo", email="u@example.org"
        )
    assert refused.value.problems[0].params["reason"] == "registration_closed"
    actions = set(
        CompetitionEvent.objects.filter(competition=torneo).values_list("action", flat=True)
    )
    assert {"registration_reordered", "registration_closed", "registration_withdrawn"} <= actions


@pytest.mark.parametrize(
    ("when", "reason"),
    [("before", "registration_not_open"), ("after", "registration_closed")],
)
def test_registration_outside_its_window_is_refused(club, olga, when, reason):
    competition = make_competition(club, olga)
    now = timezone.now()
    if when == "before":
        open_for(
            competition, olga, opens_at=now + timedelta(days=1), closes_at=now + timedelta(days=2)
        )
    else:
        open_for(
            competition, olga, opens_at=now - timedelta(days=2), closes_at=now - timedelta(days=1)
        )
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=competition, by=ANON, name="Anna", email="a@example.org"
        )
    assert codes(refused.value) == {("registration", "not_allowed")}
    assert refused.value.problems[0].params["reason"] == reason
    assert not Registration.objects.exists() and not mail.outbox


def test_beyond_capacity_without_a_waiting_list_is_refused_and_the_link_still_serves(club, olga):
    """Bruno asks while the place is free, Anna takes it first: Bruno's link is refused by
    name. Once the place is taken, Carla is refused at once, before any e-mail or record."""
    competition = make_competition(club, olga)
    open_for(competition, olga, capacity=1, waiting_list=False)
    late = registration_services.register(
        competition=competition, by=ANON, name="Bruno", email="b@example.org"
    )
    token = token_in(mail.outbox[-1])
    registered(competition, "Anna", "a@example.org")
    with pytest.raises(RuleViolation) as refused:
        registration_services.confirm_registration(token=token, by=ANON)
    assert refused.value.problems[0].params["reason"] == "registration_full"
    late.refresh_from_db()
    assert late.status == "unconfirmed" and late.confirmed_at is None
    assert competition.entries.count() == 1
    mail.outbox.clear()
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=competition, by=ANON, name="Carla", email="c@example.org"
        )
    assert refused.value.problems[0].params["reason"] == "registration_full"
    assert not mail.outbox and not competition.registrations.filter(name="Carla").exists()


def test_the_same_person_twice_is_refused_by_address_and_by_account(torneo, sara):
    registered(torneo, "Anna", "anna@example.org")
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=torneo, by=ANON, name="Anna R.", email="ANNA@example.org"
        )
    assert codes(refused.value) == {("email", "duplicate")}
    sara.email = "sara@example.org"
    sara.save()
    registration_services.register(competition=torneo, by=Actor.for_user(sara), name="Sara")
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=torneo, by=Actor.for_user(sara), name="Sara", email="other@example.org"
        )
    assert codes(refused.value) == {("user", "duplicate")}
    assert Registration.objects.filter(competition=torneo).count() == 2


def test_who_may_register(club, olga, bea, sara):
    competition = make_competition(club, olga)
    open_for(competition, olga, eligibility="members")
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=competition, by=ANON, name="Anna", email="a@example.org"
        )
    assert codes(refused.value) == {("user", "required")}
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=competition, by=Actor.for_user(bea), name="Bea", email="b@example.org"
        )
    assert codes(refused.value) == {("user", "not_allowed")}
    registration_services.register(
        competition=competition, by=Actor.for_user(sara), name="Sara", email="s@example.org"
    )


def test_bad_fields_are_named(torneo):
    for fields, expected in [
        ({"name": "", "email": "a@example.org"}, ("name", "required")),
        ({"name": "Anna", "email": "not an address"}, ("email", "invalid")),
        (
            {"name": "Anna", "email": "a@example.org", "partner_name": "B"},
            ("partner_name", "not_allowed"),
        ),
    ]:
        with pytest.raises(RuleViolation) as refused:
            registration_services.register(competition=torneo, by=ANON, **fields)
        assert codes(refused.value) == {expected}


def test_a_pair_registers_and_the_partner_confirms(coppie):
    registration = registration_services.register(
        competition=coppie,
        by=ANON,
        name="Anna",
        email="a@example.org",
        partner_name="Bruno",
        partner_email="b@example.org",
    )
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.PARTNER
    partner_mail = mail.outbox[-1]
    assert partner_mail.to == ["b@example.org"]
    registration_services.confirm_registration(token=token_in(partner_mail), by=ANON)
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ENTERED
    assert registration.entry.name == "Anna & Bruno"
    assert (registration.entry.player.email, registration.entry.partner.email) == (
        "a@example.org",
        "b@example.org",
    )
    # Confirmed once: the partner's link is used up.
    with pytest.raises(RuleViolation) as refused:
        registration_services.confirm_registration(token=token_in(partner_mail), by=ANON)
    assert refused.value.problems[0].params["reason"] == "link_used"


def test_a_pair_whose_partner_is_registered_already_is_refused(coppie):
    registration_services.register(
        competition=coppie, by=ANON, name="Anna", email="a@example.org",
        partner_name="Bruno", partner_email="b@example.org",
    )  # fmt: skip
    for fields in (
        {"name": "Carla", "email": "c@example.org", "partner_email": "b@example.org"},
        {"name": "Carla", "email": "c@example.org", "partner_email": "a@example.org"},
    ):
        with pytest.raises(RuleViolation) as refused:
            registration_services.register(competition=coppie, by=ANON, partner_name="X", **fields)
        assert codes(refused.value) == {("partner_email", "duplicate")}
    with pytest.raises(RuleViolation) as refused:
        registration_services.register(
            competition=coppie, by=ANON, name="Bruno", email="b@example.org",
            partner_name="Carla", partner_email="c@example.org",
        )  # fmt: skip
    assert codes(refused.value) == {("email", "duplicate")}


def test_the_organizer_confirms_a_partner_at_the_desk(coppie, olga):
    registration = registration_services.register(
        competition=coppie, by=ANON, name="Anna", email="a@example.org",
        partner_name="Bruno", partner_email="b@example.org",
    )  # fmt: skip
    registration_services.confirm_registration(token=token_in(mail.outbox[-1]), by=ANON)
    registration.refresh_from_db()
    with pytest.raises(NotAllowed):
        registration_services.confirm_partner(registration=registration, by=ANON)
    registration_services.confirm_partner(registration=registration, by=Actor.for_user(olga))
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.ENTERED


def test_an_expired_or_unknown_link_is_refused_by_name(torneo):
    registration_services.register(competition=torneo, by=ANON, name="Anna", email="a@example.org")
    token = token_in(mail.outbox[-1])
    from registration.models import RegistrationLink

    RegistrationLink.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(RuleViolation) as refused:
        registration_services.confirm_registration(token=token, by=ANON)
    assert refused.value.problems[0].params["reason"] == "link_expired"
    with pytest.raises(RuleViolation) as refused:
        registration_services.confirm_registration(token="nonsense", by=ANON)
    assert codes(refused.value) == {("token", "not_found")}
    assert not torneo.entries.exists()


def test_a_namesake_gets_a_player_of_its_own_that_the_organizer_merges(torneo, olga, players):
    anna = players[0]
    registration = registered(torneo, "Anna", "anna@example.org")
    made = registration.player
    assert made.display_name == "Anna (2)" and made.pk != anna.pk
    registration_services.merge_player(
        registration=registration, player=anna, by=Actor.for_user(olga)
    )
    registration.refresh_from_db()
    assert registration.entry.player_id == anna.pk
    assert not Player.objects.filter(pk=made.pk).exists()
    assert CompetitionEvent.objects.filter(
        competition=torneo, action="registration_merged", data__made="Anna (2)"
    ).exists()


def test_self_check_in_through_the_link_during_the_window(torneo, olga):
    by = Actor.for_user(olga)
    a = registered(torneo, "Anna", "a@example.org")
    b = registered(torneo, "Bruno", "b@example.org")
    services.add_entry(competition=torneo, player="Carla", by=by)
    round_ = services.add_round(competition=torneo, by=by)
    entry = registration_services.checkin.entry_of(by=ANON, token=token_in(_manage_mail(a)))
    with pytest.raises(RuleViolation) as refused:
        registration_services.check_in_self(entry=entry, by=ANON)
    assert refused.value.problems[0].params["reason"] == "check_in_not_open"
    registration_services.open_check_in(round_=round_, by=by, minutes=60)
    registration_services.check_in_self(entry=entry, by=ANON)
    registration_services.check_in_self(entry=entry, by=ANON)  # twice is once
    assert list(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True)) == [
        a.entry_id
    ]
    assert CompetitionEvent.objects.filter(action="self_check_in").count() == 1
    registration_services.close_check_in(round_=round_, by=by)
    other = registration_services.checkin.entry_of(by=ANON, token=token_in(_manage_mail(b)))
    with pytest.raises(RuleViolation):
        registration_services.check_in_self(entry=other, by=ANON)
    assert Entry.objects.filter(competition=torneo).count() == 3


def test_the_draw_seats_those_who_checked_in_from_their_phones_and_names_the_absent(
    club, olga, client
):
    """Seven registered for a club night (tables of three): six check in from their own
    links, Gina does not. The draw seats the six and nobody else; the round page names Gina
    as missing."""
    by = Actor.for_user(olga)
    night = make_competition(club, olga, name="Serata", kind="league", format="club_night")
    open_for(night, olga, capacity=10)
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco", "Gina"]
    people = [registered(night, name, f"{name.lower()}@example.org") for name in names]
    round_ = services.add_round(competition=night, by=by)
    registration_services.open_check_in(round_=round_, by=by, minutes=60)
    for person in people[:6]:
        entry = registration_services.checkin.entry_of(
            by=ANON, token=token_in(_manage_mail(person))
        )
        registration_services.check_in_self(entry=entry, by=ANON)
    services.generate_round(round_=round_, by=by, seed=3)
    seated = sorted(e for table in tables_of(round_) for e in table)
    assert seated == sorted(p.entry_id for p in people[:6])
    assert sorted(len(table) for table in tables_of(round_)) == [3, 3]
    client.force_login(olga)
    page = client.get(f"/c/{club.slug}/k/{night.slug}/rounds/{round_.number}/").content.decode()
    assert "6 present, 1 missing" in page and "Gina" in page


def test_a_phone_check_in_survives_the_organizers_page_saved_afterwards(torneo, olga, client):
    """The organizer opened the round page (Bruno present), Anna checked in from her phone,
    then the organizer ticked Carla and saved: Anna stays checked in, the page never showed
    her. Unticking someone the page showed still counts."""
    by = Actor.for_user(olga)
    a = registered(torneo, "Anna", "a@example.org")
    b = registered(torneo, "Bruno", "b@example.org")
    carla = services.add_entry(competition=torneo, player="Carla", by=by)
    round_ = services.add_round(competition=torneo, by=by)
    services.set_check_ins(round_=round_, entries=[b.entry_id], by=by)
    client.force_login(olga)
    page = client.get(f"/c/{torneo.club.slug}/k/{torneo.slug}/rounds/{round_.number}/")
    shown = page.context["checkin_form"]["shown"].value()
    assert shown == str(b.entry_id)
    registration_services.open_check_in(round_=round_, by=by, minutes=60)
    registration_services.check_in_self(
        entry=registration_services.checkin.entry_of(by=ANON, token=token_in(_manage_mail(a))),
        by=ANON,
    )
    answer = client.post(
        f"/c/{torneo.club.slug}/k/{torneo.slug}/rounds/{round_.number}/",
        {"action": "checkin", "present": [b.entry_id, carla.pk], "shown": shown},
    )
    assert answer.status_code in (200, 302)
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert present == {a.entry_id, b.entry_id, carla.pk}
    # Anna and Bruno unticked on a page that showed them both: no longer present.
    client.post(
        f"/c/{torneo.club.slug}/k/{torneo.slug}/rounds/{round_.number}/",
        {"action": "checkin", "present": [carla.pk], "shown": ",".join(map(str, sorted(present)))},
    )
    present = set(CheckIn.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert present == {carla.pk}
