from django.contrib.auth import views as auth_views
from django.urls import path

from scoring import rating_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("c/<slug:slug>/", views.club_page, name="club"),
    path("c/<slug:slug>/players/", views.players_page, name="club-players"),
    path(
        "c/<slug:slug>/players/<int:player_id>/active/", views.player_active, name="player-active"
    ),
    path("c/<slug:slug>/players/<int:player_id>/", rating_views.player_page, name="player"),
    path("c/<slug:slug>/leaderboard/", rating_views.leaderboard_page, name="leaderboard"),
    path("c/<slug:slug>/games/new/", views.start_game, name="start-game"),
    path("g/<int:game_id>/", views.game_page, name="game"),
    path("g/<int:game_id>/live/", views.game_live, name="game-live"),
    path("g/<int:game_id>/hands/", views.record_hand, name="record-hand"),
    path("g/<int:game_id>/hands/<int:number>/", views.hand_page, name="hand"),
    path("g/<int:game_id>/abandon/", views.abandon_game, name="abandon-game"),
    path("g/<int:game_id>/reopen/", views.reopen_game, name="reopen-game"),
    path("g/<int:game_id>/lock/", views.lock_game, name="lock-game"),
    path("g/<int:game_id>/export/", views.game_export, name="game-export"),
    path("g/<int:game_id>/table/", views.table_card, name="table-card"),
    path("t/<str:token>/", views.table_link, name="table-link"),
]
