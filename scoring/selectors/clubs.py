"""Reads of clubs, their members' roles and their players."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from scoring.extensions import GAME_AUDIENCES
from scoring.models import ClaimStatus, Club, Game, GameStatus, Membership, Player, PlayerClaim

#: A free game (no ``Game.context``) of a club with public results is readable by anyone once over.
OVER = (GameStatus.FINISHED, GameStatus.ABANDONED)


def role_of(user, club: Club) -> str | None:
    """The user's role in the club, or None. One query (none for anonymous users)."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def clubs_for(user) -> list[tuple[Club, str | None]]:
    """Clubs the user belongs to, with the role, then public clubs. One or two queries."""
    rows: list[tuple[Club, str | None]] = []
    member_ids = set()
    if getattr(user, "is_authenticated", False):
        for membership in (
            Membership.objects.filter(user=user).select_related("club").order_by("club__name")
        ):
            rows.append((membership.club, membership.role))
            member_ids.add(membership.club_id)
    rows.extend(
        (club, None) for club in Club.objects.filter(results_public=True).exclude(pk__in=member_ids)
    )
    return rows


def public_games() -> Q:
    """The filter on ``Game`` of the games anyone may read, decided from the rows as they are
    now (never from a flag copied when the game started): a free game once it is over, when
    its club's results are public; a game started by another app (a competition's table) when
    that app says so (``scoring.extensions.GAME_AUDIENCES``), else nobody outside the club."""
    free = Q(context="", club__results_public=True, status__in=OVER)
    for context, audience in sorted(GAME_AUDIENCES.items()):
        free |= Q(context=context) & audience()
    return free


def is_public_game(game: Game) -> bool:
    """Whether anyone may read ``game`` (its club loaded): no query for a free game, one for a
    game of another app (``public_games``)."""
    if not game.context:
        return game.club.results_public and game.status in OVER
    if game.context not in GAME_AUDIENCES:
        return False
    return Game.objects.filter(public_games(), pk=game.pk).exists()


def visible_games(user, club: Club) -> QuerySet[Game]:
    """Games of the club the user may read: all for members, else the public ones."""
    games = Game.objects.filter(club=club)
    if role_of(user, club) is not None:
        return games
    if club.results_public:
        return games.filter(public_games())
    return games.none()


def club_games(user, club: Club) -> tuple[list[Game], list[Game]]:
    """The club page's games the user may read: up to 50 in progress, up to 30 over, newest
    first, with their seats and players. Four queries."""
    games = visible_games(user, club).prefetch_related("seats__player")
    in_progress = list(games.filter(status=GameStatus.IN_PROGRESS)[:50])
    finished = list(games.exclude(status=GameStatus.IN_PROGRESS)[:30])
    return in_progress, finished


def players_of(club: Club) -> list[Player]:
    """The club's players, active ones first, by name. One query."""
    return list(Player.objects.filter(club=club).order_by("-active", "display_name"))


def club_players(club: Club, *, search: str = ""):
    """The club's players (a queryset to page), those whose name holds ``search`` (any case)."""
    players = Player.objects.filter(club=club)
    return players.filter(display_name__icontains=search) if search else players


def club_player(club: Club, player_id: int | None) -> Player | None:
    """Player ``player_id`` of ``club``, or None (no id, or not the club's)."""
    if player_id is None:
        return None
    return Player.objects.filter(club=club, pk=player_id).first()


def pending_claims(user, club: Club) -> set[int]:
    """The players of ``club`` that ``user`` has claimed and no manager has answered yet."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        PlayerClaim.objects.filter(
            player__club=club, user=user, status=ClaimStatus.PENDING
        ).values_list("player_id", flat=True)
    )
