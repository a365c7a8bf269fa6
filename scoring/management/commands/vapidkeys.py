"""``manage.py vapidkeys``: a new VAPID key pair for Web Push, as the environment takes it::

    VAPID_PUBLIC_KEY=B...
    VAPID_PRIVATE_KEY=...

Put the two lines in the environment (deploy/env.example) once: a new pair makes every device's
subscription useless (the browsers subscribed with the old public key), so keep it.
``make run`` writes one to ``.vapid.env`` for development the first time it runs.
"""

from __future__ import annotations

from config.push import new_keys
from scoring.management import base


class Command(base.Command):
    help = "Print a new VAPID key pair for Web Push, as environment lines."

    def handle(self, *args, **options):
        public, private = new_keys()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\nVAPID_PRIVATE_KEY={private}")
