"""Read-only admin pages for competitions: settings, entries, rounds with their tables, the
organizer's adjustments and the competition's event trail. Writes go through
``tournaments.services`` (see ``scoring/admin.py`` for why the admin only reads)."""

from __future__ import annotations

from django.contrib import admin

from scoring.admin import ReadOnlyAdmin, ReadOnlyInline
from tournaments.models import (
    Adjustment,
    Competition,
    CompetitionEvent,
    Entry,
    Round,
    Table,
    TableSeat,
)


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("player", "partner", "seed", "status")


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "ruleset", "status", "date", "start_time")
    show_change_link = True


@admin.register(Competition)
class CompetitionAdmin(ReadOnlyAdmin):
    list_display = ("name", "club", "kind", "format", "public", "created_at")
    list_filter = ("kind", "format", "public", "club")
    list_select_related = ("club",)
    search_fields = ("name", "slug")
    inlines = [EntryInline, RoundInline]


class TableInline(ReadOnlyInline):
    model = Table
    fields = ("number", "game", "forfeited")
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("competition", "number", "ruleset", "status", "date")
    list_filter = ("status", "ruleset")
    list_select_related = ("competition",)
    inlines = [TableInline]


class TableSeatInline(ReadOnlyInline):
    model = TableSeat


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "game")
    list_select_related = ("round__competition", "game")
    inlines = [TableSeatInline]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("competition", "entry", "points", "reason", "by", "at")
    list_select_related = ("competition", "entry__player", "by")


@admin.register(CompetitionEvent)
class CompetitionEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "competition", "round", "action", "actor")
    list_filter = ("action",)
    list_select_related = ("competition", "round", "actor")
    date_hierarchy = "at"
