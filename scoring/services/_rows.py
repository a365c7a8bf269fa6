"""Plain SQL for the hottest write, entering a hand: the game row locked and read in one
statement, and rows inserted or updated by statements built once per model. Private to
``scoring.services``.

Why not the ORM here: every hand entered locks a game, inserts a hand, an audit event and an
idempotency record, and updates the game's cache. Through the ORM, building and compiling those
five statements took more than half of a hand POST's CPU (a cProfile of the API view on
PostgreSQL: about 10 ms of CPU per hand before, 4 ms after; bench/load.py prints the server's
CPU per hand POST). The statements below are the ones the ORM would send, compiled once; values still go through each field's own
``get_db_prep_save`` and come back through its converters, so a row reads and writes exactly as
through the ORM, on PostgreSQL and SQLite alike. Models written here have no ``save`` signals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

from scoring.models import Game, IdempotencyRecord, Membership


def _connection():
    """This thread's connection itself: ``django.db.connection`` is a proxy that looks the
    connection up again on every attribute read, some fifty times per hand entered."""
    return connections[DEFAULT_DB_ALIAS]


def _prepared() -> bool:
    """Whether the statements here run as prepared statements: on PostgreSQL when
    ``DATABASE_PREPARE`` is on (the default when connections are kept: ``DATABASE_CONN_MAX_AGE``
    or ``DATABASE_POOL``). PostgreSQL then parses and plans each of them once per connection
    instead of on every hand: about a third of its CPU per hand entered (bench/load.py)."""
    connection = _connection()
    return connection.vendor == "postgresql" and settings.DATABASE_PREPARE


def _cursor():
    """A cursor for the statements here: Django's own (its query log, its execute wrappers,
    its database errors) around a psycopg cursor that binds on the server and prepares every
    statement it runs, when ``_prepared``; otherwise Django's usual cursor."""
    connection = _connection()
    if not _prepared():
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's preparing off for the connection (None: nothing is prepared,
        # even when asked); its own cursors bind on the client and never prepare anyway, so
        # turning it on again (psycopg's default) changes only the cursors made here.
        raw.prepare_threshold = 5
    with connection.wrap_database_errors:
        return connection._prepare_cursor(_preparing_cursor()(raw))


@cache
def _preparing_cursor() -> type:
    """Django's server-binding psycopg cursor, preparing whatever it executes (psycopg keeps
    the prepared statements of each connection, and prepares again on a new one)."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=True, binary=binary)

    return PreparingCursor


@cache
def _game_select(vendor: str, with_key: bool) -> str:
    """The lock statement of ``lock_game``: every column of the game, the actor's role in its
    club and (``with_key``) whether the idempotency key was seen. ``vendor`` keys the cache."""
    connection = _connection()
    qn = connection.ops.quote_name
    game, member, record = Game._meta, Membership._meta, IdempotencyRecord._meta
    columns = ", ".join(f"g.{qn(f.column)}" for f in game.concrete_fields)
    role = (
        f"(SELECT m.{qn('role')} FROM {qn(member.db_table)} m "
        f"WHERE m.{qn('club_id')} = g.{qn('club_id')} AND m.{qn('user_id')} = %s LIMIT 1)"
    )
    seen = (
        f", EXISTS(SELECT 1 FROM {qn(record.db_table)} r "
        f"WHERE r.{qn('client')} = %s AND r.{qn('key')} = %s)"
        if with_key
        else ""
    )
    # One table in FROM: the lock holds the game row only (the ORM's ``of=("self",)``). NO KEY:
    # the foreign-key checks of other writers (a rating step naming the game) take FOR KEY SHARE,
    # which FOR UPDATE would make wait (docs/architecture.md, "Locks"). SQLite has no row
    # locks; its IMMEDIATE transactions already serialise the writers.
    features = connection.features
    lock = (
        " FOR NO KEY UPDATE"
        if features.has_select_for_no_key_update
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""
    )
    return (
        f"SELECT {columns}, {role}{seen} FROM {qn(game.db_table)} g WHERE g.{qn('id')} = %s{lock}"
    )


@cache
def _converters(model: type[Model], vendor: str) -> list[tuple[str, list]]:
    """(attname, converters) of each concrete field, as the ORM's compiler applies them. Made
    once per vendor: the converters depend on the backend and the field, not on which
    thread's connection asks (they are given the connection they convert for)."""
    connection = _connection()
    table = model._meta.db_table
    out = []
    for field in model._meta.concrete_fields:
        column = field.get_col(table)
        out.append(
            (
                field.attname,
                connection.ops.get_db_converters(column) + field.get_db_converters(connection),
            )
        )
    return out


