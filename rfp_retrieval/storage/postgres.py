"""Polars tables in Postgres: the store's column types, atomic partition writes, migrations.

The same contract as the DuckDB store (``resources/duckdb_io.py``): one table per asset in a
schema (``rfp``), partitioned tables keyed by a text column (``rfp_partition``), a partition
written in one transaction (lock, migrate, delete, insert, commit), schema changes migrated
so other partitions keep their rows, and polars frames in and out.

The driver is ADBC's libpq driver (``adbc-driver-postgresql``): frames cross as Arrow both
ways (an INSERT is Postgres' binary COPY of the Arrow batch, a SELECT comes back as Arrow),
so a million 384-float vectors never become Python objects, and the frame read back has the
written frame's dtypes. psycopg 3's binary COPY would need a Python tuple per row.

Column types (``postgres_type``): strings ``text``, integers ``smallint``/``integer``/
``bigint``, floats ``real``/``double precision``, ``boolean``, ``date``, ``timestamp``
(``with time zone`` when the dtype has one), ``time``, ``bytea``, and a list or array of one
of those as a Postgres array, so embeddings are ``real[]``. pgvector is never needed: the
ranker scores in numpy on the worker and reads vectors whole (``has_pgvector`` reports it
when the server has it). Columns Postgres arrays cannot hold (lists of lists, structs,
lists of structs, UInt64, decimals, durations) are stored as JSON text. The written frame's
polars schema is kept in the table's COMMENT (``SCHEMA_COMMENT``, same transaction), so a
read casts every column back to its written dtype and decodes the JSON ones: a round trip
returns an equal frame (floats are exact; datetimes keep microseconds, Postgres' precision),
its rows in the order they were written (``ROW_ORDER``).

Nothing here imports Dagster (``resources/postgres_io.py`` and
``resources/partition_store.py`` wrap it).
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import polars as pl
import pyarrow as pa

from rfp_retrieval.settings import redact_url, scrub_secrets

SCHEMA_COMMENT = "rfp-retrieval polars schema v1"
"""Tag of the table COMMENT holding the written polars schema (JSON, ``_schema_comment``)."""
JSON_TEXT = "text"
ROW_ORDER = "_rfp_row"
"""Hidden identity column of every table written here: reads return rows in write order
(as DuckDB does), never in whatever order the heap holds them after deletes."""
"""Postgres type of a JSON-encoded column (``postgres_type`` returns it with ``"json"``)."""

_SCALARS: dict[type[pl.DataType], tuple[str, pl.DataType | None]] = {
    # dtype class: (Postgres type as format_type() prints it, dtype sent to the driver)
    pl.String: ("text", None),
    pl.Categorical: ("text", pl.String()),
    pl.Enum: ("text", pl.String()),
    pl.Null: ("text", pl.String()),
    pl.Boolean: ("boolean", None),
    pl.Int8: ("smallint", pl.Int16()),
    pl.Int16: ("smallint", None),
    pl.Int32: ("integer", None),
    pl.Int64: ("bigint", None),
    pl.UInt8: ("smallint", pl.Int16()),
    pl.UInt16: ("integer", pl.Int32()),
    pl.UInt32: ("bigint", pl.Int64()),
    pl.Float32: ("real", None),
    pl.Float64: ("double precision", None),
    pl.Date: ("date", None),
    pl.Time: ("time without time zone", None),
    pl.Binary: ("bytea", None),
}


class PostgresStoreError(RuntimeError):
    """A table could not be read or written; the message names the table and the cause."""


def postgres_type(dtype: pl.DataType) -> tuple[str, str]:
    """``(Postgres column type, how)`` for a polars dtype; ``how`` is ``"native"`` (the
    driver's Arrow type maps to the column) or ``"json"`` (stored as JSON text).

    The type is spelled as Postgres' ``format_type`` prints it (``real[]``,
    ``timestamp with time zone``), so it compares equal to the stored column's type.
    """
    scalar = _scalar_type(dtype)
    if scalar is not None:
        return scalar, "native"
    if isinstance(dtype, pl.List | pl.Array) and not isinstance(dtype.inner, pl.List | pl.Array):
        inner = _scalar_type(dtype.inner)
        if inner is not None:
            return f"{inner}[]", "native"
    return JSON_TEXT, "json"


def _scalar_type(dtype: pl.DataType) -> str | None:
    if isinstance(dtype, pl.Datetime):
        return "timestamp with time zone" if dtype.time_zone else "timestamp without time zone"
    entry = _SCALARS.get(type(dtype))
    return entry[0] if entry else None


def _wire_dtype(dtype: pl.DataType) -> pl.DataType | None:
    """The dtype the driver is given for a native column (None: as it is)."""
    if isinstance(dtype, pl.List | pl.Array):
        inner = _wire_dtype(dtype.inner) or dtype.inner
        return pl.List(inner) if isinstance(dtype, pl.Array) or inner != dtype.inner else None
    entry = _SCALARS.get(type(dtype))
    return entry[1] if entry else None


def to_wire(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` as the driver writes it: JSON text for ``"json"`` columns, driver-friendly
    dtypes for the rest (same column names and order, same rows)."""
    exprs = []
    for name, dtype in frame.schema.items():
        if postgres_type(dtype)[1] == "json":
            exprs.append(pl.struct(pl.col(name)).struct.json_encode().alias(name))
            continue
        wire = _wire_dtype(dtype)
        exprs.append(pl.col(name).cast(wire) if wire is not None else pl.col(name))
    return frame.select(exprs)


