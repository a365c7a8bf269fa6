"""Helpers shared by the competition page tests (test_pages_*.py and others): the errors next to
an action, what a browser sends for an untouched form, the standings rows of a page, a
competition of named players, published or not, and a winning hand."""

import re

from scoring import services as scoring
from scoring.services import Actor
from tournaments import services
from tournaments.forms import CompetitionForm


def action_errors(html, action):
    return re.findall(rf'<p class="error" role="alert" data-action="{action}">(.*?)</p>', html)


def untouched(form):
    """What a browser sends for an untouched form: every initial value, ticked boxes as "on"."""
    data = {}
    for name, field in form.fields.items():
        value = form.get_initial_for_field(field, name)
        if value in (None, "", False):
            continue
        data[name] = "on" if value is True else value
    return data


def new_competition(**fields):
    return untouched(CompetitionForm()) | {"name": "Coppa", "rulesets": ["terziglio"]} | fields


def standings_rows(html, table="overall"):
    """(rank, name, points) of each row of a standings table on a page (the rank without its
    arrow since the last round: tests/tournaments/test_bump_pages.py reads those)."""
    section = html.split(f'data-table="{table}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<td class="rank">(.*?)</td>\s*<td class="name">(.*?)</td>\s*<td class="points">(.*?)</td>',
        section,
        re.S,
    )
    return [
        (rank.split("<", 1)[0].strip(), re.sub(r"<.*?>", "", name).strip(), points)
        for rank, name, points in rows
    ]


def make_competition(club, olga, names, **kwargs):
    by = Actor.for_user(olga)
    # The classic placement points (these pages' figures); the fair default has its own tests.
    arguments = {"name": "Coppa", "rulesets": ["terziglio"], "scheme": "placement"} | kwargs
    competition = services.create_competition(club=club, by=by, **arguments)
    for name in names:
        services.add_entry(competition=competition, player=name, by=by)
    return competition


SIX = ["Anna", "Bruno", "Carla", "Dario", "Elio", "Fabio"]


def win(game, by, soloist=1, dealer=0):
    """One chiamo hand made by ``soloist``: with the target at 2 the game is over."""
    scoring.record_hand(
        game=game,
        document={
            "dealer": dealer,
            "outcome": "played",
            "soloist": soloist,
            "contract": "chiamo",
            "soloist_points": 7,
        },
        by=by,
    )


def published_competition(club, olga, names=SIX, **kwargs):
    competition = make_competition(
        club, olga, names, options={"terziglio": {"target_score": 2}}, **kwargs
    )
    by = Actor.for_user(olga)
    round_ = services.add_round(competition=competition, by=by)
    services.generate_round(round_=round_, by=by, seed=9)
    services.publish_round(round_=round_, by=by)
    return competition, round_
