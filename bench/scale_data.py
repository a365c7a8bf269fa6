"""The federation of bench/scale.py, built: one club as the services would leave it, then as
many copies of it as wanted, made by the database itself.

A club (``build_club``) is the demo club of ``manage.py loaddemo`` (every game the app scores,
finished, in progress, corrected and abandoned, entered through the services; a finished
rotation tournament and a running club-night league), plus a competition of every other format
(Swiss, round robin, knockout, double elimination: entries, round 1 drawn, published, played
and closed through the services), plus its history: finished games of every ruleset until the
club holds ``hands`` hands, played by the real rules engine (a pool of games per ruleset, played
once per process and reused) and stored in bulk with what the services write beside them (seats,
the ``start_game`` and ``record_hand`` audit events, an idempotency record for each hand sent
by the API in the last day), and its ratings recomputed by ``services.ratings``.

``replicate`` copies every row of the first club (the template) ``copies`` times with
``INSERT … SELECT`` over a recursive list of copy numbers: each copy's ids are shifted past the table's
highest, its foreign keys by the same shift as the table they name, its unique texts (a
club's address, a user name, a token) suffixed with the copy's number. JSON columns are copied
as they are (ids inside them name the template's rows): the copies are the federation's
weight, the club measured is built by ``build_club`` itself.

Imported by bench/scale.py and by tests/bench/test_query_plans.py (which builds a small
federation in the test database to ``EXPLAIN`` every query of the operations measured).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

#: Players of a club (the demo's dozen, and more added up to this).
PLAYERS = 25
#: Engine-played games kept per ruleset, reused by every club's history.
POOL = 40
#: Hands of the last day sent through the API with an Idempotency-Key (records kept 48 h).
RECENT_API_HANDS = 40
#: Formats the demo does not build, added by ``add_competitions`` (two-sided: Briscola singles).
OTHER_FORMATS = ("swiss", "round_robin", "knockout", "double")

_pools: dict[tuple[str, int], list[tuple[dict, int, Any]]] = {}


# ---------------------------------------------------------------------------------------------
# One club


def build_club(*, slug: str, hands: int, seed: int = 1):
    """A club of about ``hands`` hands at address ``slug`` (see the module docstring).
    Returns the club. Needs a database where no club has the demo's address."""
    from django.contrib.auth import get_user_model

    from scoring import demo
    from scoring.extensions import DEMO_LOADERS
    from scoring.models import Club, Hand
    from scoring.services import Actor, ratings

    owner = get_user_model().objects.create_user(f"owner-{slug}", password=None)
    club, _created = demo.load(owner)
    for loader in DEMO_LOADERS:
        # Not the demo's circuit: it joins a second club, and a circuit is no one club's data
        # (the club document leaves it out too).
        if loader.__module__ != "circuits.demo":
            loader(club, owner)
    by = Actor.for_user(owner)
    players = add_players(club, by)
    add_competitions(club, by, players, random.Random(seed))
    have = Hand.objects.filter(game__club=club).count()
    add_history(club, owner, players, max(0, hands - have), random.Random(seed))
    ratings.recompute_club(club=club)
    Club.objects.filter(pk=club.pk).update(slug=slug, name=f"Circolo {slug}")
    club.refresh_from_db()
    return club


def add_players(club, by) -> list:
    from scoring import services
    from scoring.models import Player

    have = Player.objects.filter(club=club).count()
    for i in range(have, PLAYERS):
        services.add_player(club=club, display_name=f"Giocatore {i + 1:02}", by=by)
    return list(Player.objects.filter(club=club).order_by("pk"))


