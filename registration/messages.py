"""Registration's refusals, each naming the field at fault, registered with ``scoring.messages``
(imported by the app's ``AppConfig.ready``)."""

from django.utils.translation import gettext_lazy

from scoring.messages import register

#: Registration, its waiting list and self check-in (issue 24).
REGISTRATION = {
    ("not_allowed", "registration_none"): gettext_lazy(
        "Registration is not open for this competition."
    ),
    ("not_allowed", "registration_not_open"): gettext_lazy(
        "Registration has not opened yet: it opens on %(value)s."
    ),
    # Past its deadline or closed by hand: the registrant needs only to know it is closed.
    ("not_allowed", "registration_closed"): gettext_lazy("Registration is closed."),
    ("not_allowed", "registration_full"): gettext_lazy(
        "Every place is taken and there is no waiting list."
    ),
    ("required", "account_required"): gettext_lazy(
        "Only people with an account may register: sign in first."
    ),
    ("not_allowed", "members_only"): gettext_lazy(
        "Only members of the club may register for this competition."
    ),
    ("duplicate", "already_registered_account"): gettext_lazy(
        "You are already registered for this competition."
    ),
    ("duplicate", "already_registered"): gettext_lazy(
        "%(value)s is already registered for this competition."
    ),
    ("duplicate", "partner_registered"): gettext_lazy(
        "Your partner (%(value)s) is already registered for this competition."
    ),
    ("duplicate", "partner_is_you"): gettext_lazy(
        "Your partner's e-mail address must be another than yours."
    ),
    ("invalid", "email"): gettext_lazy("%(value)s is not an e-mail address."),
    ("invalid", "moment"): gettext_lazy(
        "%(field)s: write a date and time with its offset, as 2026-05-01T18:00:00+02:00."
    ),
    ("inconsistent", "closes_before_it_opens"): gettext_lazy(
        "Registration must close after it opens."
    ),
    ("not_found", "registration_link"): gettext_lazy(
        "This link is not valid: check that it was copied whole."
    ),
    ("not_allowed", "link_used"): gettext_lazy("This link was already used: it works once."),
    ("not_allowed", "link_expired"): gettext_lazy("This link has expired."),
    ("not_allowed", "registration_withdrawn"): gettext_lazy("This registration was withdrawn."),
    ("not_allowed", "no_partner_to_confirm"): gettext_lazy(
        "This registration is not waiting for a partner's confirmation."
    ),
    ("not_allowed", "not_waiting"): gettext_lazy("This registration is not on the waiting list."),
    ("inconsistent", "waiting_order"): gettext_lazy(
        "List every registration on the waiting list once: %(value)s."
    ),
    ("not_allowed", "not_entered"): gettext_lazy("This registration has no place (yet)."),
    ("not_allowed", "check_in_not_open"): gettext_lazy(
        "Check-in is not open: the organizer opens it at the venue."
    ),
    ("required", "check_in_who"): gettext_lazy(
        "Open the link of your registration e-mail, or sign in, to check in."
    ),
    ("not_found", "check_in_not_entered"): gettext_lazy(
        "Your account has no place in this competition."
    ),
    ("look_alike", "registrant_name"): gettext_lazy(
        "“%(value)s” reads as “%(existing)s”, registered or a player of the club already, but is"
        " written with %(character)s: write the name as it is written there, or one that reads"
        " differently."
    ),
    # Beyond a rate of public registration (registration/rates.py).
    ("throttled", "registration_address"): gettext_lazy(
        "Too many registrations were sent from your address: wait %(wait)s and try again."
    ),
    ("throttled", "registration_email"): gettext_lazy(
        "Too many registrations were sent for %(value)s: wait %(wait)s and try again."
    ),
    ("throttled", "registration_competition"): gettext_lazy(
        "This competition is taking too many registrations at once: wait %(wait)s and try again."
    ),
}

register(reasons=REGISTRATION)
