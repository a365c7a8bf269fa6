"""Ratings, leaderboards and player statistics under ``/api/v1/clubs/{slug}/``: read-only, for
whoever may read the club (its members; anyone when its results are public), 404 otherwise.

Query parameters are read by a strict InputSerializer like a body (``scoring.api.inputs``): an
unknown parameter, a number that is not one, a game that is not a ruleset key is a 400 naming
the parameter, never silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.api import inputs
from scoring.api.common import ERRORS, Moment, Output, readable_club
from scoring.api.pagination import PARAMETERS, Pages, page_of_rows
from scoring.models import Player
from scoring.rules import RULESETS
from scoring.selectors import ratings as rating_selectors
from scoring.selectors import role_of

TRUE, FALSE = ("true", "1"), ("false", "0")


class QueryInput(inputs.StrictInput):
    """A query string read strictly: its values are strings, so a whole number is taken for an
    ``Integer`` field and ``true``/``false`` (or ``1``/``0``) for a ``Boolean`` one; anything
    else reaches the field as typed and is refused by it."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        values = {}
        for key in data if isinstance(data, Mapping) else ():
            value = data[key]
            field_ = self.fields.get(key)
            if isinstance(field_, inputs.Integer) and value.isdigit():
                value = int(value)
            elif isinstance(field_, inputs.Boolean) and value.lower() in TRUE + FALSE:
                value = value.lower() in TRUE
            values[key] = value
        return super().to_internal_value(values)


def query(serializer_class, request) -> dict[str, Any]:
    values = request.query_params.dict()
    serializer = serializer_class(data={k: v for k, v in values.items() if k not in PARAMETERS})
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class RatingOutput(Output):
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    ruleset = serializers.ChoiceField(
        choices=list(RULESETS), allow_null=True, help_text="null: the club-wide rating."
    )
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu − 3 sigma: the figure ranked by.")
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(
        help_text="Fewer rated games than RATING_PROVISIONAL_GAMES."
    )
    last_played_at = Moment(allow_null=True)


