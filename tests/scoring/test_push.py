"""Web Push (issue 37 point 5): a player turns notifications on from My games, the browser's
subscription is stored (one per device) and forgotten on request or when the push service says
it is gone; a message reaches the device encrypted for it, signed with the site's VAPID keys,
in the device's language, once per version. The push service is tests/push_receiver.py."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.models import PushReceipt, PushSubscription
from scoring.services import Actor, push
from tests.clients import login

pytestmark = pytest.mark.django_db


@pytest.fixture
def oscar_plays(club, olga, oscar):
    """Oscar's account has his player."""
    return services.add_player(club=club, display_name="Oscar", by=Actor.for_user(olga), user=oscar)


def post(client, body, method="post", language="en"):
    send = getattr(client, method)
    return send(
        "/me/push/",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Accept-Language": language},
    )


def hello() -> dict:
    return {"title": "Coppa", "body": "Hello", "url": "/me/games/", "tag": "t"}


def test_a_player_turns_notifications_on_and_the_device_is_stored_once(
    push_receiver, oscar, oscar_plays
):
    device = push_receiver.device()
    client = login(oscar)
    assert post(client, device.subscription(), language="fr").status_code == 201
    assert post(client, device.subscription(), language="it").status_code == 201
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.language) == (oscar, device.endpoint, "it")
    assert row.info() == device.subscription()


def test_turning_them_off_deletes_the_devices_subscription(push_receiver, oscar, oscar_plays):
    device, other = push_receiver.device(), push_receiver.device()
    client = login(oscar)
    post(client, device.subscription())
    post(client, other.subscription())
    answer = post(client, {"endpoint": device.endpoint}, method="delete")
    assert answer.status_code == 200 and answer.json() == {"subscribed": False}
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [other.endpoint]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s.pop("endpoint"), "endpoint"),
        (lambda s: s.update(endpoint="http://push.example/1"), "endpoint"),
        (lambda s: s.update(endpoint="https://" + "x" * 1000), "endpoint"),
        (lambda s: s.pop("keys"), "keys"),
        (lambda s: s["keys"].update(p256dh="not a key"), "keys.p256dh"),
        (lambda s: s["keys"].update(p256dh=s["keys"]["auth"]), "keys.p256dh"),
        (lambda s: s["keys"].update(auth=s["keys"]["p256dh"]), "keys.auth"),
        (lambda s: s["keys"].pop("auth"), "keys.auth"),
    ],
    ids=[
        "no-endpoint",
        "not-https",
        "too-long",
        "no-keys",
        "bad-key",
        "short-key",
        "long-auth",
        "no-auth",
    ],
)
def test_a_bad_subscription_is_refused_naming_its_field_and_nothing_is_stored(
    push_receiver, oscar, oscar_plays, change, field
):
    body = push_receiver.device().subscription()
    change(body)
    answer = post(login(oscar), body)
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == [field]
    assert not PushSubscription.objects.exists()


def test_a_body_that_is_not_a_subscription_is_refused(push_receiver, oscar, oscar_plays):
    client = login(oscar)
    answer = client.post("/me/push/", data="{", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "subscription"
    assert post(client, ["a list"]).json()["errors"][0]["field"] == "subscription"


def test_only_an_account_with_a_linked_player_may_turn_them_on(push_receiver, client, oscar):
    body = push_receiver.device().subscription()
    assert post(client, body).status_code == 403  # nobody logged in
    answer = post(login(oscar), body)  # an account, no player
    assert answer.status_code == 403 and answer.json()["errors"][0]["code"] == "permission_denied"
    assert not PushSubscription.objects.exists()


def test_without_vapid_keys_there_is_no_button_no_endpoint_and_nothing_is_sent(
    settings, oscar, oscar_plays, push_receiver
):
    device = push_receiver.device()
    client = login(oscar)
    post(client, device.subscription())
    assert 'id="push"' in client.get("/me/games/").content.decode()
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = client.get("/me/games/").content.decode()
    assert 'id="push"' not in page and "push.js" not in page
    assert post(client, device.subscription()).status_code == 404
    assert push.notify(user_id=oscar.pk, topic="round:1", version="a", message=hello) == 0
    assert push_receiver.deliveries == []


def test_my_games_offers_the_button_with_the_public_key_in_the_players_language(
    push_receiver, settings, oscar, oscar_plays
):
    page = login(oscar).get("/me/games/", headers={"Accept-Language": "it"}).content.decode()
    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in page
    assert "Attiva le notifiche" in page


def test_a_message_reaches_the_device_encrypted_for_it_and_signed_by_the_site(
    push_receiver, settings, oscar, oscar_plays
):
    device = push_receiver.device()
    post(login(oscar), device.subscription())
    assert push.notify(user_id=oscar.pk, topic="round:1", version="a", message=hello) == 1
    [delivery] = push_receiver.deliveries
    assert b"Hello" not in delivery.body  # encrypted
    assert push_receiver.read(delivery, settings.VAPID_PUBLIC_KEY) == hello()


def test_each_version_is_sent_once_and_a_new_version_again(push_receiver, oscar, oscar_plays):
    device = push_receiver.device()
    post(login(oscar), device.subscription())
    for version in ("a", "a", "b", "b"):
        push.notify(user_id=oscar.pk, topic="round:1", version=version, message=hello)
    push.notify(user_id=oscar.pk, topic="round:2", version="a", message=hello)
    assert len(push_receiver.deliveries) == 3


@pytest.mark.parametrize("gone", [404, 410])
def test_a_404_or_410_from_the_push_service_deletes_the_subscription(
    push_receiver, oscar, oscar_plays, gone
):
    device = push_receiver.device()
    post(login(oscar), device.subscription())
    push_receiver.answer = gone
    assert push.notify(user_id=oscar.pk, topic="round:1", version="a", message=hello) == 0
    assert len(push_receiver.deliveries) == 1
    assert not PushSubscription.objects.exists() and not PushReceipt.objects.exists()


def test_a_refused_message_is_sent_again_on_the_next_run(push_receiver, oscar, oscar_plays):
    device = push_receiver.device()
    post(login(oscar), device.subscription())
    push_receiver.answer = 503
    assert push.notify(user_id=oscar.pk, topic="round:1", version="a", message=hello) == 0
    push_receiver.answer = 201
    assert push.notify(user_id=oscar.pk, topic="round:1", version="a", message=hello) == 1
    assert len(push_receiver.deliveries) == 2 and PushSubscription.objects.exists()
