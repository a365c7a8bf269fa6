from django.urls import path

from scoring.api import auth, games

urlpatterns = [
    path("auth/token/", auth.obtain_token, name="api-token"),
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
    path("games/<int:game_id>/audit/", games.GameAudit.as_view(), name="api-game-audit"),
]
