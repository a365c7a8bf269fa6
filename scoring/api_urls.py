from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from scoring import api

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("clubs/", api.ClubList.as_view(), name="api-clubs"),
    path("rulesets/", api.RulesetList.as_view(), name="api-rulesets"),
    path("clubs/<slug:slug>/games/", api.ClubGames.as_view(), name="api-club-games"),
    path("games/<int:game_id>/", api.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/export/", api.GameExport.as_view(), name="api-game-export"),
    path("games/<int:game_id>/hands/", api.GameHands.as_view(), name="api-game-hands"),
    path("games/<int:game_id>/hands/<int:number>/", api.GameHand.as_view(), name="api-game-hand"),
    path(
        "games/<int:game_id>/corrections/",
        api.GameCorrections.as_view(),
        name="api-game-corrections",
    ),
    path("games/<int:game_id>/abandon/", api.GameAbandon.as_view(), name="api-game-abandon"),
    path("games/<int:game_id>/audit/", api.GameAudit.as_view(), name="api-game-audit"),
]
