"""Fixtures shared by the competition tests of this directory."""

from __future__ import annotations

import pytest

from scoring.services import Actor
from tournaments import services

from .helpers import enter, make_competition


@pytest.fixture
def tournament(club, olga):
    """A public Terziglio tournament of club A: six entries, two rounds planned, none drawn."""
    competition = make_competition(club, olga, name="Torneo", planned_rounds=2)
    enter(competition, olga, 6)
    return competition


@pytest.fixture
def drawn(tournament, olga):
    """The tournament with round 1 added and every round drawn (seed 1)."""
    first = services.add_round(competition=tournament, by=Actor.for_user(olga))
    services.generate_round(round_=first, by=Actor.for_user(olga), seed=1)
    return tournament
