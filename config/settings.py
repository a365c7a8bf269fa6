"""Segnapunti settings: one module, driven by the environment.

Defaults run with nothing installed: a SQLite file next to manage.py, Celery tasks executed
eagerly in the web process, a local-memory cache and e-mail printed on the console. Every
variable is listed in the README's configuration table and in deploy/env.example.

A bad value stops the process at start-up with ONE line on stderr that names the variable and
what it accepts, and a non-zero exit: ``_refuse`` raises ``SystemExit`` with that line, which
Python prints as it is. ``manage.py <any command>``, gunicorn (deploy/gunicorn.conf.py preloads
the app) and Celery (worker and beat) all import these settings first and let it through,
where an exception would end a traceback of fifty lines (tests/config/test_settings.py).
"""

import os
import zoneinfo
from pathlib import Path
from typing import NoReturn

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.mail import mailers
from config.openapi import SPECTACULAR_SETTINGS  # noqa: F401 (a setting)
from config.push import vapid
from config.rates import throttle_rates
from config.workers import worker_settings

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

_INSECURE_KEY = "django-insecure-local-development-only"  # refused when DEBUG is off


def _refuse(problem: str) -> NoReturn:
    """Stop the start with one line on stderr (see the module docstring)."""
    raise SystemExit(f"Configuration error: {problem}")


def _bool(name: str, default: bool) -> bool:
    """Read a boolean strictly: a typo such as DEBUG=flase must not silently mean False."""
    raw = env.str(name, default=None)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    _refuse(f"{name} must be true or false, got {raw!r}")


def _int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = env.str(name, default=None)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < minimum:
        _refuse(f"{name} must be a whole number of at least {minimum}, got {raw!r}")
    return value


DEBUG = _bool("DEBUG", True)
#: Words of the placeholders people copy from examples: a key containing one is not a secret.
_PLACEHOLDER_WORDS = ("change-me", "changeme", "insecure", "example", "secret-key", "your-")
#: Django's own ``check --deploy`` (security.W009) wants 50 characters: so do we, at start.
MIN_SECRET_KEY_LENGTH = 50


def _weak_secret(key: str) -> bool:
    """A key an attacker could guess: the development default, a placeholder copied from
    deploy/env.example, too short, or too few different characters (``x`` * 50, ``abab…``)."""
    lowered = key.lower()
    return (
        key == _INSECURE_KEY
        or len(key) < MIN_SECRET_KEY_LENGTH
        or len(set(key)) < 16
        or any(word in lowered for word in _PLACEHOLDER_WORDS)
    )


SECRET_KEY = env.str("SECRET_KEY", default=_INSECURE_KEY)
if not DEBUG and _weak_secret(SECRET_KEY):
    _refuse(
        "DEBUG is false but SECRET_KEY is not set to a real secret (at least 50 random "
        "characters, not the example's placeholder). Set SECRET_KEY in the environment, e.g. "
        "from `python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# Set explicitly, SITE_URL is the address in table links and QR codes; otherwise they use the
# address the request came in on (a laptop at the club serving `make run HOST=0.0.0.0:8000`).
SITE_URL_SET = bool(os.environ.get("SITE_URL"))

PROJECT_APPS = ["scoring", "tournaments", "registration", "teams", "circuits"]
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    *PROJECT_APPS,
]

MIDDLEWARE = [
    # First: /healthz answers probes before the HTTPS redirect and the host check (config/health.py).
    "config.health.HealthCheckMiddleware",
    # Anonymous polls of the public standings answered from the answer kept for them while the
    # standings are unchanged, before the rest of the stack (tournaments/middleware.py).
    "tournaments.middleware.SpectatorPolls",
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header of every answer (SECURE_CSP below).
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A body announced over REQUEST_MAX_BYTES: 413 before it is read (config/middleware.py).
    "config.middleware.BodyLimit",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Under /api/, every error in the API's JSON shape (404 pages, 500s, Django's 400/413).
    "config.middleware.ApiErrors",
    "django.middleware.common.CommonMiddleware",
    # The request being answered: the address a task's e-mail links are on (scoring/links.py).
    "scoring.links.RequestOrigin",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: SQLite by default; DATABASE_URL=postgres://user@host:5432/name switches to PostgreSQL.
