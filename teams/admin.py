"""Read-only admin pages for team competitions (writes go through ``teams.services``; see
``scoring/admin.py`` for why the admin only reads)."""

from __future__ import annotations

from django.contrib import admin

from scoring.admin import ReadOnlyAdmin, ReadOnlyInline
from teams.models import RosterPlayer, Team, TeamMatch


class RosterInline(ReadOnlyInline):
    model = RosterPlayer
    fields = ("player",)


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = ("name", "competition", "club", "seed")
    list_select_related = ("competition", "club")
    search_fields = ("name",)
    inlines = [RosterInline]


@admin.register(TeamMatch)
class TeamMatchAdmin(ReadOnlyAdmin):
    list_display = ("competition", "round_number", "number", "home", "away", "date")
    list_select_related = ("competition", "home", "away")
