"""The event bus: who publishes, who hears, and what a reconnecting screen missed.

Two buses, one interface:

- ``MemoryBus`` (no ``LIVE_REDIS_URL``): the embedded default, one process serving the whole
  site (``make run``), so the process that stores a hand is the one holding the streams. Its
  history is a bounded deque per channel.
- ``RedisBus``: production, where gunicorn's processes and Celery's workers publish and the
  stream server's processes listen. Publishing runs one Lua script: ``XADD`` to the channel's
  history (a Redis stream capped at ``LIVE_HISTORY`` entries, which also gives the event its
  id) and ``PUBLISH`` of the same event, atomically, so a listener never hears an event that
  the history does not hold yet. Each stream-server process holds ONE pub/sub connection
  (``PSUBSCRIBE`` on every channel), never one per viewer; a lost connection ends every stream
  of the process (the pages fall back to polling) and new streams are refused (503) until it is
  back.

Event ids are Redis stream ids, ``<milliseconds>-<sequence>``, in both buses: ordered within a
channel, and parsed strictly (``parse_id``) so that a ``Last-Event-ID`` that is not one of ours
is simply none.

``Hub`` is the process's registry of subscribers (each an asyncio queue on its event loop);
events reach it from any thread (``MemoryBus.publish`` runs in a view's thread) through
``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from functools import cache

from django.conf import settings

logger = logging.getLogger("segnapunti.live")

#: Redis key prefixes: the history of a channel, and its pub/sub name.
HISTORY_PREFIX = "segnapunti:live:h:"
PUBSUB_PREFIX = "segnapunti:live:p:"
#: Seconds a channel's history lives after its last event (a quiet channel costs nothing).
HISTORY_TTL = 24 * 3600
#: Events waiting for one slow screen before it is dropped (it reconnects and catches up).
QUEUE_LIMIT = 1000

_ID = re.compile(r"([0-9]{1,15})-([0-9]{1,9})", re.ASCII)


class Unavailable(Exception):
    """The bus cannot be reached (Redis down): publish nothing, open no stream."""


def parse_id(text: str | None) -> tuple[int, int] | None:
    """``"1733099999123-4"`` as ``(1733099999123, 4)``; None for anything else."""
    match = _ID.fullmatch(text or "")
    return (int(match[1]), int(match[2])) if match else None


@dataclass(frozen=True)
class Event:
    id: str
    channel: str
    kind: str
    data: dict

    @property
    def key(self) -> tuple[int, int]:
        return parse_id(self.id) or (0, 0)


#: What a subscriber's queue gets when its stream must end (the bus was lost, the queue
#: overflowed).
CLOSE = Event("0-0", "", "close", {})


@dataclass(eq=False)
class Subscription:
    channels: frozenset[str]
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)

    def push(self, event: Event) -> None:
        def put() -> None:
            event_ = CLOSE if self.queue.qsize() >= QUEUE_LIMIT else event
            self.queue.put_nowait(event_)

        with contextlib.suppress(RuntimeError):  # its loop is closed: the stream is gone
            self.loop.call_soon_threadsafe(put)


class Hub:
    """The subscribers of this process, by channel."""

    def __init__(self) -> None:
        self._by_channel: dict[str, set[Subscription]] = defaultdict(set)
        self._lock = threading.Lock()

    def subscribe(self, channels) -> Subscription:
        sub = Subscription(frozenset(channels), asyncio.get_running_loop())
        with self._lock:
            for channel in sub.channels:
                self._by_channel[channel].add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            for channel in sub.channels:
                subs = self._by_channel.get(channel)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._by_channel[channel]

    def deliver(self, event: Event) -> None:
        with self._lock:
            subs = list(self._by_channel.get(event.channel, ()))
        for sub in subs:
            sub.push(event)

    def close_all(self) -> None:
        with self._lock:
            subs = {sub for group in self._by_channel.values() for sub in group}
        for sub in subs:
            sub.push(CLOSE)

    def count(self) -> int:
        with self._lock:
            return len({sub for group in self._by_channel.values() for sub in group})


hub = Hub()


def _encode(kind: str, data: dict) -> str:
    return json.dumps({"k": kind, "d": data}, separators=(",", ":"), sort_keys=True)


def _decode(event_id: str, channel: str, payload: str | bytes) -> Event | None:
    try:
        body = json.loads(payload)
        return Event(event_id, channel, str(body["k"]), dict(body["d"]))
    except (ValueError, KeyError, TypeError):
        logger.warning("live: unreadable event %s on %s", event_id, channel)
        return None


class MemoryBus:
    """One process: publish delivers to the hub at once; a bounded history per channel."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._lock = threading.Lock()
        self._history: dict[str, deque[Event]] = {}
        # The newest event each channel dropped: a screen that saw it or less missed some.
        self._dropped: dict[str, tuple[int, int]] = {}
        self._last = (0, 0)
        #: Ids before this one were given by another process (before a restart): unknown here.
        self.started = (int(time.time() * 1000), 0)

    def publish(self, channel: str, kind: str, data: dict) -> str:
        with self._lock:
            ms = int(time.time() * 1000)
            last_ms, seq = self._last
            self._last = (last_ms, seq + 1) if ms <= last_ms else (ms, 0)
            event = Event("{}-{}".format(*self._last), channel, kind, data)
            history = self._history.setdefault(channel, deque(maxlen=self.keep))
            if len(history) == self.keep:
                self._dropped[channel] = history[0].key
            history.append(event)
        hub.deliver(event)
        return event.id

    async def ensure_listening(self) -> None:
        return None

    def cursor(self, channel: str) -> str:
        with self._lock:
            history = self._history.get(channel)
            return history[-1].id if history else "{}-{}".format(*self.started)

    def since(self, channel: str, after: tuple[int, int]) -> list[Event] | None:
        """The events of ``channel`` after ``after``; None when some may be gone."""
        with self._lock:
            if after < self.started:
                # Seen before this process started: what was published meanwhile is unknown.
                return None
            dropped = self._dropped.get(channel)
            if dropped is not None and after <= dropped:
                return None
            return [e for e in self._history.get(channel, ()) if e.key > after]


