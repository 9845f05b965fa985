"""``rfp-retrieval store migrate``: copy the DuckDB store into the configured Postgres
(``rfp_retrieval.storage.migrate``), verify the rows per table and partition, print a table
(``--json``: the same as JSON); exit 1 when a table could not be copied or counts differ.

The target is the database at ``$<postgres_url_env>`` (settings ``postgres_url_env``; the
URL is only ever shown with its password replaced); the source is ``db_path`` (or
``--db``). After a complete copy the project's library stamp is carried over
(``launch.carry_library_stamp``); the next ``rfp-retrieval run`` with ``store: postgres``
embeds no library text again (README "Postgres store": the new Postgres instance has no run
history, so the library job may run once, reusing every stored vector).

A run in progress would write after (or during) the copy, and the copy drops and recreates
the Postgres tables that runs on ``store: postgres`` write, so the command refuses (exit 2,
naming the runs) while any run is queued or running on either Dagster instance of the
project (``instance_config.active_runs``), and reports the copy as not done (exit 1) when a
run started or ended while it copied. Re-running the command later replaces the copy.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

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

    Refused while a run is queued or running (wait, or terminate it in the UI); then set
    `store: postgres`.
    """
    from rfp_retrieval.storage.migrate import MigrationError, copy_duckdb_store
    from rfp_retrieval.storage.postgres import PostgresStoreError, connect

    folder = project_dir(project)
    config = config_file(config)
    overrides = {"db_path": str(db.resolve())} if db is not None else None
    settings = load_cli_settings(folder, config, overrides)
    try:
        url = settings.postgres_url
    except SettingsError as exc:
        settings_failed(exc)
    target = settings.postgres_url_redacted
    launch = import_launcher(folder)  # puts the project folder first on sys.path
    import instance_config

    home = launch.dagster_home(folder, config)
    try:
        connect(url).close()  # before Dagster's instance: its driver retries for minutes
        busy = instance_config.active_runs(home, settings.postgres_url_env)
    except (PostgresStoreError, instance_config.InstanceConfigError) as exc:
        console.print(f"[red]Migration failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    if busy:
        _refuse_busy(busy, home)
    started = datetime.now(UTC)
    try:
        report = copy_duckdb_store(settings.db_path, url)
    except (MigrationError, PostgresStoreError) as exc:
        console.print(f"[red]Migration failed:[/red] {escape(str(exc))}")
        raise typer.Exit(2) from exc
    failed = dict(report.failed)
    try:
        during = instance_config.active_runs(home, settings.postgres_url_env, updated_after=started)
    except instance_config.InstanceConfigError as exc:  # cannot tell: not a verified copy
        during = [exc]
        failed["(every table)"] = f"{exc}; re-run `rfp-retrieval store migrate`"
    if during and "(every table)" not in failed:
        failed["(every table)"] = (
            "runs started, ran or ended while the tables were copied, so the copy may miss "
            "their rows: "
            + "; ".join(r.describe() for r in during)
            + ". Re-run `rfp-retrieval store migrate` once no run is queued or running."
        )
    ok = report.ok and not during
    stamp = "not carried"
    if ok:
        before = settings_with(settings, store="duckdb")
        after = settings_with(settings, store="postgres")
        if launch.carry_library_stamp(launch.dagster_home(folder, config), before, after):
            stamp = "carried"
    payload: dict[str, Any] = {
        "source": str(settings.db_path),
        "target": target,
        "ok": ok,
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
        "failed": failed,
        "postgres_only": report.postgres_only,
        "pgvector": report.pgvector,
        "library_stamp": stamp,
    }
    if as_json:
        from rfp_retrieval.cli.shapes import print_json

        print_json(payload)
    else:
        _print_report(payload, settings.store)
    if not ok:
        raise typer.Exit(1)


def _refuse_busy(busy: list, home: Path) -> NoReturn:
    """Print why ``store migrate`` will not copy while runs are queued or running, naming
    each, and exit 2 (nothing was copied)."""
    console.print(
        "[red]Migration refused:[/red] "
        + escape(
            f"{len(busy)} run(s) queued or in progress on the project's Dagster instance "
            f"({home}): "
            + "; ".join(r.describe() for r in busy)
            + ". They would write the DuckDB store after the copy (their rows would be "
            "missing in Postgres), and the copy replaces the Postgres tables that runs on "
            "store: postgres write. Wait until they finish, or terminate them in the UI "
            "(Runs, Terminate), then migrate again; nothing was copied."
        )
    )
    raise typer.Exit(2)


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
