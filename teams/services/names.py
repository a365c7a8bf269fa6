"""Look-alike team names (``scoring.lookalike``): a team named as another team of the
competition reads, without being that name. One call from ``services.teams.add_team``."""

from __future__ import annotations

from scoring import lookalike
from teams.models import Team
from tournaments.models import Competition


def refuse_look_alike_team(competition: Competition, name: str) -> None:
    names = Team.objects.filter(competition=competition).values_list("name", flat=True)
    lookalike.refuse("name", name, names, reason="team_name")
