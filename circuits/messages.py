"""The circuits' refusals, each naming the field at fault, registered with ``scoring.messages``
(imported by the app's ``AppConfig.ready``)."""

from django.utils.translation import gettext_lazy

from scoring.messages import register

#: The circuits' refusals (``services.circuits``), each naming the club or the field at fault.
CIRCUIT_REASONS = {
    ("duplicate", "circuit_slug"): gettext_lazy(
        "Another circuit of the club already uses the address “%(value)s”."
    ),
    ("inconsistent", "points_negative"): gettext_lazy(
        "Points by place: no place may earn negative points."
    ),
    ("inconsistent", "points_increasing"): gettext_lazy(
        "Points by place: a place may not earn more than the place before it."
    ),
    ("required", "points_empty"): gettext_lazy(
        "Points by place: give the points of first place at least, or leave it empty for the "
        "field rule."
    ),
    ("range", "best_of"): gettext_lazy(
        "Count the best N results: at least 1 (leave it empty to count every result)."
    ),
    ("range", "min_events"): gettext_lazy(
        "Minimum attendance: a number from 0 to %(max)s, not %(value)s."
    ),
    ("not_allowed", "club_not_joined"): gettext_lazy(
        "%(club)s has not joined this circuit: its owner or an organizer must accept the "
        "invitation first."
    ),
    ("not_allowed", "not_club_manager"): gettext_lazy(
        "Only the owner or an organizer of %(club)s may do this for %(club)s."
    ),
    ("not_allowed", "organizing_club"): gettext_lazy(
        "%(club)s organizes this circuit: it cannot be invited to it or leave it."
    ),
    ("duplicate", "club_in_circuit"): gettext_lazy("%(club)s is already invited to this circuit."),
    ("not_allowed", "not_invited"): gettext_lazy(
        "%(club)s has no invitation to accept in this circuit."
    ),
    ("not_allowed", "not_a_member"): gettext_lazy("%(club)s is not in this circuit."),
    ("duplicate", "competition_in_circuit"): gettext_lazy(
        "%(competition)s is already part of this circuit: a competition counts once."
    ),
    ("not_found", "competition"): gettext_lazy("There is no such competition."),
    ("not_found", "club"): gettext_lazy("There is no club with the address “%(value)s”."),
    ("not_found", "circuit_player"): gettext_lazy(
        "%(field)s: this player belongs to no club of this circuit."
    ),
    ("not_allowed", "same_player"): gettext_lazy("A player cannot be linked to himself."),
    ("not_allowed", "same_club"): gettext_lazy(
        "These two players are of the same club (%(club)s): link players of two clubs."
    ),
    ("duplicate", "link"): gettext_lazy("These two players are already one person here."),
    ("not_found", "link"): gettext_lazy("There is no such link in this circuit."),
}

register(reasons=CIRCUIT_REASONS)
