"""Reading a live stream in a test: the stream view runs in an event loop of its own thread (as
under uvicorn), through Django's ``AsyncClient``, while the test goes on calling the services
in its own thread; each Server-Sent Event read is put on a queue, parsed. The ``streams``
fixture (tests/conftest.py) opens them and hangs up after the test."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading

from django.test import AsyncClient

#: What ``next`` answers once the stream ended.
CLOSED = {"event": "closed"}


def parse(block: str) -> dict:
    """One SSE block as ``{"id", "event", "data"}`` (data parsed as JSON), or ``{"comment"}``."""
    event: dict = {}
    data = []
    for line in block.split("\n"):
        if line.startswith(":"):
            event.setdefault("comment", line[1:].strip())
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data.append(value)
        elif name in ("id", "event", "retry"):
            event[name] = value
    if data:
        event["data"] = json.loads("\n".join(data))
    return event


class Stream:
    """``GET url`` as a stream: ``status``, ``headers``, ``next()`` the next event."""

    def __init__(self, url: str, *, client=None, headers: dict | None = None, **extra) -> None:
        self.events: queue.Queue = queue.Queue()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.response = self._run(self._open(url, client, headers or {}, extra), timeout=10)
        self.status = self.response.status_code
        self.reader = None
        if getattr(self.response, "streaming", False):
            self.reader = asyncio.run_coroutine_threadsafe(self._read(), self.loop)

    def _run(self, coroutine, timeout: float):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    async def _open(self, url, client, headers, extra):
        async_client = AsyncClient(**extra)
        if client is not None:
            async_client.cookies = client.cookies
        # In English, as the sync test clients ask (tests/conftest.py english_browsers).
        return await async_client.get(url, headers={"Accept-Language": "en", **headers})

    async def _read(self) -> None:
        buffer = ""
        try:
            async for chunk in self.response.streaming_content:
                buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
                while "\n\n" in buffer:
                    block, buffer = buffer.split("\n\n", 1)
                    self.events.put(parse(block))
        finally:
            self.events.put(CLOSED)

    def next(self, timeout: float = 5.0, *, heartbeats: bool = False) -> dict:
        """The next event (``retry`` and heartbeats skipped unless asked); fails the test
        after ``timeout`` seconds without one."""
        while True:
            event = self.events.get(timeout=timeout)
            if event is CLOSED or heartbeats or "event" in event:
                return event

    def json(self) -> dict:
        return json.loads(self.response.content)

    def close(self) -> None:
        """Hang up, as a browser leaving the page does: the stream and whatever else runs on
        its loop (a Redis listener) end, their ``finally`` blocks run, the loop closes."""
        if self.thread is None:
            return
        with contextlib.suppress(BaseException):
            self._run(self._wind_up(), timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()
        self.thread = None

    async def _wind_up(self) -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
