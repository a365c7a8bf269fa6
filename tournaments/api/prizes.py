"""The prize list through the API: the club's rules, the prizes (add, list, remove) and the
prizes won. Anyone who may read the competition reads its prize list; the prizes won are shown
to the public once the results are final (before, to the club's members only, marked
provisional). Writes need an owner or organizer, and a competition whose results are not final.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from scoring.api import inputs
from scoring.api.common import ERRORS, Output
from scoring.api.parsers import JSONParser
from scoring.api.schema import request_example
from tournaments import selectors, services
from tournaments.api.common import (
    WRITE_ERRORS,
    CompetitionView,
    actor,
    managed_competition,
    read_body,
    readable_competition,
)
from tournaments.models import Prize, Ties
from tournaments.models.prizes import OVERALL


class PrizeRulesOutput(Output):
    ties = serializers.ChoiceField(
        Ties.choices,
        help_text="`split`: tied entries (equal points) pool the money prizes of the places "
        "they cover and share them, an odd cent to the better tie-break; `tie_break`: the "
        "higher prize to the better tie-break.",
    )
    both = serializers.BooleanField(
        help_text="An entry may win an overall prize and a category prize (false: it keeps "
        "the better one)."
    )


class PrizeOutput(Output):
    id = serializers.IntegerField()
    category = serializers.CharField(help_text="`overall`, `newcomer` or `tag:<id>`.")
    category_label = serializers.CharField()
    rank = serializers.IntegerField()
    amount_cents = serializers.IntegerField(allow_null=True)
    object = serializers.CharField()
    text = serializers.CharField(help_text="The prize as read, in the reader's language.")


class CategoryOutput(Output):
    key = serializers.CharField()
    label = serializers.CharField()


class PrizeListOutput(Output):
    currency = serializers.CharField()
    rules = PrizeRulesOutput()
    categories = CategoryOutput(many=True)
    prizes = PrizeOutput(many=True)


class AwardOutput(Output):
    category = serializers.CharField()
    category_label = serializers.CharField()
    place = serializers.CharField(help_text='"1", or "3–4" for tied entries sharing money.')
    first = serializers.IntegerField()
    last = serializers.IntegerField()
    entry = serializers.IntegerField()
    name = serializers.CharField()
    amount_cents = serializers.IntegerField(help_text="The entry's share; 0 for an object.")
    object = serializers.CharField()
    prize = serializers.CharField(help_text="The prize as read.")


class AwardsOutput(Output):
    class Meta:
        ref_name = "AwardList"

    final = serializers.BooleanField(help_text="False: provisional (members only).")
    awards = AwardOutput(many=True)


def _prize_row(item: dict) -> dict:
    prize = item["prize"]
    return {
        "id": prize.pk,
        "category": prize.key,
        "category_label": item["category_label"],
        "rank": prize.rank,
        "amount_cents": prize.amount_cents,
        "object": prize.object,
        "text": item["text"],
    }


def _list_payload(competition) -> dict:
    rules = selectors.prize_rules(competition)
    return {
        "currency": competition.club.currency,
        "rules": {"ties": rules.ties, "both": rules.both},
        "categories": [{"key": k, "label": v} for k, v in selectors.categories(competition)],
        "prizes": [_prize_row(item) for item in selectors.prize_list(competition)],
    }


class Prizes(CompetitionView):
    anyone_may = ("GET",)
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        category = inputs.Text(required=False, default=OVERALL, single_line=True)
        rank = inputs.Integer()
        amount_cents = inputs.Integer(required=False, default=None, allow_null=True)
        object = inputs.Text(required=False, default="", single_line=True)

    @extend_schema(
        summary="The prize list, its rules and the categories a prize may name",
        responses={200: PrizeListOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, _role = readable_competition(request, competition_id)
        return Response(PrizeListOutput(_list_payload(competition)).data)

    @extend_schema(
        summary="Add a prize",
        description="Money (`amount_cents`) or an `object`, for `rank` (1 to 100) of a "
        "`category`. A rank that already has a prize in that category is refused (400, "
        "`rank`).",
        request=InputSerializer,
        responses={201: PrizeOutput, **WRITE_ERRORS},
        examples=[
            request_example("50 euros to the winner", value={"rank": 1, "amount_cents": 5000}),
            request_example(
                "A cup to the best newcomer",
                value={"category": "newcomer", "rank": 1, "object": "Cup"},
            ),
        ],
    )
    def post(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        prize = services.add_prize(competition=competition, by=actor(request), **body)
        item = next(i for i in selectors.prize_list(competition) if i["prize"].pk == prize.pk)
        return Response(PrizeOutput(_prize_row(item)).data, status=status.HTTP_201_CREATED)


class PrizeDetail(CompetitionView):
    @extend_schema(summary="Remove a prize", responses={204: None, **WRITE_ERRORS})
    def delete(self, request, competition_id: int, prize_id: int):
        competition, _role = managed_competition(request, competition_id)
        prize = Prize.objects.filter(pk=prize_id, competition=competition).first()
        if prize is None:
            raise NotFound()
        prize.competition = competition
        services.remove_prize(prize=prize, by=actor(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PrizeRules(CompetitionView):
    parser_classes = [JSONParser]

    class InputSerializer(inputs.StrictInput):
        ties = inputs.Choice(Ties.values)
        both = inputs.Boolean(required=False, default=False)

    @extend_schema(
        summary="Set the club's rules for the prizes",
        request=InputSerializer,
        responses={200: PrizeRulesOutput, **WRITE_ERRORS},
    )
    def put(self, request, competition_id: int):
        competition, _role = managed_competition(request, competition_id)
        body = read_body(self.InputSerializer, request)
        rules = services.set_prize_rules(competition=competition, by=actor(request), **body)
        return Response(PrizeRulesOutput({"ties": rules.ties, "both": rules.both}).data)


class Awards(CompetitionView):
    @extend_schema(
        summary="The prizes won",
        description="Public once the results are final; before, the club's members read the "
        "provisional list (`final`: false) and anyone else gets 404.",
        responses={200: AwardsOutput, 404: ERRORS},
    )
    def get(self, request, competition_id: int):
        competition, role = readable_competition(request, competition_id)
        final = competition.finalized_at is not None
        if not final and role is None:
            raise NotFound()
        awards = selectors.awarded(competition)
        return Response(AwardsOutput({"final": final, "awards": awards}).data)
