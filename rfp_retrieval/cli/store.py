"""``rfp-retrieval store migrate``: copy the DuckDB store into the configured Postgres
(``rfp_retrieval.storage.migrate``), verify the rows per table and partition, print a table
(``--json``: the same as JSON); exit 1 when a table could not be copied or counts differ.

The target is the database at ``$<postgres_url_env>`` (settings ``postgres_url_env``; the
URL is only ever shown with its password replaced); the source is ``db_path`` (or
``--db``). After a complete copy the project's library stamp is carried over
(``launch.carry_library_stamp``); the next ``rfp-retrieval run`` with ``store: postgres``
embeds no library text again (README "Postgres store": the new Postgres instance has no run
history, so the library job may run once, reusing every stored vector).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from rfp_retrieval.cli.app import (
    ConfigOption,
    ProjectOption,
    app,
    config_file,
    console,
    import_launcher,
    load_cli_settings,
    project_dir,
    settings_failed,
)
from rfp_retrieval.settings import SettingsError, settings_with

store_app = typer.Typer(no_args_is_help=True, help="The store every table lives in.")
app.add_typer(store_app, name="store")


@store_app.command("migrate")
def migrate(
    db: Path | None = typer.Option(None, help="DuckDB file to copy (default: db_path)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Copy every table and partition of the DuckDB store into the Postgres store.

    Each table is copied in one transaction and its rows per partition counted on both sides
    before COMMIT (a mismatch rolls that table back).

    Stop runs and `dagster dev` writing the DuckDB file first; then set `store: postgres`.
    """
    from rfp_retrieval.storage.migrate import MigrationError, copy_duckdb_store
    from rfp_retrieval.storage.postgres import PostgresStoreError

    folder = project_dir(project)
    config = config_file(config)
    overrides = {"db_path": str(db.resolve())} if db is not None else None
    settings = load_cli_settings(folder, config, overrides)
    try:
        url = settings.postgres_url
    except SettingsError as exc:
        settings_failed(exc)
    target = settings.postgres_url_redacted
    try:
        report = copy_duckdb_store(settings.db_path, url)
    except (MigrationError, PostgresStoreError) as exc:
        console.print(f"[red]Migration failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    stamp = "not carried"
    if report.ok:
        launch = import_launcher(folder)
        before = settings_with(settings, store="duckdb")
        after = settings_with(settings, store="postgres")
        if launch.carry_library_stamp(launch.dagster_home(folder, config), before, after):
            stamp = "carried"
    payload: dict[str, Any] = {
        "source": str(settings.db_path),
        "target": target,
        "ok": report.ok,
        "tables": [
            {
                "table": c.table,
                "partition": c.partition or None,
                "duckdb_rows": c.duckdb_rows,
                "postgres_rows": c.postgres_rows,
                "match": c.match,
            }
            for c in report.counts
        ],
        "failed": report.failed,
        "postgres_only": report.postgres_only,
        "pgvector": report.pgvector,
        "library_stamp": stamp,
    }
    if as_json:
        from rfp_retrieval.cli.shapes import print_json

        print_json(payload)
    else:
        _print_report(payload, settings.store)
    if not report.ok:
        raise typer.Exit(1)


def _print_report(payload: dict[str, Any], store: str) -> None:
    table = Table(title=f"{payload['source']} -> {payload['target']}")
    for name in ("table", "partition", "DuckDB rows", "Postgres rows", ""):
        table.add_column(name, justify="right" if "rows" in name else "left")
    for row in payload["tables"]:
        table.add_row(
            row["table"],
            row["partition"] or "-",
            str(row["duckdb_rows"]),
            str(row["postgres_rows"]),
            "ok" if row["match"] else "[red]DIFFERS[/red]",
        )
    console.print(table)
    for name, reason in payload["failed"].items():
        console.print(f"[red]{escape(name)}: not copied[/red]: {escape(reason)}")
    if payload["postgres_only"]:
        console.print(
            "Left alone (in Postgres, not in the DuckDB file): "
            + ", ".join(payload["postgres_only"])
        )
    if not payload["ok"]:
        return
    rows = sum(r["duckdb_rows"] for r in payload["tables"])
    console.print(
        f"[green]Copied {len({r['table'] for r in payload['tables']})} tables, "
        f"{rows} rows; every count matches.[/green]"
    )
    if payload["library_stamp"] == "carried":
        console.print(
            "The library's tables and vectors are in Postgres: the next run embeds no library "
            "text again (on the new Postgres instance it may re-run the library job once, "
            "reusing every stored vector)."
        )
    if store != "postgres":
        console.print("Now set `store: postgres` in rfp-retrieval.yaml (or RFP_RETRIEVAL_STORE).")
