"""The Celery app. With no CELERY_BROKER_URL every task runs eagerly (see settings)."""

import logging
import os
from logging.config import dictConfig

from celery import Celery
from celery.signals import setup_logging
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("segnapunti")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def log_like_the_web_processes(loglevel=None, **kwargs):
    """The worker and beat log through the settings' LOGGING instead of Celery's own format:
    lines that start with their UTC timestamp (or JSON lines), like gunicorn's and Django's.
    ``--loglevel`` may lower ``LOG_LEVEL`` (``--loglevel=DEBUG``), never raise it."""
    dictConfig(settings.LOGGING)
    root = logging.getLogger()
    if loglevel:
        root.setLevel(min(root.level, loglevel))