def from_wire(frame: pl.DataFrame, schema: dict[str, pl.DataType] | None) -> pl.DataFrame:
    """A frame read from Postgres with each column cast back to its written dtype.

    ``schema`` is the recorded polars schema of the table (``recorded_schema``); None (a
    table this module did not write) returns ``frame`` as the driver produced it.
    """
    if not schema:
        return frame
    exprs = []
    for name in frame.columns:
        dtype = schema.get(name)
        if dtype is None or frame.schema[name] == dtype:
            exprs.append(pl.col(name))
        elif postgres_type(dtype)[1] == "json":
            decoded = pl.col(name).str.json_decode(pl.Struct({name: dtype}))
            exprs.append(decoded.struct.field(name).alias(name))
        else:
            exprs.append(pl.col(name).cast(dtype))
    return frame.select(exprs)


def _schema_comment(frame: pl.DataFrame) -> str:
    schema = frame.head(0).to_arrow().schema.serialize().to_pybytes()
    return json.dumps(
        {"format": SCHEMA_COMMENT, "arrow_schema": base64.b64encode(schema).decode("ascii")}
    )


def _parse_schema_comment(comment: str | None) -> dict[str, pl.DataType] | None:
    if not comment:
        return None
    try:
        payload = json.loads(comment)
        if payload.get("format") != SCHEMA_COMMENT:
            return None
        schema = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(payload["arrow_schema"])))
    except (ValueError, KeyError, TypeError, AttributeError, pa.ArrowException):
        return None
    return dict(pl.from_arrow(schema.empty_table()).schema)


def connect(url: str):
    """An ADBC connection to ``url`` in autocommit mode (``transaction`` opens one).

    Raises:
        PostgresStoreError: the server cannot be reached or refused the login; the message
            shows the URL with its password replaced.
    """
    import adbc_driver_postgresql.dbapi as pg_dbapi

    try:
        return pg_dbapi.connect(url, autocommit=True)
    except Exception as exc:  # libpq may quote the password or the whole URI: scrub both
        reason = scrub_secrets(first_line(exc), url)
        raise PostgresStoreError(
            f"cannot connect to the Postgres store at {redact_url(url)}: {reason}"
        ) from None


def database_name(url: str) -> str:
    """The database a URL or keyword DSN names (``""`` when it names none: libpq's default)."""
    if "://" in url:
        return urlsplit(url).path.lstrip("/")
    match = re.search(r"\bdbname\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", url)
    return match.group(1).strip("'") if match else ""


def first_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message, or its class name when the message is empty."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


