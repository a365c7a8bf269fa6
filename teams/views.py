"""The pages of a competition between teams: the teams (rules, teams, draw, matches), a team
(its roster), a match (lineups, boards and result), the public team standings with every
tie-break explained, and the block of a player's page listing their boards."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import access
from scoring.services import NotAllowed
from scoring.views.access import attempt, submit
from teams import presenters, selectors, services
from teams.forms import (
    ConfirmForm,
    LineupForm,
    RosterForm,
    ScheduleForm,
    TeamForm,
    TeamRulesForm,
)
from teams.head_to_head import matrix_of, page_matrix
from teams.history import team_history
from teams.mixed_presenters import mixed_standings_payload
from teams.models import Side
from tournaments.presenters.bump import bump_chart
from tournaments.presenters.standings import outlook_view
from tournaments.views.access import organizer_or_404, public_or_404
from tournaments.views.standings_cache import snapshot_stamp


def _teams_url(competition) -> str:
    return reverse("competition-teams", args=[competition.club.slug, competition.slug])


@login_required
def teams_page(request, club_slug: str, slug: str):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    rules = selectors.rules_of(competition)
    by = access.actor_for(request)
    rules_form = TeamRulesForm(
        initial=presenters.rules_payload(rules) if rules else None, prefix="rules"
    )
    team_form = TeamForm(competition=competition, prefix="team")
    bound: dict[int, ScheduleForm] = {}
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "rules":
            rules_form = TeamRulesForm(request.POST, prefix="rules")
            if rules_form.is_valid() and submit(
                rules_form,
                services.set_team_rules,
                competition=competition,
                by=by,
                **rules_form.cleaned_data,
            ):
                messages.success(request, _("Team rules saved."))
                return redirect(_teams_url(competition))
        elif action == "team":
            team_form = TeamForm(request.POST, competition=competition, prefix="team")
            if team_form.is_valid() and submit(
                team_form,
                services.add_team,
                competition=competition,
                name=team_form.cleaned_data["name"],
                captain=team_form.cleaned_data["captain"],
                players=team_form.cleaned_data["players"],
                by=by,
            ):
                messages.success(request, _("Team added."))
                return redirect(_teams_url(competition))
        elif action == "draw":
            if attempt(request, services.draw_team_round, competition=competition, by=by):
                messages.success(request, _("Matches drawn."))
            return redirect(_teams_url(competition))
        elif action == "schedule":
            number = _round_number(request.POST.get("round"))
            form = ScheduleForm(request.POST, prefix=f"round{number}")
            if form.is_valid() and submit(
                form,
                services.schedule_team_matches,
                competition=competition,
                by=by,
                round_number=number,
                **form.cleaned_data,
            ):
                messages.success(request, _("Round %(n)s dated.") % {"n": number})
                return redirect(_teams_url(competition))
            bound[number] = form
            if not number:  # no round's form to show it next to: above the page
                messages.error(request, " ".join(form.non_field_errors()))
    matches = selectors.matches_of(competition) if rules else []
    return render(
        request,
        "teams/teams.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "rules": rules,
            "rules_form": rules_form,
            "team_form": team_form,
            "teams": selectors.teams_of(competition) if rules else [],
            "rounds": [
                group
                | {
                    "form": bound.get(group["number"])
                    or ScheduleForm(prefix=f"round{group['number']}", initial=group["when"])
                }
                for group in presenters.match_rounds(matches, rules)
            ],
            "matches": bool(matches),
        },
    )


def _round_number(value: str | None) -> int:
    """The round a schedule form was sent for (0 when the page was tampered with: the service
    then refuses it by name, ``round_number``)."""
    return int(value) if value and value.isdigit() and len(value) < 6 else 0


@login_required
def team_page(request, club_slug: str, slug: str, team_id: int):
    competition, role = organizer_or_404(request, club_slug, slug, manage=request.method == "POST")
    team = next((t for t in selectors.teams_of(competition) if t.pk == team_id), None)
    if team is None:
        raise Http404
    form = RosterForm(competition=competition)
    if request.method == "POST":
        form = RosterForm(request.POST, competition=competition)
        if form.is_valid() and submit(
            form,
            services.add_to_roster,
            team=team,
            player=form.cleaned_data["player"],
            by=access.actor_for(request),
        ):
            messages.success(request, _("Player added to the roster."))
            return redirect(request.path)
    return render(
        request,
        "teams/team.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "team": presenters.team_payload(team),
            "form": form,
        },
    )


def _may_set(by, team) -> bool:
    try:
        services.authorize_lineup(by, team)
    except NotAllowed:
        return False
    return True


@login_required
def team_match_page(request, club_slug: str, slug: str, match_id: int):
    competition, role = organizer_or_404(request, club_slug, slug)
    rules = selectors.rules_of(competition)
    match = next((m for m in selectors.matches_of(competition) if m.pk == match_id), None)
    if rules is None or match is None:
        raise Http404
    by = access.actor_for(request)
    if request.method == "POST" and not any(_may_set(by, t) for t in (match.home, match.away)):
        raise PermissionDenied
    current = selectors.lineup_of(match)
    forms_ = {}
    for side, team in ((Side.HOME, match.home), (Side.AWAY, match.away)):
        roster = list(team.roster.select_related("player").order_by("player__display_name"))
        data = request.POST if request.POST.get("action") == side else None
        forms_[side] = LineupForm(data, side=side, rules=rules, roster=roster, current=current)
    confirm = ConfirmForm(prefix="confirm")
    schedule = ScheduleForm(prefix="when", initial=presenters.match_when(match))
    if request.method == "POST":
        action = request.POST.get("action")
        if action in forms_:
            team = match.home if action == Side.HOME else match.away
            if not _may_set(by, team):
                raise PermissionDenied
            form = forms_[action]
            if form.is_valid() and submit(
                form, services.set_lineup, match=match, side=action, lineup=form.lineup(), by=by
            ):
                messages.success(request, _("Lineup saved."))
                return redirect(request.path)
        elif action == "confirm":
            if not access.is_manager(role):
                raise PermissionDenied
            confirm = ConfirmForm(request.POST, prefix="confirm")
            if confirm.is_valid() and submit(
                confirm, services.confirm_match_result, match=match, by=by, **confirm.cleaned_data
            ):
                messages.success(request, _("Result confirmed."))
                return redirect(request.path)
        elif action == "schedule":
            if not access.is_manager(role):
                raise PermissionDenied
            schedule = ScheduleForm(request.POST, prefix="when")
            if schedule.is_valid() and submit(
                schedule,
                services.schedule_team_matches,
                competition=competition,
                by=by,
                round_number=None,
                match=match,
                **schedule.cleaned_data,
            ):
                messages.success(request, _("Match dated."))
                return redirect(request.path)
    played = selectors.match_outcome(match, rules) is not None
    return render(
        request,
        "teams/team_match.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "manager": access.is_manager(role),
            "match": presenters.match_payload(match, rules),
            "sides": [
                {
                    "key": side,
                    "team": team,
                    "form": forms_[side],
                    "may_set": _may_set(by, team) and not played,
                }
                for side, team in ((Side.HOME, match.home), (Side.AWAY, match.away))
            ],
            "confirm": confirm,
            "schedule": schedule,
            "when": presenters.match_when(match),
        },
    )


def public_team_standings(request, club_slug: str, slug: str):
    competition, role = public_or_404(request, club_slug, slug)
    # Read before the standings: the version their stream's first event is compared with.
    stream_version = snapshot_stamp(request, competition)[0]
    mixed = selectors.mixed_team_standings(competition)
    if mixed is not None:
        return render(
            request,
            "teams/mixed_standings.html",
            {
                "club": competition.club,
                "competition": competition,
                "role": role,
                "standings": mixed_standings_payload(mixed),
                "stream_version": stream_version,
            },
        )
    data = selectors.team_standings(competition)
    if data is None:
        raise Http404
    standings = presenters.standings_payload(data)
    rules = selectors.rules_of(competition)
    for row in standings["rows"]:
        row["outlook_view"] = outlook_view(row["outlook"])
    played = [presenters.played_row(m, rules) for m in selectors.matches_played(competition)]
    order = [{"team": r["row"].team, "name": r["name"]} for r in data["rows"]]
    return render(
        request,
        "teams/team_standings.html",
        {
            "club": competition.club,
            "competition": competition,
            "role": role,
            "standings": standings,
            "stream_version": stream_version,
            "outlook": any(row["outlook"] for row in standings["rows"]),
            # the team standings over the rounds (tournaments/partials/bump_chart.html)
            "bump": bump_chart(team_history(competition)),
            "fixtures": [presenters.fixture_row(m) for m in selectors.matches_to_come(competition)],
            "played": played,
            # who beat whom (templates/teams/partials/team_head_to_head.html)
            "matrix": page_matrix(matrix_of(order, played)),
        },
    )


def player_section(request, player, role) -> str:
    """A player's boards in team competitions (``scoring.extensions.PLAYER_PAGE_SECTIONS``)."""
    rows = selectors.player_boards(player.pk)
    if role is None:
        rows = [r for r in rows if r["competition"].public]
    if not rows:
        return ""
    return render_to_string("teams/partials/player_teams.html", {"rows": rows}, request=request)
