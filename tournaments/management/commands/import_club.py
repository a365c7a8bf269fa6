"""``manage.py import_club FILE [--slug NEW] [--keep-accounts] [--owner USERNAME]``: create a club
from a document written by ``export_club`` (``-`` reads standard input). Nothing is written if
anything is wrong.

The club's members get a new account without a usable password (they set one through
"forgotten password"). A member whose user name already has an account here is attached to the
club (a membership, the players linked to the account) only with ``--keep-accounts``: right when
the same people moved to this server, wrong for a copy of a club on its own server, whose
members would see every game twice under "My games". Without it, the command names the accounts
it left unattached; ``--owner`` makes an existing account an owner of the imported club.

A visiting club's team (and a match at its venue) stays with the club of the same address on
this server if there is one; otherwise it belongs to the imported club, under its own name."""

from __future__ import annotations

import json
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from scoring.management import base
from scoring.messages import message
from scoring.rules import RuleViolation
from tournaments.services.club_data import accounts_already_here, import_club


class Command(base.Command):
    help = (
        "Import a club exported with export_club (into an empty or a running install). Members "
        "whose user name already has an account here are attached to the club only with "
        "--keep-accounts."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the exported JSON document, or - for standard input")
        parser.add_argument("--slug", help="give the imported club another address")
        parser.add_argument(
            "--keep-accounts",
            action="store_true",
            help=(
                "attach the accounts that already exist here (same user name) to the club: their "
                "memberships and linked players. Default: left out (a copy on the same server "
                "would list every game twice in their My games)"
            ),
        )
        parser.add_argument(
            "--owner", metavar="USERNAME", help="make this existing account an owner of the club"
        )

    def handle(self, *args, file, slug=None, keep_accounts=False, owner=None, **options):
        account = None
        if owner is not None:
            account = get_user_model().objects.filter(username=owner).first()
            if account is None:
                raise CommandError(f"No account has the user name {owner!r}.")
        document = self.read(file)
        left_out = [] if keep_accounts else accounts_already_here(document)
        left_out = [name for name in left_out if name != owner]
        try:
            club = import_club(
                document=document, slug=slug, owner=account, keep_accounts=keep_accounts
            )
        except RuleViolation as refusal:
            words = " ".join(message(p) for p in refusal.problems)
            if any(p.field == "owner" for p in refusal.problems):
                words += " Give --owner USERNAME, or --keep-accounts."
            raise CommandError(words) from None
        games = club.games.count()
        self.stdout.write(f"Imported club {club.name} ({club.slug}) with {games} game(s).")
        if left_out:
            self.stdout.write(
                f"Left unattached {len(left_out)} account(s) that already existed here "
                f"({', '.join(left_out)}): not members of {club.slug}, no player linked to them "
                "(--keep-accounts attaches them)."
            )

    def read(self, file):
        try:
            source = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
        except OSError as problem:
            raise CommandError(f"Cannot read {file}: {problem.strerror}.") from None
        with source:
            try:
                return json.load(source)
            except UnicodeDecodeError:
                raise CommandError(f"{file} is not UTF-8 text: not a club export.") from None
            except json.JSONDecodeError as problem:
                raise CommandError(f"{file} is not JSON: {problem}.") from None
