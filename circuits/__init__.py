"""Circuits: a season of competitions of one club or several, their clubs, points, standings and
outlook. Built on ``tournaments``; ``tournaments`` never imports it (docs/architecture.md)."""
