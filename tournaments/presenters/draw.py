"""The quality of a draw in words: its headline, the floors under unavoidable repeats, who meets
again (by name), the other figures with their notes, and what a swap would change; and a
refused background draw in words (``draw_notice``); how a Swiss round was drawn
(``swiss_method``)."""

from __future__ import annotations

import datetime as dt

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.messages import message
from tournaments.messages import DRAW_REFUSED_ADVICE
from tournaments.presenters.competitions import alphabetical

METRICS = (
    ("byes_per_player", gettext_lazy("Byes per player"), "range"),
    ("first_dealer", gettext_lazy("First dealer per player"), "range"),
    ("sit_outs", gettext_lazy("Sitting out per player"), "range"),
    ("lower_bound", gettext_lazy("Rounds possible without a repeat"), "one"),
    ("seconds", gettext_lazy("Time to draw"), "seconds"),
)


def swiss_method(method: str, first: bool) -> str:
    """How a Swiss round is drawn, in words for the draw panel: ``method`` as the round keeps it
    ("rating", "random", "entered", "swiss"; empty before a draw), ``first`` for round 1."""
    if not first:
        return _(
            "Paired by score: players on the same points at the same table, avoiding those "
            "who already met."
        )
    bands = _(
        "At tables of more than 2 the field is cut into as many bands as a table has seats, "
        "best first, and each table takes one player from each band."
    )
    said = {
        "rating": _(
            "Round 1, by the club's rating: the top half against the bottom half; who meets "
            "whom within the halves is drawn, and entrants without a rating come after those "
            "with one, in a drawn order."
        ),
        "random": _(
            "Round 1, at random: no entrant has a club rating yet, so the order is drawn. "
            "Drawing again gives other tables."
        ),
        "entered": _(
            "Round 1, in the order entered: the first entries together at table 1, the next "
            "at table 2, and so on. Drawing again gives the same tables."
        ),
    }.get(method)
    if said is None:
        return (
            _(
                "Round 1 is drawn: the top half against the bottom half by the club's rating "
                "where entrants have one, otherwise at random. Later rounds pair by score."
            )
            + " "
            + bands
        )
    return said + " " + bands if method == "rating" else said


def _metric_notes() -> dict[str, str]:
    return {
        "byes_per_player": _("Rounds a player sits out entirely: fewest – most."),
        "first_dealer": _("Times a player deals first (seat 1): fewest – most."),
        "sit_outs": _(
            "Times a player is the dealer who sits out at a larger table: fewest – most."
        ),
        "lower_bound": _("The most rounds this many players can play without meeting twice."),
        "seconds": _("How long the draw took."),
    }


def metrics_rows(metrics: dict) -> list[dict]:
    """The figures of a draw other than its repeats, with a short explanation each. The draw
    time only when the figures come from a draw (a swap measures, it does not draw)."""
    notes = _metric_notes()
    rows = []
    for key, label, kind in METRICS:
        if key not in metrics:
            continue
        value = metrics[key]
        if kind == "range":
            low, high = [*value, 0, 0][:2]
            text = str(low) if low == high else f"{low}–{high}"
        elif kind == "seconds":
            text = _("%(s)s s") % {"s": formats.number_format(value, use_l10n=True)}
        else:
            text = str(value)
        rows.append({"key": key, "label": label, "value": text, "note": notes[key]})
    return rows


def pair_name(names: dict[int, str], a: int, b: int) -> str:
    """Two entries named together, alphabetically: "Anna and Bruno"."""
    first, second = sorted((names.get(a, "?"), names.get(b, "?")), key=alphabetical)
    return _("%(a)s and %(b)s") % {"a": first, "b": second}


def _pairs(tables) -> list[tuple[int, int]]:
    return [
        (min(x, y), max(x, y))
        for table in tables
        for i, x in enumerate(table)
        for y in table[i + 1 :]
    ]


def repeats_of(drawn: dict[int, list[tuple[int, ...]]], number: int) -> dict:
    """Who repeats, from every round's tables (``selectors.drawn_tables``): ``this_round`` maps
    how often a pair met in earlier rounds to the pairs of round ``number`` that meet again;
    ``plan`` maps a number of meetings (2 or more) to the pairs that meet that often over all
    the rounds."""
    met: dict[tuple[int, int], int] = {}
    this_round: dict[int, list[tuple[int, int]]] = {}
    for n, tables in sorted(drawn.items()):
        pairs = _pairs(tables)
        if n == number:
            for key in pairs:
                if met.get(key):
                    this_round.setdefault(met[key], []).append(key)
        for key in pairs:
            met[key] = met.get(key, 0) + 1
    plan: dict[int, list[tuple[int, int]]] = {}
    for key, count in met.items():
        if count > 1:
            plan.setdefault(count, []).append(key)
    return {"this_round": this_round, "plan": plan}


