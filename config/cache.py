"""Django's Redis cache (``CACHE_URL``), reusing its client.

Django's backend builds a new ``redis.Redis`` for every operation; each one fills a table of
about 170 response callbacks, which costs more CPU than the GET it then sends (about half of an
API request's authentication, scoring/api/authentication.py). One client per connection pool is
enough: a ``redis.Redis`` only borrows connections from its pool, and is safe to share between
threads.
"""

from django.core.cache.backends import redis as django_redis


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
        super().__init__(server, params)
        self._class = RedisCacheClient
