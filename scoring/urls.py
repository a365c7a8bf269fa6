"""The scoring app's pages: accounts, clubs and their people, games and their hands, table
links, the scoreboard and ratings."""

from django.contrib.auth import views as auth_views
from django.urls import path

from scoring.views import (
    accounts,
    clubs,
    confirmations,
    games,
    hands,
    live,
    members,
    players,
    push,
    pwa,
    ratings,
    table_links,
)

urlpatterns = [
    path("", clubs.home, name="home"),
    # Accounts (scoring.views.accounts; the rest of the password reset is Django's).
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password-reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
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
    path("signup/", accounts.signup, name="signup"),
    path("signup/<str:signed>/", accounts.signup_verify, name="signup-verify"),
    path("me/games/", accounts.my_games, name="my-games"),
    path("me/token/", accounts.my_token, name="my-token"),
    path("me/events/", live.my_stream, name="my-stream"),
    path("me/push/", push.push_subscription, name="push-subscription"),
    # Clubs, their players and their people.
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("c/<slug:slug>/", clubs.club_page, name="club"),
    path("c/<slug:slug>/players/", clubs.players_page, name="club-players"),
    path("c/<slug:slug>/players/bulk/", players.players_bulk, name="club-players-bulk"),
    path("c/<slug:slug>/players/<int:player_id>/email/", players.player_email, name="player-email"),
    path("unsubscribe/<str:token>/", players.unsubscribe, name="unsubscribe"),
    path(
        "c/<slug:slug>/players/<int:player_id>/active/", clubs.player_active, name="player-active"
    ),
    path("c/<slug:slug>/members/", members.members_page, name="club-members"),
    path("c/<slug:slug>/settings/", clubs.club_settings, name="club-settings"),
    path("c/<slug:slug>/players/<int:player_id>/claim/", members.claim_player, name="player-claim"),
    path("invitation/<str:token>/", members.invitation_page, name="invitation"),
    path("c/<slug:slug>/players/<int:player_id>/", ratings.player_page, name="player"),
    path("c/<slug:slug>/leaderboard/", ratings.leaderboard_page, name="leaderboard"),
    # Games and their hands.
    path("c/<slug:slug>/games/new/", games.start_game, name="start-game"),
    path("g/<int:game_id>/", games.game_page, name="game"),
    path("g/<int:game_id>/live/", games.game_live, name="game-live"),
    path("g/<int:game_id>/events/", live.game_stream, name="game-stream"),
    path("g/<int:game_id>/abandon/", games.abandon_game, name="abandon-game"),
    path("g/<int:game_id>/reopen/", games.reopen_game, name="reopen-game"),
    path("g/<int:game_id>/lock/", games.lock_game, name="lock-game"),
    path("g/<int:game_id>/export/", games.game_export, name="game-export"),
    path("g/<int:game_id>/hands/", hands.record_hand, name="record-hand"),
    path("g/<int:game_id>/hands/<int:number>/", hands.hand_page, name="hand"),
    path("g/<int:game_id>/hands/<int:number>/undo/", hands.undo_hand, name="undo-hand"),
    path(
        "g/<int:game_id>/hands/<int:number>/answer/",
        confirmations.answer_hand,
        name="hand-answer",
    ),
    # The table: its link and PIN, the scoreboard in the middle, a rematch.
    path("g/<int:game_id>/table/", table_links.table_card, name="table-card"),
    path("t/<str:token>/", table_links.table_link, name="table-link"),
    path("g/<int:game_id>/board/", pwa.board, name="game-board"),
    path("g/<int:game_id>/board/live/", pwa.board_live, name="game-board-live"),
    path("g/<int:game_id>/rematch/", pwa.rematch, name="rematch"),
]