@contextmanager
def transaction(connection, read_only: bool = False) -> Iterator[Any]:
    """Yield a cursor inside ``BEGIN`` … ``COMMIT`` on ``connection``; ROLLBACK on error.

    A read-only transaction is ``REPEATABLE READ``: every statement in it sees the same
    committed snapshot (a table's recorded schema and its rows agree). Re-raises whatever
    the block raised, after the rollback.
    """
    cursor = connection.cursor()
    try:
        cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" if read_only else "BEGIN")
        try:
            yield cursor
        except BaseException:
            try:
                cursor.execute("ROLLBACK")
            except Exception:
                pass  # the connection is closed by the caller; keep the first error
            raise
        cursor.execute("COMMIT")
    finally:
        cursor.close()


def qualified(schema: str, table: str) -> str:
    """``"schema"."table"`` quoted for SQL."""
    return f"{_quote(schema)}.{_quote(table)}"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def stored_columns(cursor, schema: str, table: str) -> list[tuple[str, str]]:
    """``[(column, Postgres type)]`` of ``schema.table`` in order (``ROW_ORDER`` left out);
    [] when it does not exist."""
    return [(n, t) for n, t in _all_columns(cursor, schema, table) if n != ROW_ORDER]


def _all_columns(cursor, schema: str, table: str) -> list[tuple[str, str]]:
    cursor.execute(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
        "WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped "
        "ORDER BY a.attnum",
        (qualified(schema, table),),
    )
    return [(name, dtype) for name, dtype in cursor.fetchall()]


def recorded_schema(cursor, schema: str, table: str) -> dict[str, pl.DataType] | None:
    """The polars schema last written to ``schema.table`` (its COMMENT); None when the table
    does not exist or was not written by this module."""
    cursor.execute(
        "SELECT obj_description(to_regclass($1), 'pg_class')", (qualified(schema, table),)
    )
    row = cursor.fetchone()
    return _parse_schema_comment(row[0] if row else None)


def table_names(cursor, schema: str) -> list[str]:
    """The tables of ``schema``, sorted; [] when the schema does not exist."""
    cursor.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", (schema,)
    )
    return [row[0] for row in cursor.fetchall()]


def has_pgvector(cursor) -> bool:
    """True when the pgvector extension is installed in this database (never required)."""
    cursor.execute("SELECT count(*) FROM pg_extension WHERE extname = 'vector'")
    return bool(cursor.fetchone()[0])


def _lock(cursor, name: str) -> None:
    """Serialise writers of ``name`` until the transaction ends (readers are never blocked)."""
    cursor.execute("SELECT pg_advisory_xact_lock(hashtext($1))", (f"rfp-retrieval:{name}",))


def _ensure_schema(cursor, schema: str) -> None:
    cursor.execute("SELECT count(*) FROM pg_namespace WHERE nspname = $1", (schema,))
    if cursor.fetchone()[0]:
        return
    _lock(cursor, f"schema {schema}")  # two first writers must not race on CREATE SCHEMA
    cursor.execute(f"CREATE SCHEMA IF NOT EXISTS {_quote(schema)}")


def _create_table(cursor, schema: str, table: str, frame: pl.DataFrame) -> None:
    columns = [f"{_quote(n)} {postgres_type(d)[0]}" for n, d in frame.schema.items()]
    columns.append(f"{_quote(ROW_ORDER)} bigint GENERATED ALWAYS AS IDENTITY")
    cursor.execute(f"CREATE TABLE {qualified(schema, table)} ({', '.join(columns)})")


