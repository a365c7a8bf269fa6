"""Accounts: signing up, confirming the e-mail address, and an organizer's account made from the
command line.

With ``SIGNUP=open`` a new account stays inactive until the link e-mailed to it is opened (signed
with ``django.core.signing``, valid ``PASSWORD_RESET_TIMEOUT`` seconds); an account made through
an invitation link is active at once, the link being the proof. The e-mail leaves after the
commit. Accounts belong to no club, so their creation has no club trail; what an account then
does in a club is audited there.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from scoring.links import site_url

SIGNUP_SALT = "segnapunti.signup"


def sign_up(*, username: str, email: str, password: str, verified: bool, request=None):
    """A new account; unless ``verified`` (an invitation link vouches for it) it stays inactive
    and a confirmation link is e-mailed to ``email``, made for the address ``request`` came
    in on."""
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username, email=email, password=password, is_active=verified
        )
        if not verified:
            transaction.on_commit(lambda: send_verification(user, request=request))
    return user


def send_verification(user, *, request=None) -> None:
    signed = signing.dumps({"user": user.pk, "email": user.email}, salt=SIGNUP_SALT)
    url = site_url(request, reverse("signup-verify", args=[signed]))
    body = _("Open this link to confirm your e-mail address and activate your account: %(url)s") % {
        "url": url
    }
    send_mail(
        _("Confirm your Segnapunti account"), body + "\n", settings.DEFAULT_FROM_EMAIL, [user.email]
    )


def send_password_reset(*, email: str, domain: str, use_https: bool, site: str = "") -> None:
    """Django's password-reset e-mail to every active account with ``email`` that has a usable
    password (none when no account has it), with links to ``site`` (``scoring.links.site_url``
    of the request that asked), else to ``domain``."""
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            domain_override=domain,
            use_https=use_https,
            extra_email_context={"site": site} if site else None,
        )


def verify_account(*, signed: str):
    """``(user, activated)``: the account a confirmation link names, activated if it was not
    yet; ``(None, False)`` for a link that is forged, expired or names no account."""
    try:
        data = signing.loads(signed, salt=SIGNUP_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # SignatureExpired included
        return None, False
    user = get_user_model().objects.filter(pk=data["user"], email=data["email"]).first()
    if user is None or user.is_active:
        return user, False
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user, True


def create_account(
    *, username: str, email: str, password: str | None, first_name: str = "", last_name: str = ""
):
    """An active account made by whoever runs the server (``manage.py createorganizer``);
    without a password it has none usable until a reset. The caller has validated the fields."""
    user = get_user_model()(
        username=username, email=email, first_name=first_name, last_name=last_name
    )
    if password is None:
        user.set_unusable_password()
    else:
        user.set_password(password)
    user.save()
    return user


def make_token(*, user) -> str:
    """A new API token for ``user`` (one an account: an older one is replaced), its key shown
    once by the caller."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user).key


def revoke_token(*, user) -> bool:
    """Delete ``user``'s API token: every program holding it is refused from then on. Whether
    there was one."""
    deleted, _rows = Token.objects.filter(user=user).delete()
    return bool(deleted)
