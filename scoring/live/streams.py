"""A subscription as a ``text/event-stream`` answer (Server-Sent Events).

``open_stream`` is what every stream view returns once it has decided that the requester may
read the thing (a 404 otherwise, like its page). The answer:

1. ``retry:`` (how long a browser waits before reconnecting on its own);
2. the first event, by what the screen says it saw (``Last-Event-ID``, or ``?last=`` for a
   client that cannot set headers):

   - nothing, or an id that is not one of ours: ``hello``, the current state (``first()``);
   - an id whose later events are all kept: those events, as they were sent;
   - an id older than what is kept: ``reload``, the current state (the screen fetches it all);

3. then every event of its channels as it is published, each with its ``id:``, passed through
   ``shape`` (which may drop one, rewrite it for this reader, or end the stream), and a comment
   every ``LIVE_HEARTBEAT_SECONDS`` while nothing happens (proxies close silent connections).

A stream ends at ``deadline`` (the end of the session that opened it, checked at each
heartbeat), on an ``end`` event of its ``control`` channels (a logout, a revoked token), when
``shape`` says so, or when the bus is lost (its pages poll until they can stream again).

Events subscribed to before the state is read, and dropped when they are not newer than the
channel's cursor read after it: nothing falls between the two, nothing comes twice.

Each address may hold ``LIVE_STREAMS_PER_CLIENT`` streams at once in a process (429 past it);
``open_streams`` counts them.

An idle stream holds no database connection: Django closes a request's connection when the
response ends, which for a stream is when the viewer leaves, so every database read of a stream
goes through ``read`` (its connection closed at once), and the connection the page's middleware
and access checks opened is closed before the first event.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import weakref
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpResponse, StreamingHttpResponse

from scoring.live.bus import CLOSE, Event, Unavailable, current_bus, hub, parse_id

#: What ``shape`` answers to end the stream.
END = object()
#: Milliseconds a browser waits before it reconnects by itself; and where the server cannot
#: hold a stream (WSGI), before it asks again.
RETRY_MS = 2000
ONCE_RETRY_MS = 5000

#: Streams open per client address in this process.
open_streams: Counter[str] = Counter()
_count_lock = threading.Lock()


@dataclass
class Outgoing:
    """One event as sent: its kind and body (an ``Event`` rewritten by ``shape``)."""

    kind: str
    data: dict
    #: the stream ends once this event is sent
    final: bool = False


def frame(kind: str, data: dict, event_id: str | None = None) -> str:
    lines = [f"id: {event_id}"] if event_id else []
    lines.append(f"event: {kind}")
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    lines.extend(f"data: {line}" for line in body.splitlines() or [""])
    return "\n".join(lines) + "\n\n"


def last_seen(request) -> tuple[int, int] | None:
    """What the screen says it saw last: ``Last-Event-ID`` (a browser's reconnect) or
    ``?last=``; None for anything that is not one of our ids."""
    return parse_id(request.headers.get("Last-Event-ID") or request.GET.get("last"))


#: The error code of each refusal, as the API's (``scoring.api.errors``).
REFUSAL_CODES = {
    401: "authentication_failed",
    403: "permission_denied",
    404: "not_found",
    429: "throttled",
    503: "unavailable",
}


def refused(status: int, message: str, *, retry_after: int | None = None) -> HttpResponse:
    """A refusal in the API's one error shape, ``{"errors": [{hand, field, code, message}]}``
    (the streams are declared in /api/schema/ with it)."""
    error = {"hand": None, "field": None, "code": REFUSAL_CODES.get(status, "error")}
    response = HttpResponse(
        json.dumps({"errors": [error | {"message": message}]}),
        status=status,
        content_type="application/json",
    )
    if status == 401:
        response["WWW-Authenticate"] = "Token"
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


Shape = Callable[[Event], Awaitable[Outgoing | object | None]]


def _close_connections() -> None:
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:  # a test's transaction (a stream's never is one)
            connection.close()


def _closing(function, *args):
    try:
        return function(*args)
    finally:
        _close_connections()


async def read(function, *args, thread_sensitive: bool = False, executor=None):
    """``function(*args)`` in a thread, its database connections closed once it returns: a
    stream keeps none open while it waits. ``thread_sensitive``: in the request's own thread
    (where the page's lookups ran), for a stream view's access checks; ``executor``: in one of
    its threads."""
    if thread_sensitive:
        return await sync_to_async(_closing, thread_sensitive=True)(function, *args)
    call = sync_to_async(_closing, thread_sensitive=False, executor=executor)
    return await call(function, *args)


async def open_stream(
    request,
    opening,
    *,
    channel: str,
    first: Callable[[], Awaitable[dict]],
    shape: Shape | None = None,
) -> HttpResponse:
    """The event stream of ``channel`` for this request, or a refusal (429, 503).
    ``opening``: what the view decided (``scoring.views.live.Opening``): the client's
    ``address``, the ``control`` channels whose ``end`` ends the stream, its ``deadline``."""
    address, control, deadline = opening.address, opening.control, opening.deadline
    limit = settings.LIVE_STREAMS_PER_CLIENT
    with _count_lock:
        if open_streams[address] >= limit:
            return refused(
                429, f"At most {limit} live streams at once from one address.", retry_after=10
            )
        open_streams[address] += 1
    ticket = Ticket(address)
    try:
        stream_bus = current_bus()
        await stream_bus.ensure_listening()
        ticket.sub = hub.subscribe({channel, *control})
        seen = last_seen(request)
        cursor, missed = await read(_opening, stream_bus, channel, seen)
    except Unavailable:
        ticket.release()
        return refused(503, "Live updates are unavailable for now.", retry_after=5)
    except BaseException:
        ticket.release()
        raise
    # Served by a WSGI server (gunicorn, runserver, a test's live server) the answer would be
    # collected whole before it is sent, holding a thread for ever: there it is the first
    # event(s) only, and the browser asks again after ``retry`` (long polling, in effect).
    once = not isinstance(request, ASGIRequest)
    events = _events(ticket, channel, cursor, missed, seen, first, shape, deadline, once)
    # An answer never read (its client gone before the first byte) gives its place back too.
    weakref.finalize(events, ticket.release)
    response = StreamingHttpResponse(events, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"
    return response


def _opening(stream_bus, channel: str, seen):
    """The channel's cursor and what the screen missed (None: too much, or nothing known)."""
    cursor = stream_bus.cursor(channel)
    missed = stream_bus.since(channel, seen) if seen is not None else None
    return cursor, missed


async def _let_go_of_the_request_thread() -> None:
    """Under ASGI, Django runs a request's middleware and its thread-sensitive calls (the
    access check) in a thread of the request's own, kept until the response ends: for a
    stream, one idle thread and one open database connection per viewer for as long as it
    watches (bench/live.py ran PostgreSQL out of connections at 200 streams, and measured
    about 200 KB of memory a stream). Called once the middleware has answered (the stream's
    first iteration): the connection is closed in that thread, and the thread let go. The
    stream queries nothing while idle; what it renders later runs in the shared executor
    (``thread_sensitive=False``); the end of the response (Django's ``request_finished``) gets
    a thread of its own again."""
    await sync_to_async(_close_connections, thread_sensitive=True)()
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is not None:
        executor = SyncToAsync.context_to_thread_executor.pop(context, None)
        if executor is not None:
            executor.shutdown(wait=False)


class Ticket:
    """A stream's place: its address's count and its subscription, given back once."""

    def __init__(self, address: str) -> None:
        self.address, self.sub, self._held = address, None, True

    def release(self) -> None:
        with _count_lock:
            if not self._held:
                return
            self._held = False
            open_streams[self.address] -= 1
            if open_streams[self.address] <= 0:
                del open_streams[self.address]
        if self.sub is not None:
            hub.unsubscribe(self.sub)


async def _events(
    ticket, channel, cursor, missed, seen, first, shape, deadline, once=False
) -> AsyncIterator[str]:
    heartbeat = settings.LIVE_HEARTBEAT_SECONDS
    last = parse_id(cursor) or (0, 0)
    try:
        await _let_go_of_the_request_thread()
        yield f"retry: {ONCE_RETRY_MS if once else RETRY_MS}\n\n"
        if seen is None or missed is None:
            state = await first()
            yield frame("hello" if seen is None else "reload", state, cursor)
        else:
            for event in missed:
                text, stop = await _said(event, shape)
                if text:
                    yield text
                if stop:
                    return
                last = max(last, event.key)
        while not once:
            try:
                event = await asyncio.wait_for(ticket.sub.queue.get(), timeout=heartbeat)
            except TimeoutError:
                if deadline is not None and time.time() >= deadline:
                    return
                yield ": heartbeat\n\n"
                continue
            if event is CLOSE:
                return
            if event.kind == "end":  # the login, the token or the account ended
                yield frame("end", event.data)
                return
            if event.channel != channel:  # a control channel says nothing else
                continue
            if event.key <= last:
                continue  # already in the state sent first
            last = event.key
            text, stop = await _said(event, shape)
            if text:
                yield text
            if stop:
                return
    finally:
        ticket.release()


async def _said(event: Event, shape: Shape | None) -> tuple[str | None, bool]:
    """What the stream sends for ``event`` (None: nothing) and whether it ends there."""
    out = Outgoing(event.kind, event.data) if shape is None else await shape(event)
    if out is END:
        return None, True
    if out is None:
        return None, False
    return frame(out.kind, out.data, event.id), out.final