DATABASE_URL = env.str("DATABASE_URL", default="")
DATABASE_PREPARE = False
if DATABASE_URL:
    try:
        _db = environ.Env.db_url_config(DATABASE_URL)
    except (ValueError, KeyError, ImproperlyConfigured) as exc:
        _refuse(f"DATABASE_URL is not a valid database URL: {exc}")
    if not _db.get("ENGINE"):
        _refuse(f"DATABASE_URL is not a valid database URL: {DATABASE_URL!r}")
    if _db["ENGINE"] == "django.db.backends.postgresql":
        _db.setdefault("OPTIONS", {})
        _db["CONN_MAX_AGE"] = _int("DATABASE_CONN_MAX_AGE", 0)
        _db["CONN_HEALTH_CHECKS"] = True
        # A psycopg connection pool in each web process (deploy/README.md "Growing"): requests
        # borrow a connection and give it back, so persistent connections must stay off.
        if _bool("DATABASE_POOL", False):
            if _db["CONN_MAX_AGE"]:
                _refuse(
                    "DATABASE_POOL=true needs DATABASE_CONN_MAX_AGE=0 (the pool keeps the "
                    "connections open itself)"
                )
            _db["OPTIONS"]["pool"] = {
                "min_size": 1,
                "max_size": _int("DATABASE_POOL_MAX_SIZE", 4, minimum=1),
                "timeout": 10,
            }
        # The hand writes (scoring/services/_rows.py) as prepared statements: parsed and planned
        # once per connection, so only worth it on connections that last. Off behind PgBouncer
        # older than 1.21 or without max_prepared_statements (deploy/README.md "Growing").
        DATABASE_PREPARE = _bool(
            "DATABASE_PREPARE", bool(_db["CONN_MAX_AGE"]) or "pool" in _db["OPTIONS"]
        )
    elif _db["ENGINE"] != "django.db.backends.sqlite3":
        _refuse(f"DATABASE_URL must be a postgres:// or sqlite:// URL, got engine {_db['ENGINE']}")
    DATABASES = {"default": _db}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": Path(env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3"))),
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time: IMMEDIATE takes the write lock when the transaction starts, so a
    # second writer waits (busy timeout) instead of failing half-way; WAL lets readers go on.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file (one per process), not memory: concurrent writers wait as in production.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Nothing a request leaves behind stays in one web process (deploy/README.md "Growing"): the
# sessions and idempotency records in the database, the cache (the throttles) in Redis with
# CACHE_URL. The local-memory cache is right for one process only.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CACHE_URL = env.str("CACHE_URL", default="")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
        _refuse(f"CACHE_URL must be a redis:// URL, got {CACHE_URL!r}")
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "segnapunti",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Who may create an account: "open" (anyone, after confirming the e-mail address), "invitation"
# (only through a club's invitation link: a self-hosted club's server is not a public service,
# and its members arrive invited) or "closed" (accounts made by `manage.py createorganizer` only).
SIGNUP = env.str("SIGNUP", default="invitation")
if SIGNUP not in {"open", "invitation", "closed"}:
    _refuse(f"SIGNUP must be open, invitation or closed, got {SIGNUP!r}")
