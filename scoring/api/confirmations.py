"""The scoring API: confirmation by the table, a player of another side accepting or rejecting
a hand of a game whose hands must be accepted."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_view,
)

from scoring import access, services
from scoring.api import inputs
from scoring.api.common import readable_game
from scoring.api.games import CONDITIONAL_WRITE_RESPONSES, IF_MATCH, GameWrite, hand_answer
from scoring.api.schema import request_example, sends
from scoring.models import Via
from scoring.services import NotAllowed


class HandAnswer(GameWrite):
    """A player of another side accepts or rejects a hand of a game whose hands must be
    accepted (``scoring.services.confirmations``). Conditioned on ``If-Match`` like every hand
    write: the answer is about the version the player read."""

    class InputSerializer(inputs.StrictInput):
        seat = inputs.Integer(
            min_value=0,
            max_value=7,
            help_text="The seat (from 0) of the player who answers: not the one who entered the "
            "hand, nor that player's partner.",
        )
        reason = inputs.Text(required=False, default="", help_text="Why (required to reject).")

    class RejectInput(InputSerializer):
        reason = inputs.Text(non_blank=True, help_text="Why.")

    service: Any = None

    def actor(self, request, game_id: int):
        """As on the page (``access.can_answer``): the table link answers the waiting hands
        after the game's end too, the deciding hand included."""
        return access.actor_for_game_id(request, game_id, via=Via.API, answering=True)

    def authorize(self, request, game_id: int) -> None:
        game, role = readable_game(request, game_id)
        if role in self.writers or game.pk in access.table_answerable(request):
            return
        raise NotAllowed()

    def post(self, request, game_id: int, number: int):
        rejects = type(self).service is services.reject_hand
        serializer = (self.RejectInput if rejects else self.InputSerializer)(data=request.data)
        with self.input_checks(request, game_id):
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            extra = {}
            if rejects:
                extra["reason"] = data["reason"]
            expected = self.if_match(request, game_id)
        by = self.actor(request, game_id)
        game = type(self).service(
            game=game_id, number=number, by=by, seat=data["seat"], expected=expected, **extra
        )
        return hand_answer(game, number)


ANSWER_DESCRIPTION = (
    "In a game whose hands must be accepted (`hands_need_acceptance`), a hand counts only once a "
    "player of another side than who entered it accepts it. `If-Match` names the hand as read "
    "(412 once it was corrected). 409 when the game is locked or its hands need no acceptance, "
    "{state}. Answering again the same way changes nothing."
)


@extend_schema_view(
    post=extend_schema(
        summary="Accept a hand (confirmation by the table)",
        description=ANSWER_DESCRIPTION.format(state="or when the hand was rejected (correct it)"),
        parameters=[IF_MATCH],
        request=HandAnswer.InputSerializer,
        examples=[request_example("Carla accepts", {"seat": 2})],
        extensions=sends(_200=("ETag",)),
        responses=CONDITIONAL_WRITE_RESPONSES,
    )
)
class HandAccept(HandAnswer):
    service = staticmethod(services.accept_hand)


@extend_schema_view(
    post=extend_schema(
        summary="Reject a hand, with a reason (confirmation by the table)",
        description=ANSWER_DESCRIPTION.format(
            state="or when it was already accepted (correct it instead)"
        )
        + " A rejected hand counts only once corrected and accepted.",
        parameters=[IF_MATCH],
        request=HandAnswer.RejectInput,
        examples=[request_example("Carla rejects", {"seat": 2, "reason": "Anna made 7, not 8"})],
        extensions=sends(_200=("ETag",)),
        responses=CONDITIONAL_WRITE_RESPONSES,
    )
)
class HandReject(HandAnswer):
    service = staticmethod(services.reject_hand)
