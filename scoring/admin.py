"""Read-only admin pages for the scoring side: clubs with their members, players, games with
their seats and hands, and the audit trail.

Every write in Segnapunti goes through a service (``scoring.services``), which checks the rules,
locks rows and writes the audit event in the same transaction. The admin would bypass all of
that, so it only *reads*: a superuser can look a club's data up when something needs explaining,
and changes it through the pages, the API or the management commands like everybody else.
"""

from __future__ import annotations

from django.contrib import admin

from scoring.models import AuditEvent, Club, Game, Hand, Membership, Player, Seat


class ReadOnlyMixin:
    """No add, change or delete: the admin is a window, the services are the door."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnlyMixin, admin.TabularInline):
    extra = 0
    show_change_link = False


class MembershipInline(ReadOnlyInline):
    model = Membership
    fields = ("user", "role")


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "slug", "language", "time_zone", "results_public", "created_at")
    list_filter = ("results_public", "language")
    search_fields = ("name", "slug")
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "role")
    list_filter = ("role", "club")
    list_select_related = ("club", "user")
    search_fields = ("user__username", "club__name")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("display_name", "club", "user", "active", "created_at")
    list_filter = ("active", "club")
    list_select_related = ("club", "user")
    search_fields = ("display_name",)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "player", "side")


class HandInline(ReadOnlyInline):
    model = Hand
    fields = ("number", "document", "deltas", "version", "entered_by", "entered_via", "updated_at")
    ordering = ("number",)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "club", "ruleset", "title", "status", "hand_count", "created_at")
    list_filter = ("ruleset", "status", "club")
    list_select_related = ("club",)
    search_fields = ("title", "seats__player__display_name")
    date_hierarchy = "created_at"
    inlines = [SeatInline, HandInline]


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = ("at", "club", "game", "hand_number", "action", "actor", "via")
    list_filter = ("action", "via", "club")
    list_select_related = ("club", "game", "actor")
    date_hierarchy = "at"