_PUBLISH = """
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', KEYS[2], id .. ' ' .. ARGV[1])
return id
"""


class RedisBus:
    """Redis: the history in a stream per channel, the fan-out through pub/sub."""

    def __init__(self, url: str, keep: int) -> None:
        import redis

        self.url, self.keep = url, keep
        self._errors = (redis.RedisError, OSError)
        # Short timeouts: with Redis down a hand is stored all the same, without waiting.
        self._client = redis.Redis.from_url(
            url, socket_timeout=0.5, socket_connect_timeout=0.5, retry_on_timeout=False
        )
        self._script = self._client.register_script(_PUBLISH)
        self._listeners: dict[asyncio.AbstractEventLoop, asyncio.Task] = {}
        self._up: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}

    def publish(self, channel: str, kind: str, data: dict) -> str:
        try:
            raw = self._script(
                keys=[HISTORY_PREFIX + channel, PUBSUB_PREFIX + channel],
                args=[_encode(kind, data), self.keep, HISTORY_TTL],
            )
        except self._errors as problem:
            raise Unavailable(str(problem)) from problem
        return raw.decode() if isinstance(raw, bytes) else str(raw)

    def cursor(self, channel: str) -> str:
        try:
            last = self._client.xrevrange(HISTORY_PREFIX + channel, count=1)
        except self._errors as problem:
            raise Unavailable(str(problem)) from problem
        return last[0][0].decode() if last else "0-0"

    def since(self, channel: str, after: tuple[int, int]) -> list[Event] | None:
        key = HISTORY_PREFIX + channel
        try:
            first = self._client.xrange(key, count=1)
            if not first or parse_id(first[0][0].decode()) > after:
                # Nothing kept, or the oldest kept came after what the screen saw: some events
                # in between may be gone.
                return None
            rows = self._client.xrange(key, min="({}-{}".format(*after), count=self.keep)
        except self._errors as problem:
            raise Unavailable(str(problem)) from problem
        events = (_decode(i.decode(), channel, fields[b"e"]) for i, fields in rows)
        return [e for e in events if e is not None]

    async def ensure_listening(self) -> None:
        """Start this event loop's listener if it is not running; Unavailable unless it is
        subscribed within a second."""
        loop = asyncio.get_running_loop()
        up = self._up.setdefault(loop, asyncio.Event())
        task = self._listeners.get(loop)
        if task is None or task.done():
            self._listeners[loop] = loop.create_task(self._listen(up))
        try:
            await asyncio.wait_for(up.wait(), timeout=1.0)
        except TimeoutError:
            raise Unavailable("not subscribed to Redis") from None

    async def _listen(self, up: asyncio.Event) -> None:
        import redis.asyncio as aioredis

        while True:
            client = aioredis.Redis.from_url(
                self.url, socket_connect_timeout=0.5, health_check_interval=5
            )
            try:
                pubsub = client.pubsub()
                await pubsub.psubscribe(PUBSUB_PREFIX + "*")
                up.set()
                logger.info("live: listening to Redis")
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    channel = message["channel"].decode()[len(PUBSUB_PREFIX) :]
                    event_id, _, payload = message["data"].decode().partition(" ")
                    event = _decode(event_id, channel, payload)
                    if event is not None:
                        hub.deliver(event)
            except self._errors as problem:
                if up.is_set():
                    logger.warning("live: Redis lost (%s); streams end, pages poll", problem)
            finally:
                up.clear()
                hub.close_all()
                with contextlib.suppress(self._errors):
                    await client.aclose()
            await asyncio.sleep(0.5)


@cache
def current_bus() -> MemoryBus | RedisBus:
    """The bus of this process, from the settings (``reset_bus`` forgets it, for tests)."""
    if settings.LIVE_REDIS_URL:
        return RedisBus(settings.LIVE_REDIS_URL, settings.LIVE_HISTORY)
    return MemoryBus(settings.LIVE_HISTORY)


def reset_bus() -> None:
    current_bus.cache_clear()
