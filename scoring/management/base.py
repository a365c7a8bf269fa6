"""The base of the project's management commands: a mistake is one line on stderr.

Django already prints a ``CommandError`` as one line and exits with its status; argparse, for a
mistake on the command line itself (an unknown option, a missing argument, a value of the wrong
type), prints the whole usage first. Without the usage line the mistake is one line too
(``manage.py schedule: error: argument --players: invalid int value: 'many'``), and ``--help``
still describes every argument. ``tests/test_commands.py`` runs every command of the project
with a bad argument and checks it.
"""

from __future__ import annotations

import argparse

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    def create_parser(self, prog_name, subcommand, **kwargs):
        kwargs.setdefault("usage", argparse.SUPPRESS)
        return super().create_parser(prog_name, subcommand, **kwargs)