# Days an invitation to a club (e-mail or link) stays valid; each serves once.
INVITATION_DAYS = _int("INVITATION_DAYS", 14, minimum=1)
# Days the e-mail verification link of an open sign-up and a password reset link stay valid.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 60 * 60
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="en")
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("it", _("Italian"))]
if LANGUAGE_CODE not in dict(LANGUAGES):
    _refuse(f"LANGUAGE_CODE must be one of en, fr, it, got {LANGUAGE_CODE!r}")
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Rome")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    _refuse(f"TIME_ZONE must be a time zone name such as Europe/Rome, got {TIME_ZONE!r}")
USE_I18N = True
USE_TZ = True
# English dates day first, as our clubs read them (config/formats/en); fr and it: Django's.
FORMAT_MODULE_PATH = ["config.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Celery: with no broker the tasks run eagerly, inside the request that enqueued them.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="segnapunti")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Run by `celery -A config beat` (deploy/README.md): housekeeping, checks, the tasks kept.
CELERY_BEAT_SCHEDULE = {
    "purge-idempotency-records": {
        "task": "scoring.tasks.purge_idempotency_records",
        "schedule": 60 * 60,
    },
    "check-games": {"task": "scoring.tasks.check_games", "schedule": 24 * 60 * 60},
    # Tasks a request could not send while the broker was down (scoring/services/queue.py).
    "run-pending-tasks": {
        "task": "scoring.tasks.run_pending_tasks",
        "schedule": _int("PENDING_TASKS_EVERY_SECONDS", 60, minimum=1),
    },
}
# A request tries a broker that does not answer twice within 0.5 s (kombu: 2 s and more), then
# keeps the task in the database (scoring/services/queue.py); the worker's reconnection is as ever.
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
# A killed worker's tasks, the broker's options, the results mail check: config/workers.py.
globals().update(worker_settings(_int, CELERY_BEAT_SCHEDULE))
# A worker lost mid-task gives it back: acks_late tasks only (the tasks' module docstrings say which).
CELERY_TASK_REJECT_ON_WORKER_LOST = True

# How long the first answer to a write sent with an Idempotency-Key is kept (docs/api.md).
IDEMPOTENCY_TTL_HOURS = _int("IDEMPOTENCY_TTL_HOURS", 48, minimum=1)
# The nightly check_games task replays the games changed in the last this many hours (its
# schedule, a day, and an hour of overlap): its work follows the day's changes, not the history.
CHECK_GAMES_HOURS = _int("CHECK_GAMES_HOURS", 25, minimum=1)

# E-mail: the console unless EMAIL_BACKEND says otherwise (config/mail.py); Web Push: config/push.py.
MAILERS = mailers(env, refuse=_refuse, integer=_int, boolean=_bool)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="segnapunti@localhost")
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT = vapid(env, _refuse, DEFAULT_FROM_EMAIL)
globals().update(throttle_rates(env, _refuse))  # the *_RATE_PER_* settings: config/rates.py

# Request bodies: at most REQUEST_MAX_BYTES (413 beyond; forms and the API alike) and JSON
# nested at most JSON_MAX_DEPTH deep (400 beyond), both checked before any parsing.
REQUEST_MAX_BYTES = _int("REQUEST_MAX_BYTES", 256 * 1024, minimum=1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
# No page takes a file: an uploaded one stays in memory (never spooled to disk), within the
# limit above that config.middleware.BodyLimit enforces before the body is read.
FILE_UPLOAD_MAX_MEMORY_SIZE = REQUEST_MAX_BYTES
JSON_MAX_DEPTH = _int("JSON_MAX_DEPTH", 32, minimum=4)

# Seconds an API token's user is kept in the cache (scoring/api/authentication.py); 0: no cache.
API_TOKEN_CACHE_SECONDS = _int("API_TOKEN_CACHE_SECONDS", 60, minimum=0)
# Seconds each web process remembers a token it has just seen, in front of that cache: how late,
# at most, another process refuses a revoked token (0: every request asks the cache).
API_TOKEN_LOCAL_SECONDS = _int("API_TOKEN_LOCAL_SECONDS", 5, minimum=0)

REST_FRAMEWORK = {
    # Token first: DRF answers 401 with "WWW-Authenticate: Token" only when the first class
    # names a scheme. A browser's session still works, with its CSRF check.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scoring.api.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        # Last: a table link held in the session cookie needs the CSRF token too.
        "scoring.api.authentication.TableLinkCsrf",
    ],
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.JSONParser"],
    # JSON for a phone's request without parsing its Accept header (scoring/api/negotiation.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "scoring.api.negotiation.ShortcutNegotiation",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    # drf-spectacular's, without docstrings as descriptions, paging GET lists, with Idempotency-Key
    # and the security each operation has (scoring/api/: schema, autoschema, idempotency_schema, access).
    "DEFAULT_SCHEMA_CLASS": "scoring.api.access.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "scoring.api.renderers.BrowsableAPIRenderer",
    ],
    # Proxies in front of the app (nginx: 1): the client address is the one they forwarded.
    "NUM_PROXIES": _int("NUM_PROXIES", 0) or None,
    # Every refusal becomes the one error shape here (RuleViolation 400, NotAllowed 403...).
    # No default pagination class: each list view pages itself (scoring/api/pagination.py).
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
}

