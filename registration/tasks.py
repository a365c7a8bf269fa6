"""Registration's background work: its e-mails, each with its link, sent after the commit of the
service's write (``services.registration.mail_link``, by the task's name). Acknowledged on receipt
(``acks_late=False``): the e-mails are recorded nowhere, and a killed worker's task run again
would send them twice."""

from __future__ import annotations

from celery import shared_task

from scoring.links import serving


# Named as it was when registration was part of ``tournaments``: a task queued (or kept as a
# ``PendingTask``) before an upgrade still finds its function after it.
@shared_task(name="tournaments.tasks.send_registration_mail", ignore_result=True, acks_late=False)
def send_registration_mail(registration_id: int, kind: str, token: str, origin: str = "") -> int:
    """A registration's e-mail with its link (``services.registration_mail``), on ``origin``:
    the address of the request that caused it (``scoring.links.serving``; ``SITE_URL`` when
    set)."""
    from registration.services import registration_mail  # a task body: loaded when it runs

    with serving(origin):
        return registration_mail.send_registration_mail(registration_id, kind, token)