def migrate_table(cursor, schema: str, table: str, frame: pl.DataFrame, partitioned: bool) -> str:
    """Make ``schema.table`` have exactly ``frame``'s columns (names, order, types), like the
    DuckDB store's ``resources.duckdb_io.migrate_table``.

    Runs inside the caller's write transaction (after ``_lock``), so the copy, DROP and RENAME
    commit or roll back with the rows. Returns ``"none"`` (already matching, or no table),
    ``"replaced"`` (unpartitioned: dropped, the write recreates it) or ``"migrated"``
    (partitioned: rebuilt keeping every row; a column the frame lacks is dropped, a new one
    is NULL, a column whose type changed is cast when every stored value converts and is
    NULL otherwise; a JSON-encoded column or a fixed-width array whose dtype changed is
    NULL). Raises PostgresStoreError naming the table when a statement fails.
    """
    stored = stored_columns(cursor, schema, table)
    if not stored:
        return "none"
    before = recorded_schema(cursor, schema, table) or {}
    wanted = [(name, postgres_type(dtype)[0]) for name, dtype in frame.schema.items()]
    same_dtypes = all(before.get(name) == dtype for name, dtype in frame.schema.items())
    if stored == wanted and (same_dtypes or not before):
        return "none"
    if not partitioned:
        cursor.execute(f"DROP TABLE {qualified(schema, table)}")
        return "replaced"
    have = dict(stored)
    select = []
    for name, dtype in frame.schema.items():
        pg_type, how = postgres_type(dtype)
        column = _quote(name)
        if name not in have:
            select.append(f"CAST(NULL AS {pg_type}) AS {column}")
        elif have[name] == pg_type and (
            before.get(name) in (None, dtype)
            or (how == "native" and not isinstance(dtype, pl.Array))
        ):
            select.append(column)
        elif have[name] != pg_type and _casts(cursor, schema, table, name, pg_type):
            select.append(f"CAST({column} AS {pg_type}) AS {column}")
        else:
            select.append(f"CAST(NULL AS {pg_type}) AS {column}")
    temporary = f"{table}__migrating"
    order = (
        f" ORDER BY {_quote(ROW_ORDER)}"
        if ROW_ORDER in dict(_all_columns(cursor, schema, table))
        else ""
    )
    try:
        _create_table(cursor, schema, temporary, frame)
        names = ", ".join(_quote(name) for name in frame.columns)
        cursor.execute(
            f"INSERT INTO {qualified(schema, temporary)} ({names}) "
            f"SELECT {', '.join(select)} FROM {qualified(schema, table)}{order}"
        )
        cursor.execute(f"DROP TABLE {qualified(schema, table)}")
        cursor.execute(f"ALTER TABLE {qualified(schema, temporary)} RENAME TO {_quote(table)}")
    except Exception as exc:
        raise PostgresStoreError(
            f"migrating {schema}.{table} to the new columns failed: {first_line(exc)}"
        ) from exc
    return "migrated"


def _casts(cursor, schema: str, table: str, column: str, pg_type: str) -> bool:
    """True when every stored value of ``column`` converts to ``pg_type`` (tried in a
    savepoint, so a failure leaves the write transaction usable)."""
    cursor.execute("SAVEPOINT rfp_try_cast")
    try:
        cursor.execute(
            f"SELECT count(CAST({_quote(column)} AS {pg_type})) FROM {qualified(schema, table)}"
        )
        cursor.fetchall()
    except Exception:
        cursor.execute("ROLLBACK TO SAVEPOINT rfp_try_cast")
        return False
    cursor.execute("RELEASE SAVEPOINT rfp_try_cast")
    return True


def write_frame(
    cursor,
    schema: str,
    table: str,
    frame: pl.DataFrame,
    partition_column: str | None = None,
    partition_keys: Sequence[str] = (),
) -> str:
    """Store ``frame`` as ``schema.table``: the whole table, or (``partition_column`` given)
    the rows of ``partition_keys``, replacing what those keys held.

    Call inside ``transaction(connection)``: the schema/table lock, any migration, the
    DELETE, the binary COPY and the schema COMMENT then commit together, so readers see the
    previous rows until COMMIT and a failure anywhere leaves them. An empty frame still
    creates the table. Returns what ``migrate_table`` did (``"created"`` for a new table).

    Raises:
        PostgresStoreError: a statement or the COPY failed (names the table; the caller's
            transaction rolls back).
    """
    if ROW_ORDER in frame.columns:
        raise PostgresStoreError(
            f"{schema}.{table}: the column name {ROW_ORDER} is reserved for the store's row "
            "order; rename that column"
        )
    _ensure_schema(cursor, schema)
    _lock(cursor, f"table {schema}.{table}")
    partitioned = partition_column is not None
    try:
        done = migrate_table(cursor, schema, table, frame, partitioned)
        if not stored_columns(cursor, schema, table):
            _create_table(cursor, schema, table, frame)
            done = "created" if done == "none" else done
        elif partitioned:
            keys = list(partition_keys)
            if keys:
                marks = ", ".join(f"${i}" for i in range(1, len(keys) + 1))
                cursor.execute(
                    f"DELETE FROM {qualified(schema, table)} "
                    f"WHERE {_quote(partition_column)} IN ({marks})",
                    tuple(keys),
                )
        else:
            cursor.execute(f"DELETE FROM {qualified(schema, table)}")
        if frame.height:
            cursor.adbc_ingest(
                table, to_wire(frame).to_arrow(), mode="append", db_schema_name=schema
            )
        comment = _schema_comment(frame).replace("'", "''")
        cursor.execute(f"COMMENT ON TABLE {qualified(schema, table)} IS '{comment}'")
    except PostgresStoreError:
        raise
    except Exception as exc:
        raise PostgresStoreError(
            f"writing {frame.height} rows to {schema}.{table} failed: {first_line(exc)}"
        ) from exc
    return done


