"""``manage.py createorganizer USERNAME --email E [--password-from-env VAR]``: the first account
of a fresh install, for scripted set-ups. Without a password source it asks twice on a terminal;
``--no-password`` makes an account that sets its password through "forgotten password"."""

from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.core.validators import validate_email

from scoring import services
from scoring.management import base


class Command(base.Command):
    help = "Create an organizer's account (then `createclub` makes them the owner of a club)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", required=True)
        parser.add_argument("--first-name", default="")
        parser.add_argument("--last-name", default="")
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--password-from-env",
            metavar="VAR",
            help="read the password from this environment variable (never from the command line)",
        )
        source.add_argument(
            "--no-password", action="store_true", help="no usable password until a reset"
        )

    def handle(self, *args, username, email, first_name, last_name, **options):
        users = get_user_model()
        if users.objects.filter(username=username).exists():
            raise CommandError(f"The user name {username!r} is already taken.")
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{email!r} is not an e-mail address.") from None
        user = users(username=username, email=email, first_name=first_name, last_name=last_name)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as problems:
            raise CommandError(" ".join(problems.messages)) from None
        password = self.password(options)
        if password is not None:
            try:
                password_validation.validate_password(password, user)
            except ValidationError as problems:
                raise CommandError(" ".join(problems.messages)) from None
        services.create_account(
            username=username,
            email=email,
            password=password,
            first_name=first_name,
            last_name=last_name,
        )
        self.stdout.write(f"Created the organizer account {username}.")

    def password(self, options) -> str | None:
        if options["no_password"]:
            return None
        variable = options["password_from_env"]
        if variable:
            value = os.environ.get(variable)
            if not value:
                raise CommandError(f"The environment variable {variable} is empty or not set.")
            return value
        if not self.stdin_is_a_terminal():
            raise CommandError(
                "No terminal to ask the password on: use --password-from-env VAR or --no-password."
            )
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ.")
        return first

    def stdin_is_a_terminal(self) -> bool:
        return os.isatty(0)