def _named_groups(groups: dict[int, list[tuple[int, int]]], names, heading) -> list[dict]:
    return [
        {
            "count": count,
            "heading": heading(count),
            "pairs": sorted((pair_name(names, a, b) for a, b in groups[count]), key=alphabetical),
        }
        for count in sorted(groups, reverse=True)
    ]


def _headline(repeated: int, most: int) -> str:
    if not repeated:
        return _("Nobody meets anybody twice.")
    headline = ngettext(
        "%(count)s repeated meeting: two players sit together again.",
        "%(count)s repeated meetings: players sit together again.",
        repeated,
    ) % {"count": repeated}
    if most > 1:
        headline += " " + ngettext(
            "No pair meets more than once.",
            "No pair meets more than %(count)s times.",
            most,
        ) % {"count": most}
    return headline


def _floor(bounds: dict, repeated: int, most: int) -> str:
    """The floors under the unavoidable repeats, when the draw knows them and they hold: they
    assume the same players in every round, so a draw that did better (an entrant who came
    late or withdrew) says so rather than show a floor its own figures contradict."""
    if not bounds:
        return ""
    if not bounds["fewest"]:
        return _("Nothing rules out a draw without any repeat for these rounds.")
    if bounds["fewest"] > repeated or bounds["spread"] > max(most, 1):
        return _("The players changed between rounds: no floor of unavoidable repeats applies.")
    floor = ngettext(
        "At least %(count)s repeated meeting is unavoidable;",
        "At least %(count)s repeated meetings are unavoidable;",
        bounds["fewest"],
    ) % {"count": bounds["fewest"]}
    return (
        floor
        + " "
        + ngettext(
            "no pair needs to meet more than once.",
            "no pair needs to meet more than %(count)s times.",
            bounds["spread"],
        )
        % {"count": bounds["spread"]}
    )


def _group_of(groups: list[tuple[str, list[int]]]) -> dict[int, str]:
    return {entry: name for name, entries in groups for entry in entries}


def _forced(groups, tables) -> tuple[int, list[str]]:
    """The fewest tables that must seat two of one group, and why: a group with more players
    seated than there are tables. Spread as the draw spreads them (fewest team-mates meeting),
    ``n`` players over ``T`` tables leave ``n - T`` tables (all ``T`` past ``2T``) with two."""
    seated = {entry for table in tables for entry in table}
    count = len(tables)
    fewest, why = 0, []
    for name, entries in sorted(groups, key=lambda g: alphabetical(g[0])):
        players = len(seated.intersection(entries))
        if players > count:
            fewest = max(fewest, min(count, players - count))
            why.append(
                ngettext(
                    "team %(team)s has %(players)s players for %(count)s table",
                    "team %(team)s has %(players)s players for %(count)s tables",
                    count,
                )
                % {"team": name, "players": players, "count": count}
            )
    return fewest, why


def team_mates_line(groups: list[tuple[str, list[int]]], tables) -> dict | None:
    """How many of a round's tables seat two team-mates (``selectors.draw_groups``), and
    whether the tables forced it: "Team-mates at one table: 1 (forced: team Castello has 5
    players for 4 tables)". None for a competition of individuals."""
    if not groups:
        return None
    group_of = _group_of(groups)
    together = 0
    for table in tables:
        teams = [group_of[e] for e in table if e in group_of]
        together += len(teams) != len(set(teams))
    fewest, why = _forced(groups, tables)
    if not together:
        said = _("none forced")
    elif not fewest:
        said = _("none forced: the tables leave room to seat every team apart")
    elif together <= fewest:
        said = _("forced: %(why)s") % {"why": "; ".join(why)}
    else:
        said = _("only %(fewest)s forced: %(why)s") % {"fewest": fewest, "why": "; ".join(why)}
    return {
        "count": together,
        "forced": min(together, fewest),
        "good": together <= fewest,
        "text": _("Team-mates at one table: %(count)s (%(said)s)")
        % {"count": together, "said": said},
    }