def append_frame(cursor, schema: str, table: str, frame: pl.DataFrame) -> None:
    """Add ``frame``'s rows to ``schema.table`` as they are (no DELETE, no migration): the
    later batches of a copy whose first batch ``write_frame`` wrote, in its transaction.

    Raises:
        PostgresStoreError: the table's columns are not ``frame``'s, or the COPY failed.
    """
    wanted = [(name, postgres_type(dtype)[0]) for name, dtype in frame.schema.items()]
    if stored_columns(cursor, schema, table) != wanted:
        raise PostgresStoreError(
            f"appending to {schema}.{table}: its columns are not the batch's {frame.columns}"
        )
    if not frame.height:
        return
    try:
        cursor.adbc_ingest(table, to_wire(frame).to_arrow(), mode="append", db_schema_name=schema)
    except Exception as exc:
        raise PostgresStoreError(
            f"writing {frame.height} rows to {schema}.{table} failed: {first_line(exc)}"
        ) from exc


def drop_table(cursor, schema: str, table: str) -> None:
    """Drop ``schema.table`` if it exists (inside the caller's transaction, after its lock)."""
    _lock(cursor, f"table {schema}.{table}")
    cursor.execute(f"DROP TABLE IF EXISTS {qualified(schema, table)}")


READ_PAGES = 8192
"""Heap pages one query of ``read_frame`` (a selection with an array column) or
``read_vectors`` reads (a TID range scan): at ~5 rows of a 384-float ``real[]`` per 8 KB
page, ~40,000 rows or ~65 MB of vectors, so ADBC's whole-result buffer holds one slice."""


def _page_slices(cursor, schema: str, table: str, sql: str, pages: int | None) -> list[str]:
    """``sql`` (a SELECT with a WHERE clause on ``schema.table``) once per ``pages`` heap
    pages of the table (None: ``READ_PAGES``, read at call time), each with ``AND ctid >=
    '(p,0)' AND ctid < '(p+pages,0)'`` (a TID range scan, Postgres 14+); ``[sql]`` when the
    table fits in one slice. In one snapshot every visible row is in exactly one slice."""
    cursor.execute(
        "SELECT pg_relation_size($1::regclass) / current_setting('block_size')::bigint",
        (qualified(schema, table),),
    )
    total, step = int(cursor.fetchone()[0]), max(int(pages or READ_PAGES), 1)
    if total <= step:
        return [sql]
    return [
        f"{sql} AND ctid >= '({first},0)'::tid AND ctid < '({first + step},0)'::tid"
        for first in range(0, total, step)
    ]


