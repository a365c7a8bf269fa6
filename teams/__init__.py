"""Competitions between teams (a palio): team rules, rosters, matches, boards, lineups, team
standings and outlook. Built on ``tournaments`` and ``scoring``; ``tournaments`` never imports it
(docs/architecture.md)."""
