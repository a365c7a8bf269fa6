"""A competition and what its organizer's page lists: the competitions of a club, those a game
is played in, the rounds with their tables' games, the adjustments, the last event."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q, QuerySet

from scoring.models import Club
from tournaments.models import Adjustment, Competition, CompetitionEvent, Round, RoundStatus, Table


def club_competitions(club: Club, *, public_only: bool) -> QuerySet[Competition]:
    """The competitions of a club, the latest first (only the public ones for a visitor)."""
    competitions = Competition.objects.filter(club=club).select_related("club")
    if public_only:
        competitions = competitions.filter(public=True)
    return competitions.order_by("-start_date", "-created_at")


def competitions_of_game(game_id: int) -> list[int]:
    """The competitions whose tables play game ``game_id`` (its standings follow the game)."""
    return list(
        Competition.objects.filter(rounds__tables__game_id=game_id)
        .values_list("pk", flat=True)
        .distinct()
    )


def public_games() -> Q:
    """The filter on scoring's ``Game`` of the competitions' games anyone may read: those of a
    public competition, as it is now (``scoring.extensions.GAME_AUDIENCES``). Whatever its
    club: a public competition of a private club is followed online by anyone."""
    return Q(competition_table__round__competition__public=True) | Q(
        team_board__match__competition__public=True
    )


def started(competition: Competition) -> bool:
    """Whether a round of the competition is published (or played): its results count."""
    return competition.rounds.exclude(status=RoundStatus.DRAFT).exists()


def schedule_of(competition: Competition) -> list[Round]:
    """The rounds in order, each with its tables and their games (how far each round is)."""
    return list(
        competition.rounds.prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("game"))
        ).order_by("number")
    )


def rounds_summary(competition: Competition) -> list[Round]:
    """The rounds in order, each with its number of tables (``n_tables``)."""
    return list(competition.rounds.annotate(n_tables=Count("tables")).order_by("number"))


def adjustments_shown(competition: Competition) -> list[Adjustment]:
    """The competition's adjustments, the latest first, with their entry, round and author."""
    return list(
        Adjustment.objects.filter(competition=competition)
        .select_related("entry__player", "entry__partner", "round", "by")
        .order_by("-at", "-id")
    )


def last_event_id(competition: Competition) -> int:
    """The id of the competition's latest event (0 before any)."""
    return (
        CompetitionEvent.objects.filter(competition=competition)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
        or 0
    )
