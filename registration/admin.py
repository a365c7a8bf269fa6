"""Read-only admin pages for registration (writes go through ``registration.services``; see
``scoring/admin.py`` for why the admin only reads)."""

from __future__ import annotations

from django.contrib import admin

from registration.models import Registration, RegistrationSettings
from scoring.admin import ReadOnlyAdmin


@admin.register(RegistrationSettings)
class RegistrationSettingsAdmin(ReadOnlyAdmin):
    list_display = ("competition", "opens_at", "closes_at", "capacity")
    list_select_related = ("competition",)


@admin.register(Registration)
class RegistrationAdmin(ReadOnlyAdmin):
    list_display = ("name", "competition", "status", "created_at")
    list_filter = ("status",)
    list_select_related = ("competition",)
    search_fields = ("name",)