def _from_row(model: type[Model], values: Sequence[Any]) -> Model:
    connection = _connection()
    converted = []
    for (_attname, converters), value in zip(
        _converters(model, connection.vendor), values, strict=True
    ):
        for converter in converters:
            value = converter(value, None, connection)
        converted.append(value)
    return model.from_db(connection.alias, None, converted)


def lock_game(pk: int, *, user_id: int | None, key: str | None = None, client: str = "") -> Game:
    """The game ``pk``, locked for the rest of the transaction, with ``actor_role`` (the role of
    ``user_id`` in its club, or None) and, given a ``key``, ``seen_key`` (whether ``client``
    already used it). Game.DoesNotExist when there is no such game. One statement."""
    connection = _connection()
    params: list[Any] = [user_id]
    if key:
        params += [client, key]
    params.append(pk)
    with _cursor() as cursor:
        cursor.execute(_game_select(connection.vendor, bool(key)), params)
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    width = len(Game._meta.concrete_fields)
    game = _from_row(Game, row[:width])
    game.actor_role = row[width]
    if key:
        game.seen_key = bool(row[width + 1])
    return game


@cache
def _insert_sql(model: type[Model], names: tuple[str, ...] | None, vendor: str) -> tuple:
    """INSERT of the ``names`` fields (every concrete field but the key when None)."""
    connection = _connection()
    qn = connection.ops.quote_name
    if names is None:
        fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    else:
        fields = tuple(model._meta.get_field(name) for name in names)
    returning = names is None and connection.features.can_return_columns_from_insert
    sql = "INSERT INTO {} ({}) VALUES ({}){}".format(
        qn(model._meta.db_table),
        ", ".join(qn(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        f" RETURNING {qn(model._meta.pk.column)}" if returning else "",
    )
    return sql, fields, returning


def insert(instance: Model) -> Model:
    """Insert ``instance`` (a new row of a model with a database-made primary key) in one
    statement, and give it its primary key."""
    connection = _connection()
    sql, fields, returning = _insert_sql(type(instance), None, connection.vendor)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    with _cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def insertion(model: type[Model], **values: Any) -> tuple[str, list]:
    """The statement inserting a row of ``model`` with these field values (attnames: ``game_id``,
    not ``game``), for ``run``. Fields left out are left to the database: give every field
    that has a default in Python."""
    connection = _connection()
    sql, fields, _returning = _insert_sql(model, tuple(values), connection.vendor)
    return sql, [
        f.get_db_prep_save(v, connection) for f, v in zip(fields, values.values(), strict=True)
    ]


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> tuple[str, tuple]:
    connection = _connection()
    qn = connection.ops.quote_name
    fields = tuple(model._meta.get_field(name) for name in names)
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        qn(model._meta.db_table),
        ", ".join(f"{qn(f.column)} = %s" for f in fields),
        qn(model._meta.pk.column),
    )
    return sql, fields


def updating(instance: Model, names: Iterable[str]) -> tuple[str, list]:
    """The statement of ``instance.save(update_fields=names)`` (the row exists), for ``run``."""
    connection = _connection()
    sql, fields = _update_sql(type(instance), tuple(names), connection.vendor)
    params = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
    params.append(instance.pk)
    return sql, params


def run(*statements: tuple[str, list]) -> None:
    """Run statements that answer nothing, in order, in one round trip on PostgreSQL: prepared
    statements go together in a pipeline (``_prepared``); otherwise the statements travel as one
    text, which Django's psycopg cursors (client-side binding, simple query protocol) allow.
    Elsewhere (SQLite, or PostgreSQL with ``server_side_binding``) one by one."""
    connection = _connection()
    if _prepared():
        # A pipeline reports a failed statement when it ends: inside wrap_database_errors, so
        # that the caller sees Django's IntegrityError as from any other statement.
        with (
            _cursor() as cursor,
            connection.wrap_database_errors,
            connection.connection.pipeline(),
        ):
            for sql, params in statements:
                cursor.execute(sql, params)
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get(
            "server_side_binding"
        ):
            cursor.execute(
                "; ".join(sql for sql, _params in statements),
                [value for _sql, params in statements for value in params],
            )
        else:
            for sql, params in statements:
                cursor.execute(sql, params)
