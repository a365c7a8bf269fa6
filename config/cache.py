"""Django's Redis cache (``CACHE_URL``), reusing its client, and going on without Redis.

Django's backend builds a new ``redis.Redis`` for every operation; each one fills a table of
about 170 response callbacks, which costs more CPU than the GET it then sends (about half of an
API request's authentication, scoring/api/authentication.py). One client per connection pool is
enough: a ``redis.Redis`` only borrows connections from its pool, and is safe to share between
threads.

The cache is a cache (issue 22, point 4): when Redis does not answer (down, restarting,
unreachable: a connection error or a timeout, short ones set in config/settings.py), every
operation goes to a local-memory cache of this process instead, and Redis is not tried again
for ``RETRY_SECONDS``; the failure is logged (not on every operation). What that means for each user of
the cache is in the README ("When Redis is down"): API tokens are read from the database, the
guessing throttles count per process. ``/healthz`` reports the cache (``ping``).
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

#: Seconds during which a Redis that failed is not tried again (the local cache answers).
RETRY_SECONDS = 5
UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write)
            )
        return client


def _redis_or_local(name: str):
    """The cache operation ``name``: on Redis while it answers, else on the local cache."""

    def operation(self, *args, **kwargs):
        if time.monotonic() >= self._down_until:
            try:
                return getattr(django_redis.RedisCache, name)(self, *args, **kwargs)
            except UNREACHABLE as error:
                self._went_down(error)
        return getattr(self._local, name)(*args, **kwargs)

    operation.__name__ = name
    return operation


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._local = LocMemCache(f"redis-fallback-{id(self)}", {"TIMEOUT": self.default_timeout})
        self._down_until = 0.0

    def _went_down(self, error: Exception) -> None:
        if not self._down_until or time.monotonic() >= self._down_until + RETRY_SECONDS:
            log.warning("cache: Redis does not answer (%s); using this process's memory", error)
        self._down_until = time.monotonic() + RETRY_SECONDS

    def ping(self) -> bool:
        """Whether Redis answers now (for /healthz); a failure starts the local fallback."""
        try:
            self._cache.get_client(write=True).ping()
        except UNREACHABLE as error:
            self._went_down(error)
            return False
        return True

    add = _redis_or_local("add")
    get = _redis_or_local("get")
    set = _redis_or_local("set")
    touch = _redis_or_local("touch")
    delete = _redis_or_local("delete")
    get_many = _redis_or_local("get_many")
    has_key = _redis_or_local("has_key")
    incr = _redis_or_local("incr")
    set_many = _redis_or_local("set_many")
    delete_many = _redis_or_local("delete_many")
    clear = _redis_or_local("clear")
