"""Putting a ``RuleViolation`` next to the form field it names: the one way for the forms of
both apps (hand forms, competition forms).

A problem's ``field`` is a path of the document a service read (``soloist_cards.aces``,
``points[1]``, ``tie_breaks``); ``field_map`` turns it, or its head before ``.``/``[``, into a
form field. The sentence comes from ``scoring.messages.message`` with the field's label (and
the players' ``names`` for seats), the same catalog the API answers with: a refusal reads the
same on a page and in the API. A problem no form field matches goes above the form, and so
does a problem of another hand than the one a form corrects (a later hand that no longer fits),
saying which hand.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.messages import message
from scoring.rules import Problem, RuleViolation


class RuleErrorsMixin:
    """For a Django form: ``add_rule_errors(violation)`` after a service refused its data."""

    #: A problem's field path, or its head, → the form field showing it.
    field_map: dict[str, str] = {}
    #: The players' names in seat order, to name seats in words (hand forms).
    names: list[str] | None = None
    #: The hand a correction form changes; its own problems go next to its fields, those of
    #: other hands above the form. None: every problem is the form's own.
    hand_number: int | None = None

    def form_field(self, problem: Problem) -> str | None:
        """The form field of ``problem``: its path mapped, else its head mapped (or the head
        itself when the form has a field of that name); None for the form as a whole."""
        path = problem.field
        if path in self.field_map:
            return self.field_map[path]
        head = path.split(".")[0].split("[")[0]
        name = self.field_map.get(head, head)
        return name if name in self.fields else None

    def problem_text(self, problem: Problem) -> str:
        name = self.form_field(problem)
        label = self.fields[name].label if name in self.fields else None
        return message(problem, label=label, names=self.names)

    def add_rule_errors(self, violation: RuleViolation) -> None:
        for problem in violation.problems:
            if self.hand_number is not None and problem.hand not in (None, self.hand_number):
                text = message(problem, names=self.names)
                self.add_error(
                    None,
                    _("Hand %(number)s: %(message)s") % {"number": problem.hand, "message": text},
                )
            else:
                self.add_error(self.form_field(problem), self.problem_text(problem))
