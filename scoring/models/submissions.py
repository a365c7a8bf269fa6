"""Forms sent once: the one-time token a form that makes something carries, kept when the
thing is made (``scoring.services.submissions``), so that the same form sent again (a double
tap, a resend after a timeout, five at once) makes nothing more and is shown what was made."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class FormSubmission(models.Model):
    """A one-time token consumed, in the transaction of the write it allowed."""

    #: The token's random part (the form carries it signed, with the account and the purpose).
    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    #: What the form makes ("start_game", "new_competition", ...).
    purpose = models.CharField(max_length=32)
    #: Where the thing made is shown (a path of this site): a replay is sent there.
    answer = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # The daily purge (scoring.services.housekeeping) deletes by age.
        indexes = [models.Index(fields=["created_at"], name="form_submission_created")]

    def __str__(self) -> str:
        return f"{self.purpose} {self.token}"
