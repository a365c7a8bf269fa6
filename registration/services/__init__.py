"""The registration services, called as ``from registration import services`` then
``services.register(...)``, as every app's services are."""

from registration.services.checkin import check_in_self, close_check_in, open_check_in
from registration.services.refusals import note_refusal
from registration.services.registration import (
    EMAIL_MAX,
    NAME_MAX,
    NOTE_MAX,
    close_registration,
    confirm_partner,
    confirm_registration,
    find_link,
    link_refusal,
    register,
    set_registration,
)
from registration.services.waiting_list import (
    merge_player,
    promote,
    reorder_waiting,
    withdraw_registration,
)

__all__ = [
    "EMAIL_MAX",
    "NAME_MAX",
    "NOTE_MAX",
    "check_in_self",
    "close_check_in",
    "close_registration",
    "confirm_partner",
    "confirm_registration",
    "find_link",
    "link_refusal",
    "merge_player",
    "note_refusal",
    "open_check_in",
    "promote",
    "register",
    "reorder_waiting",
    "set_registration",
    "withdraw_registration",
]