def add_competitions(club, by, players, rng: random.Random) -> None:
    """One competition of each format the demo lacks: eight entrants, round 1 drawn,
    published, every game played to its end through the services, the round closed."""
    from tournaments import demo as tournaments_demo
    from tournaments import services

    for format_ in OTHER_FORMATS:
        competition = services.create_competition(
            club=club,
            by=by,
            name=f"Torneo {format_}",
            rulesets=["briscola"],
            kind="tournament",
            format=format_,
        )
        for player in players[:8]:
            services.add_entry(competition=competition, player=player, by=by)
        first = services.add_round(competition=competition, by=by)
        services.generate_round(round_=first, by=by, seed=rng.randrange(1, 10**6))
        first.refresh_from_db()
        services.publish_round(round_=first, by=by)
        for game in tournaments_demo.round_games(first):
            tournaments_demo.play(game, by, rng, finish=True)
        services.close_round(round_=first, by=by)


def pool(ruleset: str, seed: int) -> list[tuple[dict, int, Any]]:
    """Finished games of ``ruleset`` played by the engine: (options, seats, scored game)."""
    key = (ruleset, seed)
    if key not in _pools:
        from scoring.demo.hands import HAND_MAKERS
        from scoring.rules import RULESETS, engine

        rules, make = RULESETS[ruleset], HAND_MAKERS[ruleset]
        rng = random.Random(f"{seed}-{ruleset}")
        games = []
        while len(games) < POOL:
            n = rng.randint(rules.min_seats, rules.max_seats)
            options = rules.resolve_options({}, n)
            game = engine.start(rules, options, n)
            dealer = rng.randrange(n)
            while not game.finished and game.state.hands_played < 400:
                game = engine.play(game, make(rng, n, options, dealer))
                dealer = (dealer + 1) % n
            if game.finished:
                games.append((options, n, game))
        _pools[key] = games
    return _pools[key]


def add_history(club, owner, players, hands: int, rng: random.Random) -> None:
    """Finished games of every ruleset, in turn, until ``hands`` more hands are stored; each
    with its seats, its audit events and (the last day's API hands) idempotency records."""
    from django.utils import timezone

    from scoring.models import Game
    from scoring.rules import RULESETS

    now = timezone.now()
    rulesets = list(RULESETS)
    planned: list[tuple[str, dict, int, Any, list]] = []
    total = 0
    while total < hands:
        ruleset = rulesets[len(planned) % len(rulesets)]
        options, n, scored = rng.choice(pool(ruleset, 1))
        planned.append((ruleset, options, n, scored, rng.sample(players, n)))
        total += len(scored.hands)
    days = 3 * 365
    games = Game.objects.bulk_create(
        Game(
            club=club,
            ruleset=ruleset,
            options=options,
            title="",
            status="finished",
            created_at=now - dt.timedelta(days=days * (len(planned) - i) / len(planned)),
            finished_at=now
            - dt.timedelta(days=days * (len(planned) - i) / len(planned))
            + dt.timedelta(hours=2),
            created_by=owner,
            hand_count=len(scored.hands),
            totals=list(scored.totals),
            card_points=None
            if scored.state.card_points is None
            else list(scored.state.card_points),
            last_dealer=scored.state.last_dealer,
            version=1 + len(scored.hands),
            last_hand_serial=len(scored.hands),
        )
        for i, (ruleset, options, n, scored, _seated) in enumerate(planned)
    )
    store_rows(club, owner, games, planned, now)


def store_rows(club, owner, games, planned, now) -> None:
    from scoring.models import AuditEvent, Hand, IdempotencyRecord, Seat

    Seat.objects.bulk_create(
        Seat(game=game, index=i, player=p, side=_side(spec[0], spec[1], spec[2], i))
        for game, spec in zip(games, planned, strict=True)
        for i, p in enumerate(spec[4])
    )
    Hand.objects.bulk_create(_hands(games, planned, owner), batch_size=5000)
    AuditEvent.objects.bulk_create(_events(club, games, planned, owner), batch_size=5000)
    recent = [(game, h) for game, spec in zip(games, planned, strict=True) for h in spec[3].hands][
        -RECENT_API_HANDS:
    ]
    IdempotencyRecord.objects.bulk_create(
        IdempotencyRecord(
            client=f"user:{owner.pk}",
            key=f"{game.pk}-{h.number}",
            game=game,
            fingerprint="0" * 64,
            status_code=201,
            response={"number": h.number, "deltas": list(h.deltas)},
            created_at=now - dt.timedelta(hours=1),
        )
        for game, h in recent
    )


