"""The e-mail backend of bench/chaos.py's server and workers (``EMAIL_BACKEND`` names it by its
dotted path): each message takes ``CHAOS_MAIL_DELAY`` seconds, as an SMTP server's answer does
(so that a mailing lasts long enough to kill its worker in the middle), then one JSON line per
recipient is appended to ``CHAOS_MAIL_LOG`` and flushed to disk before the send returns: what a
process killed afterwards has sent is in the file, whatever happens to it."""

from __future__ import annotations

import json
import os
import time

from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(BaseEmailBackend):
    def send_messages(self, email_messages) -> int:
        path = os.environ["CHAOS_MAIL_LOG"]
        delay = float(os.environ.get("CHAOS_MAIL_DELAY", "0.1"))
        sent = 0
        for message in email_messages:
            time.sleep(delay)
            lines = "".join(
                json.dumps({"to": to, "subject": message.subject, "pid": os.getpid()}) + "\n"
                for to in message.recipients()
            )
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, lines.encode())
                os.fsync(fd)
            finally:
                os.close(fd)
            sent += 1
        return sent
