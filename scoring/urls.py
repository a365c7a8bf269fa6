from django.contrib.auth import views as auth_views
from django.urls import path

from scoring import confirm_views, member_views, pwa_views, rating_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", member_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Accounts and a club's people (scoring.member_views).
    path("password-reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("signup/", member_views.signup, name="signup"),
    path("signup/<str:signed>/", member_views.signup_verify, name="signup-verify"),
    path("clubs/new/", member_views.club_new, name="club-new"),
    path("c/<slug:slug>/members/", member_views.members_page, name="club-members"),
    path(
        "c/<slug:slug>/players/<int:player_id>/claim/",
        member_views.claim_player,
        name="player-claim",
    ),
    path("invitation/<str:token>/", member_views.invitation_page, name="invitation"),
    path("me/games/", member_views.my_games, name="my-games"),
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
    path(
        "g/<int:game_id>/hands/<int:number>/answer/",
        confirm_views.answer_hand,
        name="hand-answer",
    ),
    path("g/<int:game_id>/hands/<int:number>/undo/", views.undo_hand, name="undo-hand"),
    path("g/<int:game_id>/abandon/", views.abandon_game, name="abandon-game"),
    path("g/<int:game_id>/reopen/", views.reopen_game, name="reopen-game"),
    path("g/<int:game_id>/lock/", views.lock_game, name="lock-game"),
    path("g/<int:game_id>/export/", views.game_export, name="game-export"),
    path("g/<int:game_id>/table/", views.table_card, name="table-card"),
    path("g/<int:game_id>/board/", pwa_views.board, name="game-board"),
    path("g/<int:game_id>/board/live/", pwa_views.board_live, name="game-board-live"),
    path("g/<int:game_id>/rematch/", pwa_views.rematch, name="rematch"),
    path("t/<str:token>/", views.table_link, name="table-link"),
]
