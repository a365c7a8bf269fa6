"""Competitions between teams, as pages and the API show them: the tie-breaks' names, the
sentence that says what placed each team in the standings, and plain payloads of a team, a
match (its lineups and boards) and the standings."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from teams import selectors
from teams.models import Side, Team, TeamMatch, TeamRules
from teams.standings import teams as pure

LINEUP_NOT_ALLOWED = gettext_lazy(
    "Only an organizer of the club or the team's captain may set the team's lineup."
)

TIE_BREAK_LABELS = {
    "head_to_head": gettext_lazy("Head to head"),
    "avulsa": gettext_lazy("Classifica avulsa"),
    "boards_won": gettext_lazy("Boards won"),
    "games_won": gettext_lazy("Games won"),
    "card_points_difference": gettext_lazy("Card points difference"),
    "lots": gettext_lazy("Drawing of lots"),
}

#: What each tie-break is, for the standings page's key.
TIE_BREAK_HELP = {
    "head_to_head": gettext_lazy(
        "Two teams level on match points: the match points each earned in their matches "
        "against each other."
    ),
    "avulsa": gettext_lazy(
        "Three teams or more level on match points: a mini-table of the matches among them "
        "only. When it splits them, the teams still level are compared again among themselves."
    ),
    "boards_won": gettext_lazy("The boards won in all the team's matches."),
    "games_won": gettext_lazy("The games won at all the team's boards."),
    "card_points_difference": gettext_lazy("Card points made minus card points conceded."),
    "lots": gettext_lazy("A drawing of lots, seeded: the same seed always draws the same order."),
}


def explanation(row: pure.TeamRow, level_with: list[str], seed: str) -> str:
    """Why ``row`` stands where it does, in a sentence (``level_with``: the teams on the same
    match points)."""
    others = ", ".join(level_with)
    value = row.values.get(row.decided_by or "", "")
    if not level_with:
        return gettext("Placed by match points.")
    if row.decided_by is None:
        return gettext("Level with %(others)s on everything: the rank is shared.") % {
            "others": others
        }
    if row.decided_by == "lots":
        return gettext(
            "Level with %(others)s: placed by the drawing of lots (seed “%(seed)s”)."
        ) % {"others": others, "seed": seed}
    if row.decided_by == "avulsa":
        return gettext(
            "Level with %(others)s: placed by the classifica avulsa (match points in the "
            "matches among the tied teams: %(value)s)."
        ) % {"others": others, "value": value}
    if row.decided_by == "head_to_head":
        return gettext(
            "Level with %(others)s: placed by head to head (match points in their matches: "
            "%(value)s)."
        ) % {"others": others, "value": value}
    return gettext("Level with %(others)s: placed by %(tie_break)s (%(value)s).") % {
        "others": others,
        "tie_break": str(TIE_BREAK_LABELS[row.decided_by]).lower(),
        "value": value,
    }


def standings_payload(data: dict[str, Any]) -> dict[str, Any]:
    """The team standings as the page and the API show them (``selectors.team_standings``)."""
    rows = data["rows"]
    by_points: dict[int, list[str]] = {}
    for item in rows:
        by_points.setdefault(item["row"].match_points, []).append(item["name"])
    out = []
    for item in rows:
        row = item["row"]
        level = [n for n in by_points[row.match_points] if n != item["name"]]
        out.append(
            {
                "team": row.team,
                "name": item["name"],
                "rank": row.rank,
                "shared": row.shared,
                "match_points": row.match_points,
                "played": row.played,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "boards_won": row.boards_won,
                "boards_lost": row.boards_lost,
                "games_won": row.games_won,
                "games_lost": row.games_lost,
                "card_points_for": row.card_points_for,
                "card_points_against": row.card_points_against,
                "card_points_difference": row.card_points_difference,
                "decided_by": row.decided_by,
                "decided_by_label": str(TIE_BREAK_LABELS[row.decided_by])
                if row.decided_by
                else None,
                "tie_break_values": dict(row.values),
                "explanation": explanation(row, level, data["seed"]),
                # Level on match points with another team: its place took a tie-break (the
                # page explains only those; the others are placed by match points alone).
                "level": bool(level),
                # Who can still win: clinched, can_win or cannot_win, best and worst final
                # ranks; None when nothing is left to play (``selectors.teams._outlook``).
                "outlook": data["outlook"].get(row.team),
            }
        )
    return {
        "rows": out,
        "any_level": any(row["level"] for row in out),
        "tie_breaks": [
            {"key": key, "label": str(TIE_BREAK_LABELS[key]), "help": str(TIE_BREAK_HELP[key])}
            for key in data["standings"].tie_breaks
        ],
        "mini_tables": [
            {
                "level": m["level"],
                "matches": m["matches"],
                "rows": [{"name": n, "points": p} for n, p in m["points"]],
            }
            for m in data["mini_tables"]
        ],
        "seed": data["seed"],
    }


def rules_payload(rules: TeamRules) -> dict[str, Any]:
    return {
        "kind": rules.kind,
        "boards": rules.boards,
        "players_per_board": rules.players_per_board,
        "result_by": rules.result_by,
        "win_points": rules.win_points,
        "draw_points": rules.draw_points,
        "loss_points": rules.loss_points,
        "lineup_may_change": rules.lineup_may_change,
        "lots_seed": rules.lots_seed,
    }


def team_payload(team: Team) -> dict[str, Any]:
    return {
        "id": team.pk,
        "name": team.name,
        "club": team.club.slug,
        "captain": team.captain_id,
        "seed": team.seed,
        "roster": [
            {"id": r.player_id, "name": r.player.display_name}
            for r in sorted(team.roster.all(), key=lambda r: r.player.display_name.lower())
        ],
    }


def match_payload(match: TeamMatch, rules: TeamRules) -> dict[str, Any]:
    """A match with its boards: each board's lineups, game and figures once finished."""
    boards = []
    for board in sorted(match.boards.all(), key=lambda b: b.number):
        slots = sorted(board.lineup.all(), key=lambda s: (s.side, s.position))
        score = selectors.board_score(board)
        boards.append(
            {
                "number": board.number,
                "game": board.game_id,
                "home": [
                    {"id": s.player_id, "name": s.player.display_name}
                    for s in slots
                    if s.side == Side.HOME
                ],
                "away": [
                    {"id": s.player_id, "name": s.player.display_name}
                    for s in slots
                    if s.side == Side.AWAY
                ],
                "finished": score is not None,
                "home_games": score.home_games if score else None,
                "away_games": score.away_games if score else None,
                "home_card_points": score.home_card_points if score else None,
                "away_card_points": score.away_card_points if score else None,
                "winner": score.winner if score else None,
            }
        )
    record = selectors.match_record(match, sorted(match.boards.all(), key=lambda b: b.number))
    outcome = (
        None
        if record is None
        else pure.match_outcome(
            record, result_by=rules.result_by, points=selectors.points_of(rules)
        )
    )
    return {
        "id": match.pk,
        "round": match.round_number,
        "number": match.number,
        "leg": match.leg,
        "home": {"id": match.home_id, "name": match.home.name},
        "away": {"id": match.away_id, "name": match.away.name},
        "venue": match.venue.name,
        # The host club's wall-clock date and time (None until an organizer dates the match).
        "date": match.date.isoformat() if match.date else None,
        "start_time": match.start_time.strftime("%H:%M") if match.start_time else None,
        "boards": boards,
        "result": None
        if outcome is None
        else {
            "home_score": outcome.home_score,
            "away_score": outcome.away_score,
            "winner": outcome.winner,
            "home_points": outcome.home_points,
            "away_points": outcome.away_points,
        },
        "confirmed": match.confirmed_at is not None,
    }


