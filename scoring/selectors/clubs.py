"""Reads of clubs, their members' roles and their players."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from scoring.models import ClaimStatus, Club, Game, GameStatus, Membership, Player, PlayerClaim


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


def visible_games(user, club: Club) -> QuerySet[Game]:
    """Games of the club the user may read: all for members, else public ones."""
    games = Game.objects.filter(club=club)
    if role_of(user, club) is not None:
        return games
    if club.results_public:
        return games.filter(
            Q(status__in=[GameStatus.FINISHED, GameStatus.ABANDONED]) | Q(public_live=True)
        )
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
