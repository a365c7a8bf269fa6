"""Registration API under /api/v1/."""

from django.urls import path

from registration.api import registration as api

COMPETITION = "competitions/<int:competition_id>"
ROUND = f"{COMPETITION}/rounds/<int:number>"

urlpatterns = [
    # Registration (issue 24).
    path(
        f"{COMPETITION}/registration/",
        api.RegistrationSettingsView.as_view(),
        name="api-registration",
    ),
    path(
        f"{COMPETITION}/registration/close/",
        api.RegistrationClose.as_view(),
        name="api-registration-close",
    ),
    path(
        f"{COMPETITION}/registrations/",
        api.Registrations.as_view(),
        name="api-registrations",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/withdraw/",
        api.RegistrationWithdraw.as_view(),
        name="api-registration-withdraw",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/promote/",
        api.RegistrationPromote.as_view(),
        name="api-registration-promote",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/confirm-partner/",
        api.RegistrationConfirmPartner.as_view(),
        name="api-registration-confirm-partner",
    ),
    path(
        f"{COMPETITION}/registrations/<int:registration_id>/merge/",
        api.RegistrationMerge.as_view(),
        name="api-registration-merge",
    ),
    path(
        f"{COMPETITION}/waiting-list/",
        api.WaitingList.as_view(),
        name="api-waiting-list",
    ),
    path(
        f"{ROUND}/self-check-in/",
        api.CheckInWindowView.as_view(),
        name="api-round-self-check-in",
    ),
    path(
        "registrations/confirm/",
        api.RegistrationConfirm.as_view(),
        name="api-registration-confirm",
    ),
    path(
        "registrations/withdraw/",
        api.RegistrationWithdrawByLink.as_view(),
        name="api-registration-withdraw-by-link",
    ),
    path(
        "registrations/check-in/",
        api.SelfCheckIn.as_view(),
        name="api-registration-check-in",
    ),
]