def read_frame(
    cursor,
    schema: str,
    table: str,
    columns: Sequence[str] | None = None,
    partition_column: str | None = None,
    partition_keys: Sequence[str] | None = None,
    pages: int | None = None,
) -> pl.DataFrame | None:
    """Rows of ``schema.table`` (all columns, or ``columns`` in that order), optionally only
    those whose ``partition_column`` is one of ``partition_keys``, with the written dtypes.

    Call inside ``transaction(connection, read_only=True)`` so the schema and rows come from
    one snapshot. Returns None when the table does not exist or lacks one of ``columns``; an
    empty frame (with the table's columns) when no row matches.

    A selection with an array column (vectors: ``real[]``) is read ``pages`` heap pages per query
    (None: ``READ_PAGES``; a TID range scan, as ``read_vectors`` does) and the slices are
    concatenated without a copy: ADBC's driver holds a whole result before it returns the first
    batch (13.6 GB above the vectors at a million entries), so one query for the table would hold it
    twice. Rows come back in write order either way (``ROW_ORDER``; the slices are sorted by it when
    a rewritten partition put rows on earlier pages).
    """
    all_columns = dict(_all_columns(cursor, schema, table))
    stored = [name for name in all_columns if name != ROW_ORDER]
    if not stored or not set(columns or ()) <= set(stored):
        return None
    names = list(columns) if columns else stored
    ordered = ROW_ORDER in all_columns
    selected = names + ([ROW_ORDER] if ordered else [])
    sql = f"SELECT {', '.join(map(_quote, selected))} FROM {qualified(schema, table)} WHERE true"
    params: tuple[str, ...] = ()
    if partition_column is not None and partition_keys is not None:
        keys = list(partition_keys)
        if not keys:
            sql += " AND false"
        else:
            marks = ", ".join(f"${i}" for i in range(1, len(keys) + 1))
            sql += f" AND {_quote(partition_column)} IN ({marks})"
            params = tuple(keys)
    statements = [sql]
    if any(all_columns[name].endswith("[]") for name in names):
        statements = _page_slices(cursor, schema, table, sql, pages)
    if ordered:
        statements = [f"{statement} ORDER BY {_quote(ROW_ORDER)}" for statement in statements]
    recorded = recorded_schema(cursor, schema, table)
    parts = []
    for statement in statements:
        cursor.execute(statement, params or None)
        part = pl.from_arrow(cursor.fetch_arrow_table())
        parts.append(from_wire(part.to_frame() if isinstance(part, pl.Series) else part, recorded))
    frame = parts[0] if len(parts) == 1 else pl.concat(parts, rechunk=False)
    del parts
    if ordered:
        if len(statements) > 1 and not frame[ROW_ORDER].is_sorted():
            frame = frame.sort(ROW_ORDER)
        frame = frame.drop(ROW_ORDER)
    return frame


def partition_keys(cursor, schema: str, table: str, partition_column: str) -> list[str]:
    """The distinct values of ``partition_column`` in ``schema.table``, sorted; [] when the
    table or column does not exist."""
    if partition_column not in {name for name, _ in stored_columns(cursor, schema, table)}:
        return []
    column = _quote(partition_column)
    cursor.execute(f"SELECT DISTINCT {column} FROM {qualified(schema, table)}")
    # sorted here, not by the server's collation (a database in en_US orders differently)
    return sorted(row[0] for row in cursor.fetchall() if row[0] is not None)


def row_counts(cursor, schema: str, table: str, partition_column: str | None) -> dict[str, int]:
    """``{partition key: rows}`` of ``schema.table`` (``{"": rows}`` when unpartitioned)."""
    if partition_column is None:
        cursor.execute(f"SELECT count(*) FROM {qualified(schema, table)}")
        return {"": int(cursor.fetchone()[0])}
    column = _quote(partition_column)
    cursor.execute(f"SELECT {column}, count(*) FROM {qualified(schema, table)} GROUP BY 1")
    return {key: int(n) for key, n in sorted(cursor.fetchall(), key=lambda r: str(r[0]))}


