"""Accounts: logging in (throttled), signing up (``SIGNUP``), and a person's own games.

Logging in and the password reset are Django's own views (the reset's e-mailed link on the
address of the request, ``scoring.links``), throttled here
(``scoring.throttles``): while the account or the address must wait, the password is not
checked and the page says how long to wait (429); ``/admin/login/`` counts with ``/login/``. A
password-reset e-mail leaves from a task queued after the answer, so the answer is the same for
any address. Signing up is ``scoring.services.accounts``: with ``SIGNUP=open`` the account
stays inactive until the link e-mailed to it is opened; an invitation link (``SIGNUP`` open or
invitation) makes an active account at once, the link being the proof.
"""

from __future__ import annotations

import functools
import logging

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.forms.utils import ErrorDict
from django.http import HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import rates, selectors, services, tasks, throttles
from scoring.forms.accounts import SignupForm
from scoring.links import site_url
from scoring.messages import message
from scoring.services import members, push
from scoring.services.queue import BROKER_DOWN

BACKEND = "django.contrib.auth.backends.ModelBackend"
log = logging.getLogger(__name__)


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


def admin_login(request):
    """The admin's login page (``/admin/login/``), throttled as ``/login/`` is and counting
    against the same keys (one account, one address): Django's ``AdminSite.login`` with this
    module's view in place of Django's."""
    site = admin.site
    if request.method == "GET" and site.has_permission(request):
        return redirect("admin:index")
    context = {
        **site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }
    if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
        context[REDIRECT_FIELD_NAME] = reverse("admin:index", current_app=site.name)
    request.current_app = site.name
    view = LoginView.as_view(
        extra_context=context,
        authentication_form=site.login_form or AdminAuthenticationForm,
        template_name=site.login_template or "admin/login.html",
    )
    return view(request)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset form, throttled per address asked about and per client
    (``throttles.reset_guard``), whose e-mail leaves from a task
    (``scoring.tasks.send_password_reset``) queued once the answer is sent (``ThenSend``): the
    request does the same work whether or not an account has the address, so neither the
    answer nor its time tells which. Its link is made by ``scoring.links`` (``SITE_URL`` when
    set, else the address the request came in on)."""

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        guard = throttles.reset_guard(self.request, email)
        wait = guard.wait()
        if wait:
            form.add_error("email", message(throttles.throttled("email", wait, reset=True)))
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(wait)
            return response
        guard.attempt()
        send = functools.partial(
            tasks.send_password_reset.delay,
            email,
            domain=self.request.get_host(),
            use_https=self.request.is_secure(),
            site=site_url(self.request, "/").rstrip("/"),
        )
        return ThenSend(self.get_success_url(), send)


class ThenSend(HttpResponseRedirect):
    """A redirect that queues the password-reset e-mail once it has been sent to the client
    (the server closes a response after writing it): even when tasks run eagerly (no broker),
    looking the address up and sending the mail happen after the answer, not before it."""

    def __init__(self, url: str, then):
        super().__init__(url)
        self.then = then

    def close(self):
        """Called by the server once the answer is written; the mail first, then Django's
        end of request (which closes the database connection the lookup may use)."""
        try:
            self.then()
        except BROKER_DOWN:  # the answer is gone; the person may ask again
            log.exception("password reset e-mail not queued")
        finally:
            super().close()


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
    refusal = None
    if request.method == "POST" and form.is_valid():
        # Limited per address and e-mail address, and per invitation (scoring.rates): a 429.
        email, vouching = form.cleaned_data["email"], invitation if by_invitation else None
        refusal = rates.signup_quota(request, email, vouching).take()
        if refusal is None:
            return _sign_up(request, form.cleaned_data, by_invitation, token)
        form.add_error(None, message(refusal.problem))
    response = render(
        request,
        "registration/signup.html",
        {"form": form, "invitation": invitation if by_invitation else None, "token": token},
        status=400 if form.errors else 200,
    )
    return rates.page_refusal(response, refusal) if refusal is not None else response


def _sign_up(request, data, by_invitation: bool, token: str):
    """The account of a valid sign-up form: active and signed in by an invitation, else
    waiting for the link e-mailed to it."""
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
    # The notifications button: for a linked player, where Web Push is configured.
    push_key = settings.VAPID_PUBLIC_KEY if players and push.enabled() else ""
    context = {"games": games, "players": players, "clubs": clubs, "push_key": push_key}
    return render(request, "scoring/my_games.html", context)


#: The session key of a token just made, until its page shows it.
NEW_TOKEN = "segnapunti.new_token"


@login_required
def my_token(request):
    """The account's API token (``docs/api.md``): whether it has one, a button to make one (its
    key shown this once: only a new one can be shown again) and one to revoke it, after which
    every program holding it is refused. Each button redirects (a reload sends nothing again);
    a new key waits in the session for that one page, which takes it out."""
    error, status = None, 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "create":
            request.session[NEW_TOKEN] = services.make_token(user=request.user)
            return redirect("my-token")
        if action == "revoke":
            if services.revoke_token(user=request.user):
                messages.success(request, _("The token is revoked: programs using it are refused."))
            return redirect("my-token")
        error, status = _("Choose one of the buttons."), 400
    key = request.session.pop(NEW_TOKEN, None)
    context = {"has_token": selectors.has_api_token(request.user), "key": key, "error": error}
    response = render(request, "scoring/my_token.html", context, status=status)
    response["Cache-Control"] = "no-store"  # the key is shown once: never kept by a cache
    return response
