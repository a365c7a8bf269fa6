"""The site's URLs plus ``/bench/bare``: a JSON view with no database query, no authentication
and no template, the floor a hand POST is compared with (see ``bench/load.py``)."""

from django.http import JsonResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def bare(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("bench/bare", bare, name="bench-bare"), *site_urlpatterns]
