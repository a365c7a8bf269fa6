"""Circuit pages (``docs/circuits.md``).

- ``club_circuits`` (``/c/<club>/circuits/``): a club's circuits. Members read; owners and
  organizers create a circuit, answer an invitation (accept, decline), leave, and add or take
  out their own club's competitions.
- ``circuit_page`` (``/c/<club>/circuits/<circuit>/``): the organizing club's page of one
  circuit: its settings, the clubs invited, the competitions, the players linked, the trail.
- ``public_circuit``, ``circuit_projector``, ``circuit_csv`` (``/circuits/<club>/<circuit>/``):
  the standings for anyone (members of its clubs only for a private circuit).

Every write is a ``circuits.services`` call whose refusal is shown next to its field.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from circuits import selectors, services
from circuits.forms import AddCompetitionForm, CircuitForm, InviteForm, LinkForm
from circuits.models import Circuit, CircuitCompetition
from scoring import access
from scoring.models import Club, Membership
from scoring.selectors import role_of
from scoring.services import submissions
from scoring.views.access import speak_club_language, submit
from tournaments.models import Competition
from tournaments.presenters import format_figure
from tournaments.presenters.standings import outlook_view
from tournaments.views.access import attempt_into
from tournaments.views.exports import write_row


def _club_or_404(request, slug: str) -> tuple[Club, str | None]:
    club = get_object_or_404(Club, slug=slug)
    role = role_of(request.user, club)
    if role is None:
        raise Http404
    if request.method == "POST" and not access.is_manager(role):
        raise PermissionDenied
    return club, role


def _own_competitions(club: Club, circuit: Circuit) -> list[tuple[int, str]]:
    """The club's competitions not yet in ``circuit``, as choices."""
    taken = CircuitCompetition.objects.filter(circuit=circuit).values("competition")
    return list(
        Competition.objects.filter(club=club)
        .exclude(pk__in=taken)
        .order_by("-created_at")
        .values_list("pk", "name")
    )


@login_required
def club_circuits(request, slug: str):
    club, role = _club_or_404(request, slug)
    by = access.actor_for(request)
    form = CircuitForm(
        request.POST if request.POST.get("action") == "create" else None, user=request.user
    )
    errors: dict[Any, list[str]] = {}
    if request.method == "POST":
        answer = _club_action(request, club, by, form, errors)
        if answer is not None:
            return answer
    places = list(club.circuit_places.select_related("circuit__club").order_by("-invited_at"))
    add_forms = {
        p.circuit_id: AddCompetitionForm(
            prefix=f"c{p.circuit_id}", choices=_own_competitions(club, p.circuit)
        )
        for p in places
        if p.joined
    }
    mine = {
        p.circuit_id: [
            c for c in selectors.competitions_of(p.circuit) if c["club_slug"] == club.slug
        ]
        for p in places
    }
    status = 400 if (form.errors or errors) else 200
    return render(
        request,
        "circuits/circuits.html",
        {
            "club": club,
            "role": role,
            "manager": access.is_manager(role),
            "form": form,
            "places": [
                {
                    "place": p,
                    "circuit": p.circuit,
                    "add_form": add_forms.get(p.circuit_id),
                    "competitions": mine[p.circuit_id],
                    "errors": errors.get(p.circuit_id, []),
                }
                for p in places
            ],
        },
        status=status,
    )


def _club_action(request, club, by, form, errors):
    """A posted action of the club's circuits page: a redirect when done, else None."""
    action = request.POST.get("action")
    if action == "create":
        if not form.is_valid():
            return None
        try:
            with submissions.once(token=form.once_token(), by=by, purpose="new_circuit") as made:
                circuit = submit(
                    form, services.create_circuit, club=club, by=by, **form.service_arguments()
                )
                if circuit is not None:
                    made(reverse("circuit", args=[club.slug, circuit.slug]))
        except submissions.AlreadySubmitted as sent:
            return redirect(sent.answer or reverse("club-circuits", args=[club.slug]))
        if circuit is None:
            return None
        messages.success(request, _("%(name)s is ready: invite clubs.") % {"name": circuit.name})
        return redirect("circuit", club_slug=club.slug, slug=circuit.slug)
    circuit = Circuit.objects.filter(pk=_int(request.POST.get("circuit"))).first()
    if circuit is None or action not in CLUB_ACTIONS:
        return HttpResponseBadRequest(_("Unknown action."))
    if CLUB_ACTIONS[action](request, club, by, circuit, errors):
        return redirect("club-circuits", slug=club.slug)
    return None


