"""The one-time token of a form that makes something (``scoring.services.submissions``): a
hidden field, ``once``, that a form with ``OnceMixin`` adds with ``add_once``. Its value is
issued when the form is shown; the view hands ``form.once_token()`` to ``submissions.once``
with its write.

A token this site did not issue to this account for this form, or one too old, is refused
above the form (a hidden field has no place of its own) and the form shown again carries a
fresh one: sending it again works. A form sent without the field (a script, an older page) is
not held to it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.services.submissions import issue_token, read_token

EXPIRED = _("This form is out of date: check it and send it again.")


class OnceField(forms.CharField):
    widget = forms.HiddenInput

    def __init__(self, *, user, purpose: str, **kwargs: Any):
        super().__init__(required=False, **kwargs)
        self.user, self.purpose = user, purpose
        self.initial = issue_token(user, purpose)

    def bound_data(self, data: Any, initial: Any) -> Any:
        """A form shown again keeps a good token (it was not consumed) and replaces a bad one."""
        if isinstance(data, str) and read_token(data, self.user, self.purpose) is not None:
            return data
        return initial

    def clean(self, value: Any) -> str | None:
        value = super().clean(value)
        if not value:
            return None
        nonce = read_token(value, self.user, self.purpose)
        if nonce is None:
            raise forms.ValidationError(EXPIRED, code="expired")
        return nonce


class OnceMixin:
    """For a Django form that makes something: ``self.add_once(user=…, purpose=…)`` in its
    ``__init__``; a refused token is shown above the form."""

    def add_once(self, *, user, purpose: str) -> None:
        self.fields["once"] = OnceField(user=user, purpose=purpose)

    def clean(self):
        cleaned = super().clean()
        refused = self._errors.pop("once", None)
        if refused:
            self.add_error(None, list(refused))
        return cleaned

    def once_token(self) -> str | None:
        """The token's random part (None when the form was sent without one)."""
        return self.cleaned_data.get("once")
