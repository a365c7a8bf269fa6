from django.urls import path
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser

from scoring.api import games, ratings
from scoring.api.common import ERRORS
from scoring.api.parsers import JSONParser


class ObtainToken(ObtainAuthToken):
    """DRF's token view, reading JSON through the bounded parser (and forms, as DRF documents),
    with its refusals in the schema."""

    parser_classes = [JSONParser, FormParser]

    @extend_schema(
        summary="An API token for a username and password",
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            400: ERRORS,
            401: ERRORS,
        },
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


obtain_auth_token = ObtainToken.as_view()

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("clubs/", games.ClubList.as_view(), name="api-clubs"),
    path("rulesets/", games.RulesetList.as_view(), name="api-rulesets"),
    path("clubs/<slug:slug>/games/", games.ClubGames.as_view(), name="api-club-games"),
    path("games/<int:game_id>/", games.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/export/", games.GameExport.as_view(), name="api-game-export"),
    path("games/<int:game_id>/hands/", games.GameHands.as_view(), name="api-game-hands"),
    path("games/<int:game_id>/hands/<int:number>/", games.GameHand.as_view(), name="api-game-hand"),
    path(
        "games/<int:game_id>/corrections/",
        games.GameCorrections.as_view(),
        name="api-game-corrections",
    ),
    path("games/<int:game_id>/abandon/", games.GameAbandon.as_view(), name="api-game-abandon"),
    path("games/<int:game_id>/reopen/", games.GameReopen.as_view(), name="api-game-reopen"),
    path("games/<int:game_id>/lock/", games.GameLock.as_view(), name="api-game-lock"),
    path("games/<int:game_id>/audit/", games.GameAudit.as_view(), name="api-game-audit"),
    path("clubs/<slug:slug>/ratings/", ratings.ClubRatings.as_view(), name="api-club-ratings"),
    path(
        "clubs/<slug:slug>/leaderboard/", ratings.Leaderboard.as_view(), name="api-club-leaderboard"
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/",
        ratings.PlayerStatistics.as_view(),
        name="api-player",
    ),
]