def _side(ruleset: str, options: dict, n: int, seat: int) -> int | None:
    """The seat's fixed side (Briscola), as ``services.start_game`` stores it."""
    from scoring.rules import RULESETS

    for number, members in enumerate(RULESETS[ruleset].sides(options, n) or ()):
        if seat in members:
            return number
    return None


def _hands(games, planned, owner) -> Iterator:
    from scoring.models import Hand

    for game, spec in zip(games, planned, strict=True):
        at = game.created_at
        for h in spec[3].hands:
            when = at + dt.timedelta(minutes=4 * h.number)
            yield Hand(
                game=game,
                number=h.number,
                serial=h.number,
                document=dict(h.document),
                deltas=list(h.deltas),
                side_points=None if h.side_points is None else list(h.side_points),
                entered_by=owner,
                entered_via="page",
                created_at=when,
                updated_at=when,
            )


def _events(club, games, planned, owner) -> Iterator:
    from scoring.models import AuditEvent

    for game, spec in zip(games, planned, strict=True):
        yield AuditEvent(
            club=club,
            game=game,
            action="start_game",
            actor=owner,
            at=game.created_at,
            after={"ruleset": spec[0], "players": [p.display_name for p in spec[4]]},
        )
        for h in spec[3].hands:
            yield AuditEvent(
                club=club,
                game=game,
                hand_number=h.number,
                hand_serial=h.number,
                action="record_hand",
                actor=owner,
                at=game.created_at + dt.timedelta(minutes=4 * h.number),
                after={"document": dict(h.document), "deltas": list(h.deltas)},
            )


# ---------------------------------------------------------------------------------------------
# Copies


def replicated_models() -> list:
    from django.apps import apps
    from django.contrib.auth import get_user_model
    from django.db.models import AutoField

    models = [get_user_model()]
    for label in ("scoring", "tournaments", "registration", "teams", "circuits"):
        models += [
            m
            for m in apps.get_app_config(label).get_models()
            # Rows numbered 1…span (a key of its own, as a throttle's counter, is no copy's).
            if not m._meta.proxy and isinstance(m._meta.pk, AutoField)
        ]
    return models


def _unique_texts(model) -> set[str]:
    from django.db import models as m

    names = {f.name for f in model._meta.concrete_fields if f.unique and not f.primary_key}
    for constraint in model._meta.constraints:
        if isinstance(constraint, m.UniqueConstraint):
            names |= set(constraint.fields)
    return {
        f.attname
        for f in model._meta.concrete_fields
        if f.name in names and isinstance(f, m.CharField)
    }


def spans() -> dict[str, int]:
    """The template's highest id in every replicated table (its rows are 1…span)."""
    from django.db import connection

    found = {}
    with connection.cursor() as cursor:
        for model in replicated_models():
            table = model._meta.db_table
            cursor.execute(f'SELECT coalesce(max(id), 0) FROM "{table}"')
            found[table] = cursor.fetchone()[0]
    return found


def replicate(
    template: dict[str, int],
    copies: int,
    *,
    chunk: int = 50,
    numbered_from: int = 0,
    unchecked: bool = False,
) -> None:
    """``copies`` more copies of the template (its rows up to ``template``'s ids), after the
    highest ids there now, ``chunk`` copies per statement. ``unchecked`` (PostgreSQL, outside
    any transaction): foreign keys checked by nobody (the copies are made of rows that passed
    them). The SQL is PostgreSQL's and SQLite's alike. Copies are numbered from ``numbered_from`` + 1
    (the suffix of their unique texts)."""
    from django.db import connection, transaction

    if copies < 1:
        return
    base = spans()
    done = 0
    while done < copies:
        now = min(chunk, copies - done)
        with transaction.atomic(), connection.cursor() as cursor:
            if unchecked:
                cursor.execute("SET LOCAL session_replication_role = replica")
            for model in replicated_models():
                sql = _copy_sql(model, template, base, done + 1, done + now, numbered_from)
                if sql:
                    cursor.execute(sql)
        done += now
    reset_sequences()