class ClubRatings(APIView):
    anyone_may = ("GET",)
    pagination_class = Pages

    class InputSerializer(QueryInput):
        game = inputs.Choice(
            RULESETS, required=False, help_text="Only this game's ratings (every one by default)."
        )

    @extend_schema(
        summary="Every stored rating of a club, best first",
        description="One rating per player per game and one club-wide (`ruleset` null), "
        "OpenSkill (Plackett–Luce), updated after every finished game.",
        parameters=[InputSerializer],
        responses={200: RatingOutput(many=True), 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club = readable_club(request, slug)
        data = query(self.InputSerializer, request)
        game = data.get("game")
        rows = rating_selectors.club_ratings(club, ruleset=game, every=game is None)
        return page_of_rows(
            request,
            rows,
            key=lambda row: (
                -row["ordinal"],
                -row["games"],
                row["name"],
                row["player"],
                row["ruleset"] or "",
            ),
            serialize=lambda page: RatingOutput(page, many=True).data,
        )


class Leaderboard(APIView):
    anyone_may = ("GET",)
    pagination_class = Pages

    class InputSerializer(QueryInput):
        game = inputs.Choice(
            RULESETS, required=False, help_text="A game's leaderboard (club-wide by default)."
        )
        days = inputs.Integer(
            min_value=1,
            max_value=rating_selectors.MAX_DAYS,
            required=False,
            help_text="Only players who played in the last so many days.",
        )
        established = inputs.Boolean(
            required=False, help_text="true: leave out provisional ratings."
        )

    class OutputSerializer(RatingOutput):
        class Meta:
            ref_name = "LeaderboardRow"

        place = serializers.IntegerField()

    @extend_schema(
        summary="A club's leaderboard by rating",
        parameters=[InputSerializer],
        responses={200: OutputSerializer(many=True), 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str):
        club = readable_club(request, slug)
        data = query(self.InputSerializer, request)
        board = rating_selectors.leaderboard(
            club,
            ruleset=data.get("game"),
            active_days=data.get("days"),
            hide_provisional=bool(data.get("established")),
        )
        return page_of_rows(
            request,
            board,
            key=lambda row: (row["place"], row["player"]),
            serialize=lambda page: self.OutputSerializer(page, many=True).data,
        )


class Versus(Output):
    player = serializers.IntegerField()
    name = serializers.CharField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()


def _count(help_text: str = "") -> serializers.IntegerField:
    return serializers.IntegerField(help_text=help_text)


def _average() -> serializers.FloatField:
    return serializers.FloatField(allow_null=True, help_text="Null before any was counted.")


class PlayerRef(Output):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ContractFigures(Output):
    contract = serializers.CharField(help_text="The contract's key (empty: none named).")
    bid = _count("Times the player bid it as soloist.")
    made = _count("Times it was made.")


class SoloistFigures(Output):
    """Terziglio and Calabrasella (``scoring.stats.players.soloist_stats``)."""

    games = _count()
    bids = _count("Hands played as soloist.")
    made = _count("Of those, won.")
    contracts = ContractFigures(many=True)
    sweeps = _count()


class BriscolaFigures(Output):
    games = _count()
    hands_won = _count()
    matches = _count()
    matches_won = _count()
    average_card_points = _average()


class TurkishFigures(Output):
    games = _count()
    deals = _count()
    average_penalty = _average()
    out_first = _count()


class ChiamataFigures(Output):
    games = _count()
    calls = _count()
    with_partner = _count()
    with_partner_made = _count()
    alone = _count()
    alone_made = _count()


class PerGameFigures(Output):
    """A player's figures by ruleset: only the games the player played are there."""

    terziglio = SoloistFigures(required=False)
    calabrasella = SoloistFigures(required=False)
    briscola = BriscolaFigures(required=False)
    turkish = TurkishFigures(required=False)
    briscola_chiamata = ChiamataFigures(required=False)


class PlayerStatistics(APIView):
    anyone_may = ("GET",)

    class InputSerializer(QueryInput):
        recent = inputs.Integer(
            min_value=0, max_value=1000, required=False, help_text="Games listed (50 by default)."
        )

    class OutputSerializer(Output):
        class GameRow(Output):
            game = serializers.IntegerField()
            ruleset = serializers.ChoiceField(choices=list(RULESETS))
            finished_at = Moment()
            place = serializers.IntegerField()
            seats = serializers.IntegerField()
            won = serializers.BooleanField()
            total = serializers.IntegerField()
            ordinal = serializers.FloatField(allow_null=True)
            change = serializers.FloatField(allow_null=True)

        class Streaks(Output):
            current = serializers.IntegerField()
            current_won = serializers.BooleanField(allow_null=True)
            longest_won = serializers.IntegerField()
            longest_without_win = serializers.IntegerField()

        class Month(Output):
            month = serializers.CharField(help_text="YYYY-MM, in the club's time zone.")
            games = serializers.IntegerField()

        class Step(Output):
            game = serializers.IntegerField()
            ruleset = serializers.ChoiceField(choices=list(RULESETS))
            at = Moment()
            ordinal = serializers.FloatField(help_text="In the game's ruleset, after the game.")
            club_ordinal = serializers.FloatField(help_text="Club-wide, after the game.")

        player = PlayerRef()
        ratings = RatingOutput(many=True)
        games_played = serializers.IntegerField()
        games_won = serializers.IntegerField()
        games = GameRow(many=True)
        per_game = PerGameFigures(
            help_text="By ruleset: `games` and the game's own figures (Terziglio: bids, made, "
            "contracts, sweeps; Briscola: hands_won, matches, matches_won, average_card_points; "
            "Turkish: deals, average_penalty, out_first; chiamata: calls, with_partner, "
            "with_partner_made, alone, alone_made)."
        )
        best_partners = Versus(many=True)
        toughest_opponents = Versus(many=True)
        streaks = Streaks()
        activity = Month(many=True)
        history = Step(many=True)

    @extend_schema(
        summary="A player's ratings, rating history and statistics",
        parameters=[InputSerializer],
        responses={200: OutputSerializer, 400: ERRORS, 404: ERRORS},
    )
    def get(self, request, slug: str, player_id: int):
        club = readable_club(request, slug)
        data = query(self.InputSerializer, request)
        player = Player.objects.select_related("club").filter(club=club, pk=player_id).first()
        if player is None:
            raise NotFound()
        stranger = role_of(request.user, club) is None
        profile = rating_selectors.player_profile(
            player, recent=data.get("recent", 50), public_only=stranger
        )
        return Response(self.OutputSerializer(profile).data)
