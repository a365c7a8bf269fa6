from django.urls import path

from scoring.api import accounts, clubs, confirmations, games, hands, members, players, ratings
from scoring.views import live

urlpatterns = [
    path("auth/token/", accounts.obtain_token, name="api-token"),
    path("clubs/", clubs.ClubList.as_view(), name="api-clubs"),
    path("rulesets/", clubs.RulesetList.as_view(), name="api-rulesets"),
    path("clubs/<slug:slug>/", clubs.ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/games/", clubs.ClubGames.as_view(), name="api-club-games"),
    path("games/<int:game_id>/", games.GameDetail.as_view(), name="api-game"),
    path("games/<int:game_id>/events/", live.game_stream, name="api-game-stream"),
    path("games/<int:game_id>/export/", games.GameExport.as_view(), name="api-game-export"),
    path("games/<int:game_id>/hands/", hands.GameHands.as_view(), name="api-game-hands"),
    path("games/<int:game_id>/hands/<int:number>/", hands.GameHand.as_view(), name="api-game-hand"),
    path(
        "games/<int:game_id>/hands/<int:number>/accept/",
        confirmations.HandAccept.as_view(),
        name="api-game-hand-accept",
    ),
    path(
        "games/<int:game_id>/hands/<int:number>/reject/",
        confirmations.HandReject.as_view(),
        name="api-game-hand-reject",
    ),
    path(
        "games/<int:game_id>/corrections/",
        hands.GameCorrections.as_view(),
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
    path("clubs/<slug:slug>/players/", players.ClubPlayers.as_view(), name="api-players"),
    path("clubs/<slug:slug>/players/bulk/", players.PlayersBulk.as_view(), name="api-players-bulk"),
    path(
        "clubs/<slug:slug>/invitations/",
        members.ClubInvitations.as_view(),
        name="api-club-invitations",
    ),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/",
        members.ClubInvitation.as_view(),
        name="api-club-invitation",
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/email/",
        players.PlayerEmail.as_view(),
        name="api-player-email",
    ),
]