def read_vectors(
    cursor,
    schema: str,
    table: str,
    ids: Sequence[str],
    facets: Sequence[str],
    vector_column: str = "vector",
    pages: int | None = None,
) -> dict[str, Any]:
    """The ``facets``' vectors of ``schema.table`` (``pp_facet_embeddings`` rows: ``id``,
    ``facet``, ``vector real[]``) as float32 numpy matrices (len(ids), dim), row ``k`` the
    vector of ``ids[k]``, read a slice of the table at a time.

    ADBC's driver holds a whole result in memory before it hands over the first Arrow batch
    (measured: one 156 MB batch for 100,000 vectors, and 13.6 GB above the matrices at a million
    entries x 2 facets), so the table is read ``pages`` heap pages per query (None: ``READ_PAGES``;
    ``WHERE ctid >= '(p,0)' AND ctid < '(p+pages,0)'``: a TID range scan, Postgres 14+, each page
    read once) and each slice's vectors are copied into the matrices at their ids' rows, then
    dropped: the peak is the matrices plus one slice (~65 MB at the default) and its driver buffer.
    Rows are placed by id, so the table's row order does not matter.
    Call inside ``transaction(connection, read_only=True)``: one snapshot, so no row moves
    between slices, and every page a visible row can be on existed when it was taken.

    Raises:
        PostgresStoreError: the table does not exist or lacks a column; an id has no row,
            or several, for a facet; a vector is null or not ``dim`` long (names the facet).
    """
    import numpy as np

    stored = {name for name, _ in stored_columns(cursor, schema, table)}
    if not {"id", "facet", vector_column} <= stored:
        raise PostgresStoreError(
            f"{qualified(schema, table)} has no id, facet and {vector_column} columns"
        )
    keys = pl.DataFrame({"id": pl.Series(list(ids), dtype=pl.String)}).with_row_index("_row")
    if keys["id"].n_unique() != len(keys):
        raise PostgresStoreError("read_vectors: the ids repeat")
    name = qualified(schema, table)
    marks = ", ".join(f"${i}" for i in range(1, len(facets) + 1))
    select = f"SELECT id, facet, {_quote(vector_column)} FROM {name} WHERE facet IN ({marks})"
    slices = _page_slices(cursor, schema, table, select, pages)
    matrices: dict[str, Any] = {}
    seen = {facet: np.zeros(len(ids), dtype=bool) for facet in facets}
    for sql in slices:
        cursor.execute(sql, tuple(facets))
        _place_vectors(cursor.fetch_record_batch(), keys, name, matrices, seen)
    for facet in facets:
        if not seen[facet].all():
            missing = ids[int(np.flatnonzero(~seen[facet])[0])]
            raise PostgresStoreError(f"{facet} vectors: no row for id {missing!r}")
    return matrices


def _place_vectors(batches, keys: pl.DataFrame, name: str, matrices: dict, seen: dict) -> None:
    """Copy the vectors of ``batches`` (Arrow record batches of id, facet, vector) into
    ``matrices`` (facet -> float32 (n, dim), made on first use) at the rows ``keys`` maps
    their ids to, marking them in ``seen`` (facet -> bool (n,)); ``read_vectors``' errors."""
    import numpy as np

    for batch in batches:
        part = pl.from_arrow(batch.select(["id", "facet"]))
        assert isinstance(part, pl.DataFrame)
        vectors = batch.column(2)
        part = part.with_row_index("_at").join(keys, on="id", how="left")
        if part["_row"].null_count():
            raise PostgresStoreError(f"{name} holds vectors of unknown ids")
        for (facet,), group in part.group_by("facet"):
            at = group["_at"].to_numpy()
            chosen = vectors.take(at)
            if chosen.null_count:
                raise PostgresStoreError(f"{facet} vectors: a row is null")
            lengths = np.diff(np.asarray(chosen.offsets))
            dim = int(lengths[0]) if len(lengths) else 0
            if len(lengths) and (lengths != dim).any():
                raise PostgresStoreError(f"{facet} vectors are not all {dim} long")
            values = np.asarray(chosen.flatten(), dtype=np.float32).reshape(len(at), dim)
            matrix = matrices.get(facet)
            if matrix is None:
                matrix = matrices[facet] = np.empty((len(keys), dim), dtype=np.float32)
            elif matrix.shape[1] != dim:
                raise PostgresStoreError(f"{facet} vectors are not all {matrix.shape[1]} long")
            rows = group["_row"].to_numpy().astype(np.int64)
            if seen[facet][rows].any() or len(np.unique(rows)) != len(rows):
                raise PostgresStoreError(f"{facet} vectors: an id has several rows")
            seen[facet][rows] = True
            matrix[rows] = values
