"""Read-only admin pages for circuits (writes go through ``circuits.services``; see
``scoring/admin.py`` for why the admin only reads)."""

from __future__ import annotations

from django.contrib import admin

from circuits.models import Circuit, CircuitClub
from scoring.admin import ReadOnlyAdmin, ReadOnlyInline


class CircuitClubInline(ReadOnlyInline):
    model = CircuitClub
    fields = ("club", "accepted_at", "left_at")


@admin.register(Circuit)
class CircuitAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "created_at")
    list_select_related = ("club",)
    search_fields = ("name", "slug")
    inlines = [CircuitClubInline]
