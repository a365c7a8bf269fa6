"""Pieces both apps' API views share: the error schema, ETags and preconditions (made and read by
``scoring.etags``), readable-or-404 lookups.

Refusals are exceptions (a ``RuleViolation``, a service's ``NotAllowed``, DRF's ``NotFound``...)
mapped to responses once, in ``scoring.api.errors``; nothing here builds an error response.
"""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.response import Response

from scoring import access, etags, selectors
from scoring.api.errors import Refused
from scoring.etags import Tag
from scoring.models import Club, Game


def component_name(qualname: str) -> str:
    """The schema's name of a serializer, for the authors of generated clients: what the code
    calls it, less the code's words. ``RoundSwap.InputSerializer`` → ``RoundSwap`` (the request
    body is then ``RoundSwapRequest``), ``BulkOutput.Created`` → ``BulkCreated``,
    ``CheckInWindowView.WindowOutput`` → ``CheckInWindow``."""
    words: list[str] = []
    for part in qualname.lstrip("_").split("."):
        part = part.lstrip("_").removesuffix("Serializer")
        for suffix in ("Output", "Input", "View"):
            part = part.removesuffix(suffix)
        part = part.removesuffix("View")
        # A part that repeats the end of the one before adds nothing (CheckInWindow + Window).
        if part and not (words and words[-1].endswith(part)):
            words.append(part)
    return "".join(words)


class Named:
    """Serializers nested in views are all called ``InputSerializer`` / ``OutputSerializer``:
    each gets its own name in the OpenAPI schema, from its view (``component_name``). A class
    with a ``Meta.ref_name`` of its own keeps it."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "Meta" not in cls.__dict__:
            cls.Meta = type("Meta", (), {"ref_name": component_name(cls.__qualname__)})


class Output(Named, serializers.Serializer):
    """The fixed shape of an answer."""


class ErrorSerializer(serializers.Serializer):
    hand = serializers.IntegerField(
        allow_null=True, help_text="The number of the hand concerned, if any."
    )
    field = serializers.CharField(
        allow_null=True,
        help_text="Where: a body path (`soloist_cards.aces`, `points[1]`), a header "
        "(`If-Match`) or a query parameter; null when the refusal is about the whole request.",
    )
    code = serializers.CharField(help_text="What, for programs (`required`, `range`, `stale`...).")
    message = serializers.CharField(help_text="What, for people, in the request's language.")
    current_version = serializers.IntegerField(
        required=False, help_text="With a 412: the version the hand or game has now."
    )


#: The one error shape, for the schema's 4xx answers.
ERRORS = inline_serializer("ErrorResponse", {"errors": ErrorSerializer(many=True)})


class Moment(serializers.DateTimeField):
    """A stored moment as ``isoformat()`` gives it (its own offset, no conversion)."""

    def to_representation(self, value):
        return value.isoformat() if value else None


def with_etag(response: Response, tag: Tag) -> Response:
    """``response`` with ``tag`` (``scoring.etags``) as its ETag."""
    response["ETag"] = str(tag)
    return response


def not_modified(request, current: Tag) -> bool:
    """Whether ``If-None-Match`` names ``current`` (weak comparison): answer 304. A garbled
    header names nothing."""
    condition = etags.parse(request.headers.get("If-None-Match"))
    return condition is not None and condition.matches_weakly(current)


def required_if_match(request, reason: str = "if_match") -> tuple[Tag, ...]:
    """The validators a write's ``If-Match`` sends (428 without one). ``*`` is refused too: it
    does not say which hand the client read, and hands are renumbered. A garbled header names
    nothing, so the service refuses the write (412)."""
    condition = etags.parse(request.headers.get("If-Match"))
    if condition is None or condition.any:
        raise Refused(428, "If-Match", "required", reason=reason)
    return condition.strong


def readable_club(request, slug: str) -> Club:
    """The club; 404 unless the caller may read it."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not access.can_read_club(
        request, club, selectors.role_of(request.user, club)
    ):
        raise NotFound()
    return club


def readable_game(request, game_id: int) -> tuple[Game, str | None]:
    """The game and the caller's role in its club; 404 unless the caller may read the game
    (a caller who may not even read a game must not learn that it exists)."""
    game = Game.objects.select_related("club").filter(pk=game_id).first()
    if game is None:
        raise NotFound()
    role = selectors.role_of(request.user, game.club)
    if not access.can_read_game(request, game, role):
        raise NotFound()
    return game, role


def signed_in(request) -> None:
    """401 unless the caller is signed in (an operation for a club's members: an anonymous
    caller who may know the club is told to authenticate, not that it lacks a role)."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