def _copy_sql(model, template, base, first: int, last: int, numbered_from: int) -> str | None:
    table = model._meta.db_table
    span = template[table]
    if span == 0:
        return None
    unique = _unique_texts(model)
    columns, values = [], []
    for field in model._meta.concrete_fields:
        column = field.column
        columns.append(f'"{column}"')
        src = f'src."{column}"'
        if field.primary_key:
            values.append(f"{src} + {base[table]} + (k - 1) * {span}")
        elif field.is_relation and field.related_model._meta.db_table in template:
            target = field.related_model._meta.db_table
            if template[target]:
                values.append(f"{src} + {base[target]} + (k - 1) * {template[target]}")
            else:
                values.append(src)
        elif column in unique and (field.max_length or 40) > 8:
            # A short text unique with a row it names (a lineup's side at a board) stays as it is:
            # the copy names another row. A longer one gets the copy's number.
            keep = (field.max_length or 40) - 6
            values.append(f"substr({src}, 1, {keep}) || '-' || (k + {numbered_from})")
        else:
            values.append(src)
    return (
        f"WITH RECURSIVE copies(k) AS (SELECT {first} UNION ALL "
        f"SELECT k + 1 FROM copies WHERE k < {last}) "
        f'INSERT INTO "{table}" ({", ".join(columns)}) '
        f'SELECT {", ".join(values)} FROM "{table}" AS src, copies WHERE src.id <= {span}'
    )


def reset_sequences() -> None:
    from django.db import connection

    if connection.vendor != "postgresql":
        return  # SQLite's next id follows the highest
    with connection.cursor() as cursor:
        for model in replicated_models():
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
                f'(SELECT coalesce(max(id), 0) + 1 FROM "{table}"), false)'
            )


def secondary_indexes() -> list[tuple[str, str]]:
    """(DROP, CREATE) statements of every index of the replicated tables but their primary
    keys, unique constraints included: a copy is made faster without them, then each is built
    once, in bulk."""
    from django.db import connection

    tables = [m._meta.db_table for m in replicated_models()]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid) "
            "FROM pg_constraint c WHERE c.contype = 'u' AND c.conrelid::regclass::text = ANY(%s)",
            [tables],
        )
        found = [
            (
                f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"',
                f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}',
            )
            for table, name, definition in cursor.fetchall()
        ]
        cursor.execute(
            "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
            "WHERE i.indrelid::regclass::text = ANY(%s) AND NOT i.indisprimary "
            "AND i.indexrelid NOT IN (SELECT conindid FROM pg_constraint)",
            [tables],
        )
        found += [(f"DROP INDEX {name}", definition) for name, definition in cursor.fetchall()]
    return found


def replicate_in_bulk(template: dict[str, int], copies: int, *, chunk: int = 50) -> None:
    """``replicate`` with the secondary indexes dropped first and built again after."""
    from django.db import connection

    indexes = secondary_indexes()
    with connection.cursor() as cursor:
        for drop, _create in indexes:
            cursor.execute(drop)
    replicate(template, copies, chunk=chunk, unchecked=True)
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '512MB'")
        for _drop, create in indexes:
            cursor.execute(create)


def federation(
    *, clubs: int, hands: int, measured: str, seed: int = 1, chunk: int = 50, bulk: bool = True
):
    """The federation: the template club, the club ``measured`` (built by ``build_club`` too,
    alike), then the copies of the template. ``hands`` in all, about; returns the measured
    club. ``bulk`` (PostgreSQL, outside any transaction): copied by ``replicate_in_bulk``."""
    per_club = max(1, hands // clubs)
    build_club(slug="template", hands=per_club, seed=seed)
    template = spans()
    club = build_club(slug=measured, hands=per_club, seed=seed)
    if bulk:
        replicate_in_bulk(template, clubs - 2, chunk=chunk)
    else:
        replicate(template, clubs - 2, chunk=chunk)
    return club
