"""The site's URLs plus two bench views that ``bench/load.py`` compares hand POSTs with:

- ``/bench/bare``: a JSON view with no database query, no authentication and no template, the
  floor of any request on this server;
- ``/bench/floor/<game>/``: a hand entry's database work and nothing else. It takes the game row's
  lock and writes what a hand writes (the hand, the game's cache, the audit event, the
  idempotency record) with the very code and statements of a hand POST (``_rows``,
  ``recorded_writes``; prepared as on the site), but reads no token, checks no role, validates and scores nothing:
  the hand is always a passed-out one. No hand POST, however it were written, can be faster on
  this server and database; the bench prints how far below the bare view that already is.

The site's error handlers are the site's own here too (``handler500``, config/errors.py: a
database outage answers 503 with ``Retry-After``): a URL configuration that names none gets
Django's default, a bare 500, and a bench server would then answer what no real site does.
"""

from django.db import transaction
from django.http import JsonResponse
from django.urls import path
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from config import urls as site_urls
from scoring.models import Hand, Via
from scoring.services import _rows
from scoring.services.hands import recorded_writes


def bare(request):
    return JsonResponse({"ok": True})


@csrf_exempt
def floor(request, game_id: int):
    key = request.headers.get("Idempotency-Key", "")
    now = timezone.now()
    with transaction.atomic():
        game = _rows.lock_game(game_id, user_id=None, key=key, client="bench-floor")
        document = {"dealer": game.hand_count % 3, "outcome": "passed_out"}
        game.last_hand_serial += 1
        hand = _rows.insert(
            Hand(
                game=game,
                number=game.hand_count + 1,
                serial=game.last_hand_serial,
                document=document,
                deltas=[0, 0, 0],
                entered_via=Via.API,
                created_at=now,
                updated_at=now,
            )
        )
        game.hand_count, game.version = hand.number, game.version + 1
        answer = {"number": hand.number, "version": game.version}
        _rows.run(*recorded_writes(game, hand, answer, ("bench-floor", key, "-")))
    return JsonResponse(answer, status=201)


urlpatterns = [
    path("bench/bare", bare, name="bench-bare"),
    path("bench/floor/<int:game_id>/", floor, name="bench-floor"),
    *site_urls.urlpatterns,
]
handler500 = site_urls.handler500