# Guessing (scoring/throttles.py). Passwords: LOGIN_MAX_ATTEMPTS free tries per account (four
# times as many per address), then a delay doubling from 1 s up to 15 minutes.
LOGIN_MAX_ATTEMPTS = _int("LOGIN_MAX_ATTEMPTS", 5, minimum=1)
# Password-reset e-mails: PASSWORD_RESET_MAX_MAILS free per address asked about (four times as
# many per client), then a wait from a minute doubling up to an hour.
PASSWORD_RESET_MAX_MAILS = _int("PASSWORD_RESET_MAX_MAILS", 3, minimum=1)
# Table-link PINs: PIN_MAX_ATTEMPTS free wrong PINs per browser session (four times as many per
# address), then a delay doubling up to PIN_WINDOW_MINUTES; and a budget per link whatever the
# callers: PIN_LINK_MAX_FAILURES wrong PINs an hour lock the link until the hour has passed...
PIN_MAX_ATTEMPTS = _int("PIN_MAX_ATTEMPTS", 5, minimum=1)
PIN_WINDOW_MINUTES = _int("PIN_WINDOW_MINUTES", 15, minimum=1)
PIN_LINK_MAX_FAILURES = _int("PIN_LINK_MAX_FAILURES", 25, minimum=1)
# ... but only to the addresses that typed a wrong PIN for it; every new session is refused from
# PIN_LINK_HARD_FAILURES on (at most 76: docs/architecture.md "Table PINs"; checked at start-up).
PIN_LINK_HARD_FAILURES = _int("PIN_LINK_HARD_FAILURES", 3 * PIN_LINK_MAX_FAILURES, minimum=1)
# A table-link session lasts this long after its PIN (and ends when its game is finished).
TABLE_SESSION_HOURS = _int("TABLE_SESSION_HOURS", 12, minimum=1)
# The hand just saved can be undone with one tap for this long, from the phone that saved it.
UNDO_SECONDS = _int("UNDO_SECONDS", 10, minimum=1)

# Live pages (scoring/live/): Redis pub/sub (LIVE_REDIS_URL, by default CACHE_URL), else inside
# the one process serving the site (make run); the rest: README "Configuration".
LIVE_REDIS_URL = env.str("LIVE_REDIS_URL", default="") or CACHE_URL
if LIVE_REDIS_URL and not LIVE_REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    _refuse(f"LIVE_REDIS_URL must be a redis:// URL, got {LIVE_REDIS_URL!r}")
LIVE_HEARTBEAT_SECONDS = _int("LIVE_HEARTBEAT_SECONDS", 15, minimum=1)
LIVE_HISTORY = _int("LIVE_HISTORY", 500, minimum=10)
LIVE_STREAMS_PER_CLIENT = _int("LIVE_STREAMS_PER_CLIENT", 200, minimum=1)
LIVE_COALESCE_MS = _int("LIVE_COALESCE_MS", 250, minimum=0)

# Ratings: a player is shown as provisional until he has played this many rated games.
RATING_PROVISIONAL_GAMES = _int("RATING_PROVISIONAL_GAMES", 10, minimum=0)

# Content-Security-Policy, on every answer, DEBUG or not: the pages load only our own scripts,
# styles, fonts and images (QR codes and Swagger's icons may be data: images), run no inline
# script or style (no <script> body, no style="" or onclick="": scripts set styles through the
# DOM, which the policy allows), post forms only here, and are framed by nobody.
# tests/browser/test_csp.py loads every kind of page in Chromium and fails on any violation.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "worker-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = _bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = _int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = _bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # Joining the browsers' preload list is hard to undo: a club opts in on purpose.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # Load balancers and container health checks probe over plain HTTP, from inside.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Log lines carry a UTC timestamp (ISO 8601) whatever TIME_ZONE says, so lines of the web
# servers and workers sort together; LOG_FORMAT=json writes one JSON object per line.
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
if LOG_FORMAT not in {"text", "json"}:
    _refuse(f"LOG_FORMAT must be text or json, got {LOG_FORMAT!r}")
_LOG_LEVEL = env.str("LOG_LEVEL", default="INFO")
LOG_LEVEL = _LOG_LEVEL.strip().upper()
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    _refuse(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {_LOG_LEVEL!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {
            "()": "config.logs.UTCFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        },
        "json": {"()": "config.logs.JSONLinesFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    # Tasks run eagerly (no broker) would log every run at INFO in the web process; with a
    # broker, the worker logs its start ("celery@host ready.") and every task at INFO, in these
    # same lines (config/celery.py hands Celery's logging to this configuration).
    "loggers": {"celery": {"level": "WARNING"}} if CELERY_TASK_ALWAYS_EAGER else {},
}
