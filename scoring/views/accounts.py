"""Accounts: logging in (throttled), signing up (``SIGNUP``), and a person's own games.

Logging in and the password reset are Django's own views (the reset's e-mailed link on the
address of the request, ``scoring.links``); the login here is throttled
(``scoring.throttles``): while the account or the address must wait, the password is not
checked and the page says how long to wait (429). Signing up is ``scoring.services.accounts``:
with ``SIGNUP=open`` the account stays inactive until the link e-mailed to it is opened; an
invitation link (``SIGNUP`` open or invitation) makes an active account at once, the link
being the proof.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms.utils import ErrorDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import selectors, services, throttles
from scoring.forms.accounts import SignupForm
from scoring.links import site_url
from scoring.messages import message
from scoring.services import members

BACKEND = "django.contrib.auth.backends.ModelBackend"


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, its e-mailed link made by ``scoring.links`` (``SITE_URL`` when
    set, else the address the request came in on) rather than from the bare host name."""

    def form_valid(self, form):
        self.extra_email_context = {"site": site_url(self.request, "/").rstrip("/")}
        return super().form_valid(form)


class LoginView(auth_views.LoginView):
    """Django's login page, throttled, linking to the password reset and, when open, the
    sign-up."""

    def post(self, request, *args, **kwargs):
        guard = throttles.login_guard(request, request.POST.get("username", ""))
        wait = guard.wait()
        if wait:
            form = self.get_form()
            form.cleaned_data, form._errors = {}, ErrorDict()
            form.add_error(None, message(throttles.throttled("username", wait)))
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(wait)
            return response
        guard.attempt()
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:
            guard.succeed()
        return response

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"signup_open": settings.SIGNUP == "open"}


def signup(request):
    token = request.GET.get("invitation") or request.POST.get("invitation") or ""
    invitation = members.find_invitation(token) if token else None
    by_invitation = invitation is not None and members.refusal(invitation) is None
    allowed = settings.SIGNUP == "open" or (settings.SIGNUP == "invitation" and by_invitation)
    if request.user.is_authenticated:
        return redirect("invitation", token=token) if by_invitation else redirect("home")
    if not allowed:
        return render(request, "registration/signup_closed.html", status=403)
    form = SignupForm(
        request.POST or None, initial={"email": invitation.email if by_invitation else ""}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = services.sign_up(
            username=data["username"],
            email=data["email"],
            password=data["password1"],
            verified=by_invitation,
            request=request,
        )
        if by_invitation:
            login(request, user, backend=BACKEND)
            return redirect("invitation", token=token)
        return render(request, "registration/signup_sent.html", {"email": user.email})
    return render(
        request,
        "registration/signup.html",
        {"form": form, "invitation": invitation if by_invitation else None, "token": token},
        status=400 if form.errors else 200,
    )


def signup_verify(request, signed: str):
    user, activated = services.verify_account(signed=signed)
    if user is None:
        return render(request, "registration/signup_invalid.html", status=400)
    if activated:
        login(request, user, backend=BACKEND)
        messages.success(request, _("Your account is active. Welcome!"))
    return redirect("home")


@login_required
def my_games(request):
    """The games of the players linked to the account, in every club."""
    games, players = selectors.games_of_user(request.user)
    # With no player yet: a link to the players page of each club, where "This is me" is.
    clubs = [] if players else [c for c, role in selectors.clubs_for(request.user) if role]
    return render(
        request, "scoring/my_games.html", {"games": games, "players": players, "clubs": clubs}
    )
