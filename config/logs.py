"""Log formats: timestamps in UTC (ISO 8601, milliseconds, ``Z``) whatever the club's time zone,
as text or as JSON lines (``LOG_FORMAT=json``) for log collectors."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime


def _utc(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class UTCFormatter(logging.Formatter):
    def formatTime(self, record, datefmt=None):
        return _utc(record)


class JSONLinesFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": _utc(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)