def match_when(match: TeamMatch) -> dict[str, Any]:
    """A match's date and start time as the templates show them (date and time objects, the
    club's wall-clock time, None when not set)."""
    return {"date": match.date, "start_time": match.start_time}


def match_rounds(matches: list[TeamMatch], rules: TeamRules) -> list[dict[str, Any]]:
    """The matches round by round (``matches`` in round order): each round's number, its
    matches' payloads (each with ``when``), whether every one was played, and the date and
    time its first match still to play has (what the round's schedule form shows)."""
    rounds: list[dict[str, Any]] = []
    for match in matches:
        if not rounds or rounds[-1]["number"] != match.round_number:
            rounds.append({"number": match.round_number, "matches": [], "when": None})
        current = rounds[-1]
        current["matches"].append(match_payload(match, rules) | {"when": match_when(match)})
        if current["when"] is None and match.confirmed_at is None:
            current["when"] = match_when(match)
    for current in rounds:
        current["played"] = current["when"] is None
    return rounds


def fixture_row(match: TeamMatch) -> dict[str, Any]:
    """A match to come as the public schedule lists it: round, teams, date, time, venue."""
    return {
        "id": match.pk,
        "round": match.round_number,
        "home": match.home.name,
        "away": match.away.name,
        "venue": match.venue.name,
        "when": match_when(match),
    }


def played_row(match: TeamMatch, rules: TeamRules) -> dict[str, Any]:
    """A played match as the public schedule lists it: round, teams, the score (the confirmed
    one, else the boards'), whether it is confirmed."""
    score = (match.home_score, match.away_score)
    record = selectors.match_record(match, sorted(match.boards.all(), key=lambda b: b.number))
    if (match.confirmed_at is None or None in score) and record is not None:
        outcome = pure.match_outcome(
            record, result_by=rules.result_by, points=selectors.points_of(rules)
        )
        score = (outcome.home_score, outcome.away_score)
    return {
        "id": match.pk,
        "round": match.round_number,
        "home": match.home.name,
        "away": match.away.name,
        "home_id": match.home_id,
        "away_id": match.away_id,
        "home_score": score[0],
        "away_score": score[1],
        "confirmed": match.confirmed_at is not None,
        "games": [
            b.game_id for b in sorted(match.boards.all(), key=lambda b: b.number) if b.game_id
        ],
    }
