"""Registration pages: the organizer's under /c/<club>/k/<competition>/registration/, the
registrant's form, check-in and e-mailed links."""

from django.urls import path

from registration import streams, views

urlpatterns = [
    path(
        "c/<slug:club_slug>/k/<slug:slug>/registration/",
        views.registration_page,
        name="competition-registration",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/registration/poster/",
        views.registration_poster,
        name="registration-poster",
    ),
    path(
        "c/<slug:club_slug>/k/<slug:slug>/registration/check-in-poster/",
        views.registration_poster,
        {"kind": "check-in"},
        name="registration-check-in-poster",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/register/",
        views.register_page,
        name="registration-register",
    ),
    path(
        "p/<slug:club_slug>/<slug:slug>/check-in/",
        views.check_in_page,
        name="registration-check-in",
    ),
    path("r/<str:token>/", views.registration_link, name="registration-link"),
    path("r/<str:token>/events/", streams.registration_stream, name="registration-stream"),
]
