"""Django's Redis cache (``CACHE_URL``), reusing its client, and going on without Redis.

Django's backend builds a new ``redis.Redis`` for every operation; each one fills a table of
about 170 response callbacks, which costs more CPU than the GET it then sends (about half of an
API request's authentication, scoring/api/authentication.py). One client per connection pool is
enough: a ``redis.Redis`` only borrows connections from its pool, and is safe to share between
threads.

**The cache is a cache.** When Redis does not answer, every operation is served by this web
process's own memory instead of raising, and Redis is tried again after ``RETRY_SECONDS``
(so a stopped Redis costs one refused connection per process every few seconds, not one per
request). What that means for each use (README "When Redis stops"):

* API tokens are looked up in the database, as on any cache miss: nothing fails;
* the throttles (log-in, PIN, password reset) count in the database instead
  (scoring/throttles.py): their limits hold for all processes together, as with Redis;
* the public standings table's HTML (tournaments/views/standings_cache.py) is rendered once per
  process and version instead of once for all processes;
* a token revoked while Redis is down may be served from another process's memory until its
  ``API_TOKEN_CACHE_SECONDS`` run out, as before a revocation reached Redis.

``down()`` says whether Redis was found down recently; ``/healthz`` reports it.
"""

from __future__ import annotations

import functools
import logging
import threading
import time

from django.core.cache import caches
from django.core.cache.backends import redis as django_redis
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds between two tries of a Redis found down.
RETRY_SECONDS = 5.0
#: How long a connection to Redis, or an answer from it, may take before Redis counts as down.
SOCKET_TIMEOUT = 0.5

_SERVED_LOCALLY = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


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


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        params = dict(params)
        options = dict(params.get("OPTIONS") or {})
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._class = RedisCacheClient
        self._local = LocMemCache(f"redis-fallback-{id(self)}", params)
        self._down_until = 0.0
        self._lock = threading.Lock()

    def down(self) -> bool:
        """Whether Redis failed less than ``RETRY_SECONDS`` ago."""
        return time.monotonic() < self._down_until

    def ping(self) -> bool:
        """Ask Redis now (``/healthz``); a failure counts as any other."""
        try:
            self._cache.get_client(write=True).ping()
        except RedisError as error:
            self._failed(error)
            return False
        self._down_until = 0.0
        return True

    def _failed(self, error: Exception) -> None:
        with self._lock:
            was_up = not self.down()
            self._down_until = time.monotonic() + RETRY_SECONDS
        if was_up:
            log.error(
                "cache: Redis does not answer (%s); going on with each process's memory", error
            )


def _served_locally_when_down(name: str):
    redis_method = getattr(django_redis.RedisCache, name)

    @functools.wraps(redis_method)
    def served(self, *args, **kwargs):
        if self.down():
            return getattr(self._local, name)(*args, **kwargs)
        try:
            return redis_method(self, *args, **kwargs)
        except RedisError as error:
            self._failed(error)
            return getattr(self._local, name)(*args, **kwargs)

    return served


for _name in _SERVED_LOCALLY:
    setattr(RedisCache, _name, _served_locally_when_down(_name))


def down(alias: str = "default") -> bool:
    """Whether the cache ``alias`` is a Redis cache that does not answer (asked now)."""
    backend = caches[alias]
    return isinstance(backend, RedisCache) and not backend.ping()
