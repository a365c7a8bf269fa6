"""Settings of the server that ``bench/load.py`` starts: the project's own settings, unchanged,
plus a URL configuration with one bare JSON view (``bench/load_urls.py``) to compare hand POSTs
with. Only the bench names this module (``DJANGO_SETTINGS_MODULE``), so the bare view exists on
no real site."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.load_urls"