def _int(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _attempt(errors, key, service, **kwargs) -> bool:
    """Call ``service``; its refusal's sentences go to ``errors[key]``. True when done."""
    attempt_into(errors, key, service, **kwargs)
    return key not in errors


def _accept(request, club, by, circuit, errors) -> bool:
    return _attempt(
        errors, circuit.pk, services.accept_invitation, circuit=circuit, by=by, club=club
    )


def _leave(request, club, by, circuit, errors) -> bool:
    return _attempt(errors, circuit.pk, services.leave_circuit, circuit=circuit, by=by, club=club)


def _add(request, club, by, circuit, errors) -> bool:
    form = AddCompetitionForm(
        request.POST, prefix=f"c{circuit.pk}", choices=_own_competitions(club, circuit)
    )
    if not form.is_valid():
        errors[circuit.pk] = [e for m in form.errors.values() for e in m]
        return False
    return _attempt(
        errors,
        circuit.pk,
        services.add_competition,
        circuit=circuit,
        by=by,
        competition=form.cleaned_data["competition"],
    )


def _remove(request, club, by, circuit, errors) -> bool:
    competition = Competition.objects.filter(
        pk=_int(request.POST.get("competition")), club=club
    ).first()
    if competition is None:
        raise Http404
    return _attempt(
        errors,
        circuit.pk,
        services.remove_competition,
        circuit=circuit,
        by=by,
        competition=competition,
    )


CLUB_ACTIONS = {"accept": _accept, "leave": _leave, "add": _add, "remove": _remove}


def _circuit_or_404(request, club_slug: str, slug: str) -> tuple[Circuit, str | None]:
    circuit = get_object_or_404(
        Circuit.objects.select_related("club"), club__slug=club_slug, slug=slug
    )
    speak_club_language(request, circuit.club)
    return circuit, role_of(request.user, circuit.club)


@login_required
def circuit_page(request, club_slug: str, slug: str):
    circuit, role = _circuit_or_404(request, club_slug, slug)
    if role is None:
        raise Http404
    if request.method == "POST" and not access.is_manager(role):
        raise PermissionDenied
    by = access.actor_for(request)
    action = request.POST.get("action") if request.method == "POST" else None
    forms = _circuit_forms(request, circuit, action)
    if action is not None:
        handler = CIRCUIT_ACTIONS.get(action)
        if handler is None:
            return HttpResponseBadRequest(_("Unknown action."))
        if handler(request, circuit, by, forms):
            return redirect("circuit", club_slug=club_slug, slug=slug)
    failed = any(f.errors for f in forms.values())
    return render(
        request,
        "circuits/circuit.html",
        {
            "club": circuit.club,
            "circuit": circuit,
            "role": role,
            "manager": access.is_manager(role),
            "places": selectors.places_of(circuit),
            "competitions": selectors.competitions_of(circuit),
            "links": selectors.links_of(circuit),
            "events": [
                (e, EVENT_LABELS.get(e.action, e.action)) for e in selectors.events_of(circuit)
            ],
            **forms,
        },
        status=400 if failed else 200,
    )


def _circuit_forms(request, circuit: Circuit, action: str | None) -> dict[str, Any]:
    def data(name: str):
        return request.POST if action == name else None

    return {
        "settings_form": CircuitForm(data("settings"), initial=CircuitForm.initial_of(circuit)),
        "invite_form": InviteForm(data("invite")),
        "add_form": AddCompetitionForm(
            data("add"), choices=_own_competitions(circuit.club, circuit)
        ),
        "link_form": LinkForm(data("link"), players=selectors.linkable_players(circuit)),
    }


def _settings(request, circuit, by, forms) -> bool:
    form = forms["settings_form"]
    if not form.is_valid():
        return False
    arguments = form.service_arguments()
    return submit(form, services.change_circuit, circuit=circuit, by=by, **arguments) is not None


def _invite(request, circuit, by, forms) -> bool:
    form = forms["invite_form"]
    return form.is_valid() and (
        submit(form, services.invite_club, circuit=circuit, by=by, club=form.cleaned_data["club"])
        is not None
    )


def _add_own(request, circuit, by, forms) -> bool:
    form = forms["add_form"]
    return form.is_valid() and (
        submit(
            form,
            services.add_competition,
            circuit=circuit,
            by=by,
            competition=form.cleaned_data["competition"],
        )
        is not None
    )


def _remove_any(request, circuit, by, forms) -> bool:
    competition = _int(request.POST.get("competition"))
    if not CircuitCompetition.objects.filter(circuit=circuit, competition=competition).exists():
        raise Http404
    services.remove_competition(circuit=circuit, by=by, competition=competition)
    return True


def _link(request, circuit, by, forms) -> bool:
    form = forms["link_form"]
    return form.is_valid() and (
        submit(form, services.link_players, circuit=circuit, by=by, **form.cleaned_data) is not None
    )


def _unlink(request, circuit, by, forms) -> bool:
    link = circuit.links.filter(pk=_int(request.POST.get("link"))).first()
    if link is None:
        raise Http404
    services.unlink_players(circuit=circuit, by=by, link=link)
    return True


#: The trail's actions in words.
EVENT_LABELS = {
    "create": gettext_lazy("circuit created"),
    "change": gettext_lazy("settings changed"),
    "invite": gettext_lazy("club invited"),
    "accept": gettext_lazy("invitation accepted"),
    "decline": gettext_lazy("invitation declined"),
    "leave": gettext_lazy("club left"),
    "add_competition": gettext_lazy("competition added"),
    "remove_competition": gettext_lazy("competition taken out"),
    "link": gettext_lazy("players linked"),
    "unlink": gettext_lazy("link undone"),
}

CIRCUIT_ACTIONS = {
    "settings": _settings,
    "invite": _invite,
    "add": _add_own,
    "remove": _remove_any,
    "link": _link,
    "unlink": _unlink,
}


def public_circuit_or_404(request, club_slug: str, slug: str) -> Circuit:
    circuit, _role = _circuit_or_404(request, club_slug, slug)
    if not circuit.public and not (
        request.user.is_authenticated
        and Membership.objects.filter(
            user=request.user, club__circuit_places__circuit=circuit
        ).exists()
    ):
        raise Http404
    return circuit


def _shown(standings: dict[str, Any]) -> dict[str, Any]:
    """The standings with their figures written for the reader, and who can still win."""
    for row in standings["rows"]:
        row["outlook_view"] = outlook_view(row.get("outlook"))
        row["points_text"] = format_figure(row["points"])
        for result in row["results"]:
            result["points_text"] = format_figure(result["points"])
    # The same final ranks for everyone ("Final rank 1 or below" early in a season) are said
    # once under the table, not on every row (a phone's page was 4,500 px long).
    views = [r["outlook_view"] for r in standings["rows"] if r["outlook_view"]]
    shared = {v["ranks"] for v in views}
    standings["shared_ranks"] = shared.pop() if len(views) > 1 and len(shared) == 1 else ""
    if standings["shared_ranks"]:
        for view in views:
            view["ranks"] = ""
    return standings


def public_circuit(request, club_slug: str, slug: str):
    circuit = public_circuit_or_404(request, club_slug, slug)
    standings = _shown(selectors.circuit_standings(circuit))
    return render(
        request,
        "circuits/circuit_public.html",
        {
            "club": circuit.club,
            "circuit": circuit,
            "standings": standings,
            "ranked": [r for r in standings["rows"] if r["ranked"]],
            "unranked": [r for r in standings["rows"] if not r["ranked"]],
            "live": [c for c in standings["competitions"] if c["counts"] and not c["final"]],
            "estimated": any(r["outlook"] and not r["outlook"]["exact"] for r in standings["rows"]),
        },
    )


def circuit_projector(request, club_slug: str, slug: str):
    circuit = public_circuit_or_404(request, club_slug, slug)
    standings = _shown(selectors.circuit_standings(circuit))
    return render(
        request,
        "circuits/circuit_projector.html",
        {
            "club": circuit.club,
            "circuit": circuit,
            "ranked": [r for r in standings["rows"] if r["ranked"]],
            "unranked": [r for r in standings["rows"] if not r["ranked"]],
        },
    )


def circuit_csv(request, club_slug: str, slug: str):
    """The circuit's standings as a spreadsheet: semicolons, one row per person, one column per
    competition (its points, in brackets when not counted, with a * while provisional)."""
    circuit = public_circuit_or_404(request, club_slug, slug)
    standings = selectors.circuit_standings(circuit)
    competitions = [c for c in standings["competitions"] if c["counts"]]
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    header = [_("Rank"), _("Name"), _("Clubs"), _("Points"), _("Competitions")]
    write_row(writer, header + [c["name"] for c in competitions])
    for row in standings["rows"]:
        by_competition = {r["competition"]: r for r in row["results"]}
        cells = []
        for competition in competitions:
            result = by_competition.get(competition["id"])
            if result is None:
                cells.append("")
                continue
            text = format_figure(result["points"])
            if not result["counted"] and not result["provisional"]:
                text = f"({text})"
            cells.append(text + ("*" if result["provisional"] else ""))
        rank = row["rank"] if row["ranked"] else ""
        write_row(
            writer,
            [
                rank,
                row["name"],
                ", ".join(row["clubs"]),
                format_figure(row["points"]),
                row["events"],
                *cells,
            ],
        )
    response = HttpResponse(
        buffer.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{circuit.slug}-standings.csv"'
    return response