def new_team_mates(groups, before, after, names: dict[int, str]) -> list[str]:
    """The team-mates a change seats together who were not together before: "Anna and Bruno
    are both Castello", alphabetically (``before`` and ``after``: the round's tables)."""
    group_of = _group_of(groups)
    was = set(_pairs(before))
    warnings = [
        _("%(pair)s are both %(team)s") % {"pair": pair_name(names, a, b), "team": group_of[a]}
        for a, b in _pairs(after)
        if (a, b) not in was and a in group_of and group_of[a] == group_of.get(b)
    ]
    return sorted(warnings, key=alphabetical)


def draw_quality(
    metrics: dict,
    drawn: dict[int, list[tuple[int, ...]]],
    number: int,
    names: dict[int, str],
    groups: list[tuple[str, list[int]]] = (),
) -> dict | None:
    """The quality of a draw in words: a headline (no repeat, or how many), the floors under
    the unavoidable repeats when the draw knows them, the pairs of this round who met before
    (grouped by how often), over a planned rotation the pairs who meet more than once, the
    other figures (``metrics_rows``) and, for teams at mixed tables (``groups``), how many
    tables seat team-mates (``team_mates_line``)."""
    if not metrics:
        return None
    repeats = repeats_of(drawn, number)
    # The figures and the lists below agree: a knockout measures its round alone, while the
    # lists cover every round drawn (who meets again over the whole bracket).
    repeated = max(
        metrics.get("repeated_pairs", 0),
        sum((count - 1) * len(pairs) for count, pairs in repeats["plan"].items()),
    )
    most = max(metrics.get("max_meetings", 0), max(repeats["plan"], default=0))
    # A bracket's round (its ``matches`` stored by ``services.bracket``) seats who the seeds
    # and the results say: a rematch there is forced, not a fault of the draw.
    forced = "matches" in metrics and bool(repeated)
    return {
        "good": not repeated or forced,
        "forced": forced,
        "headline": _headline(repeated, most),
        "floor": _(
            "The bracket decides who meets: these meetings cannot be avoided and are not a "
            "fault of the draw."
        )
        if forced
        else _floor(metrics.get("bounds") or {}, repeated, most),
        "objective": metrics.get("objective"),
        "this_round": _named_groups(
            repeats["this_round"],
            names,
            lambda c: ngettext("Met once before", "Met %(count)s times before", c) % {"count": c},
        ),
        "plan": _named_groups(
            repeats["plan"],
            names,
            lambda c: ngettext("Meet once", "Meet %(count)s times", c) % {"count": c},
        ),
        "rows": metrics_rows(metrics),
        "team_mates": team_mates_line(list(groups), drawn.get(number, [])),
    }


def swap_effect(preview: dict) -> dict:
    """A swap's preview in words: repeated meetings and the most meetings of a pair, before and
    after."""
    before, after = preview["before"], preview["after"]
    return {
        "rows": [
            {
                "label": _("Repeated meetings"),
                "before": before.get("repeated_pairs", 0),
                "after": after["repeated_pairs"],
            },
            {
                "label": _("Most meetings of two players"),
                "before": before.get("max_meetings", 0),
                "after": after["max_meetings"],
            },
        ],
        "better": after["repeated_pairs"] < before.get("repeated_pairs", 0),
        "worse": after["repeated_pairs"] > before.get("repeated_pairs", 0),
    }


def swap_words(found: dict, drawn, number: int, names: dict[int, str], groups=()) -> dict:
    """A swap's preview (``services.swap_preview``) in words: its effect (``swap_effect``), the
    draw's quality after it, and the team-mates it would seat together (``new_team_mates``),
    a warning shown before the organizer confirms (the swap stays possible)."""
    after = draw_quality(found["after"], drawn | {number: found["tables"]}, number, names, groups)
    return swap_effect(found) | {
        "after_quality": after,
        "team_mates": new_team_mates(groups, drawn.get(number, []), found["tables"], names),
    }


def draw_notice(refusal: dict | None) -> dict | None:
    """A refused background draw (``selectors.draw_refusal``) in words: when, who asked, why,
    and what to do. None when there is none."""
    if refusal is None:
        return None
    return {
        "at": dt.datetime.fromisoformat(refusal["at"]),
        "by_name": refusal["by_name"],
        "messages": [message(p) for p in refusal["problems"]],
        "advice": DRAW_REFUSED_ADVICE,
    }
