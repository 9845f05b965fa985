"""``rfp-retrieval run``: the main job through Dagster, one partition per RFP file
(``--json``: ``shapes.RunPayload``; else the summary of ``render.print_run_summary``).

The command loads the settings (config file, flags) and hands them to the project's
launcher (``launch.Launcher``, imported inside the command: the one seam to Dagster), which
builds the definitions for them and runs on the persistent instance in the project's Dagster
home (so the UI shows every run).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.text import Text

from rfp_retrieval.cli.app import (
    ConfigOption,
    ProjectOption,
    app,
    check_store_reachable,
    config_file,
    console,
    import_launcher,
    load_cli_settings,
    project_dir,
    settings_failed,
    store_failed,
)
from rfp_retrieval.cli.render import print_run_summary
from rfp_retrieval.cli.shapes import (
    RunItem,
    print_json,
    run_item,
    run_references,
    run_scope_query,
)
from rfp_retrieval.heap import long_lived
from rfp_retrieval.inbox import structure_warning
from rfp_retrieval.settings import CONFIG_ENV, CONFIG_FILE, SettingsError
from rfp_retrieval.storage.writer_lock import releases_store_locks

STARTUP_INTERRUPTED = "Interrupted (Ctrl-C) while starting, before any run: nothing was written."
"""What ``run`` prints for a Ctrl-C before its first run starts (exit 130)."""
LIBRARY_UNCHANGED = "library unchanged: not rebuilt (--rebuild-library to force)"
"""The run summary's line when the library job was skipped."""

LIBRARY_INTERRUPTED = "library job interrupted (Ctrl-C): no RFP was started; run again"
"""The run summary's line when Ctrl-C stopped the library job."""

INTERRUPTED = "interrupted (Ctrl-C); run again to process it"
"""An RFP whose run Ctrl-C stopped (nothing half-written is kept)."""

NOT_STARTED = "not started: the run was interrupted"
"""An RFP after the Ctrl-C: no run was started for it."""


@app.command()
@releases_store_locks
def run(
    rfp_files: list[Path] = typer.Argument(None, help="RFP files (default: every inbox file)."),
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    answers: Path | None = typer.Option(None, help="Answer library folder."),
    db: Path | None = typer.Option(None, help="DuckDB file to store every asset in."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    rebuild_library: bool = typer.Option(
        False,
        "--rebuild-library",
        help="Run the library job even when the library and answer folders are unchanged.",
    ),
    rerun: bool = typer.Option(
        False,
        "--rerun",
        help="Run every inbox RFP again, also those unchanged since their last run.",
    ),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Run the main job through Dagster: library, then one partition per RFP file.

    The library job is skipped ("library unchanged: not rebuilt") when the library and answer
    folders, the settings and the code are those of its last successful run;
    --rebuild-library runs it anyway. With the library unchanged, an inbox RFP whose file and
    override file are those of its last successful run is not run again (its stored results
    are shown); --rerun runs them all. RFP files named on the command line always run.
    \f
    (For developers; typer's help stops at the form feed above.) The library check is
    ``launch.Launcher.library_is_current``, the RFP check ``unchanged_rfps`` (new-user trial:
    adding one RFP re-ran the four already done, 128 s instead of 17 s).
    """
    folder = project_dir(project)
    config = config_file(config)
    flags = {"library_dir": library, "answers_dir": answers, "db_path": db}
    settings = load_cli_settings(
        folder,
        config,
        {key: str(Path(value).resolve()) for key, value in flags.items() if value is not None},
    )
    try:
        check_store_reachable(settings)
        check_model_setting(settings, config)
        hold_store_for_this_run(settings)
        if rfp_files or _has_files(settings.inbox_dir):
            from rfp_retrieval.retrieval.embedding import preload

            preload(settings.model_location())  # torch + model load in a helper process
        with long_lived():  # Dagster and the code location: kept until exit, never collected
            launch = import_launcher(folder)
            launcher = launch.Launcher(settings, launch.dagster_home(folder, config))
    except KeyboardInterrupt:  # before any run: typer would exit 130 without a word
        console.print(STARTUP_INTERRUPTED, highlight=False)
        raise typer.Exit(130) from None

    from rfp_retrieval.inbox import scan_inbox, skipped_in_inbox

    skipped: list[dict[str, str]] = []
    from_inbox = not rfp_files
    if not rfp_files:
        if not Path(settings.inbox_dir).is_dir():
            settings_failed(
                SettingsError(
                    f"inbox_dir {settings.inbox_dir} is not a folder; create it, or set "
                    "inbox_dir in rfp-retrieval.yaml / RFP_RETRIEVAL_INBOX_DIR, or name the "
                    "RFP files on the command line"
                )
            )
        rfp_files = [f.path for f in scan_inbox(settings.inbox_dir).values()]
        skipped = [
            {"file": str(path), "reason": reason}
            for path, reason in skipped_in_inbox(settings.inbox_dir)
        ]
    missing = [str(f) for f in rfp_files if not Path(f).is_file()]
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=console,
        disable=as_json and not console.is_terminal,
    )
    # the store's reads around the runs open its file once (the runs hold it read-write)
    with progress, launcher.reading():
        task = progress.add_task("libraries: ingest, validate, embed", total=1)
        library_note = None
        try:
            current = not rebuild_library and launcher.library_is_current()
        except Exception as exc:  # an unreachable Postgres store: a setup error, not a bug
            if type(exc).__name__ not in launch.STORE_ERRORS:
                raise
            progress.stop()
            store_failed(exc)
        if current:
            library_note = LIBRARY_UNCHANGED
            lib = launch.RunOutcome(success=True)
        else:
            lib = launcher.run_library()
        if lib.interrupted:  # Ctrl-C in the library job: no RFP started, one summary
            progress.update(task, description="libraries: interrupted (Ctrl-C)")
            library_note = LIBRARY_INTERRUPTED
        else:
            progress.advance(task)
        if not lib.success and not lib.interrupted:
            if lib.model_error:
                where = str(config) if config else os.environ.get(CONFIG_ENV) or CONFIG_FILE
                advice = (
                    f"Check the model setting (model: {settings.model}) in {where}, or "
                    "RFP_RETRIEVAL_MODEL if it is set."
                )
            elif lib.store_error:
                advice = (
                    "Check that the Postgres server is up and that the URL in "
                    f"{settings.postgres_url_env} is right (store: {settings.store})."
                )
            else:
                advice = (
                    f"Check the library folder ({settings.library_dir}) and the answers folder "
                    f"({settings.answers_dir}), or point --library/--answers at the right ones."
                )
            console.print(
                f"[red]The library job failed:[/red] {escape(lib.message)}\n" + escape(advice),
                markup=True,
                highlight=False,
            )
            raise typer.Exit(2)
        if lib.interrupted:
            outcomes = not_started(rfp_files)
        else:
            no_library = library_shortfall(launcher.store, settings.library_dir)
            if no_library:  # said now (each RFP takes a minute) and again for each RFP
                console.print(Text.assemble(("Warning: ", "yellow"), no_library))
            unchanged = (
                unchanged_rfps(launcher, rfp_files, no_library)
                if from_inbox and current and not rerun
                else {}
            )
            ran = run_rfps(
                launcher,
                [f for f in rfp_files if str(f) not in unchanged],
                missing,
                progress,
                no_library,
            )
            record_inputs(launcher, ran)
            export_golden(launcher, ran)
            by_file = {o["file"]: o for o in ran}
            outcomes = [unchanged.get(str(f)) or by_file[str(f)] for f in rfp_files]
    from rfp_retrieval.retrieval.overrides import unmatched_override_files

    with launcher.reading():  # the store's reads open its file once
        known = launcher.known_partitions()
        known |= {o["partition"] for o in outcomes if o.get("partition")}
        present = rfp_files_present(settings.inbox_dir, outcomes)
        sources = partition_sources(launcher.store)
        unmatched = [
            {"file": str(path), "reason": reason}
            for path, reason in unmatched_override_files(
                settings.overrides_dir, sorted(known), present, sources
            )
        ]
        unmatched += override_problems(launcher.store, settings.overrides_dir, outcomes)
        rejected = library_rejections(launcher.store)
        gone = briefs_without_rfp(launcher.store, outcomes, sources)
    if as_json:
        print_json(
            {
                "rfps": outcomes,
                "skipped": skipped,
                "unmatched_overrides": unmatched,
                "rejected_library_rows": rejected,
                "briefs_without_rfp": gone,
            }
        )
    else:
        print_run_summary(
            outcomes,
            skipped=skipped,
            unmatched_overrides=unmatched,
            library_note=library_note,
            rejected_library_rows=rejected,
            briefs_without_rfp=gone,
        )
    if any(o["status"] == "interrupted" for o in outcomes):
        raise typer.Exit(130)
    if any(o["status"] not in ("ok", "warning") for o in outcomes):
        raise typer.Exit(1)  # every other RFP was still processed; the summary lists failures


def check_model_setting(settings: Any, config: Path | None) -> None:
    """Exit 2 at once, naming the setting and where it is set, when the model setting names
    no model this machine has (``embedding.check_model_name``), before any Dagster run."""
    from rfp_retrieval.retrieval.embedding import ModelNotFoundError, check_model_name

    try:
        check_model_name(settings.model)
    except ModelNotFoundError as exc:
        where = str(config) if config else os.environ.get(CONFIG_ENV) or CONFIG_FILE
        console.print(
            Text.assemble(
                ("Settings error: ", "red"),
                f"model: {exc}. Check the model setting (model: {settings.model}) in {where}, "
                "or RFP_RETRIEVAL_MODEL if it is set.",
            )
        )
        raise typer.Exit(2) from None


def hold_store_for_this_run(settings: Any) -> None:
    """Take the DuckDB store's one-writer lock for the rest of this command
    (``writer_lock.claim_store``; released by ``releases_store_locks`` when the command
    ends, or by the OS if the process dies). A second ``run`` on the same store exits 2 at
    once naming the holder's PID (break-it: it used to fail minutes later in a DuckDB lock
    traceback). ``store: postgres`` takes no lock: it has many writers."""
    if settings.store == "postgres":
        return
    from rfp_retrieval.storage.writer_lock import HELD_LOCKS, StoreBusyError, claim_store

    try:
        HELD_LOCKS.append(claim_store(settings.db_path))
    except StoreBusyError as exc:
        store_failed(exc)


def _same_file(first: Path, second: Path) -> bool:
    """True when the two paths name one file (``os.path.samefile``; False when either is
    gone)."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def _has_files(folder: Path | str) -> bool:
    """True when ``folder`` is a folder holding at least one entry (an RFP may be there)."""
    folder = Path(folder)
    return folder.is_dir() and any(folder.iterdir())


def rfp_files_present(inbox_dir: Path | str, outcomes: list[RunItem]) -> dict[str, str]:
    """``{partition key: RFP file name}`` of the files in the inbox now and those of this run
    (``outcomes``): the partitions an override file can still apply to."""
    from rfp_retrieval.inbox import scan_inbox

    present = {o["partition"]: Path(o["file"]).name for o in outcomes if o.get("partition")}
    if Path(inbox_dir).is_dir():
        present.update({k: f.path.name for k, f in scan_inbox(inbox_dir).items()})
    return present


def partition_sources(store: Any) -> dict[str, str]:
    """``{partition key: path of the RFP file it was last read from}`` (the stored
    ``rfp_document`` table's ``file``); {} before any RFP ran. ``store``: a partition store."""
    documents = store.read_table("rfp_document", ["rfp_partition", "file"])
    if documents is None:
        return {}
    return {row["rfp_partition"]: row["file"] for row in documents.iter_rows(named=True)}


def library_shortfall(store: Any, library_dir: Path | str) -> str | None:
    """Why no RFP can get a reference: the stored ``pp_entries`` table is empty (the reason,
    from ``library.quality.empty_library_reason``, names the folder and the first rejected
    row); None when the library has entries. ``store`` is a partition store (``read_table``)."""
    from rfp_retrieval.library.quality import empty_library_reason

    entries = store.read_table("pp_entries", ["id"])
    if entries is None or not entries.is_empty():
        return None
    rejected = store.read_table("pp_rejected_entries", ["file", "row", "reason"])
    return empty_library_reason(library_dir, rejected)


def override_problems(
    store: Any, overrides_dir: Path | str, outcomes: list[RunItem]
) -> list[dict[str, str]]:
    """``{"file", "reason"}`` for each override file of this run's RFPs that was not applied
    (``retrieval.overrides.override_problem``: an id the library does not hold, a pick that
    was not chosen...); the RFP's references are then the ranker's picks. The override file of
    an RFP that failed or was interrupted is listed too: nothing was applied."""
    from rfp_retrieval.retrieval.overrides import (
        NOT_APPLIED,
        OverrideError,
        load_overrides,
        override_path,
        override_problem,
        ranker_picks,
        rejected_id_reasons,
    )

    entries = store.read_table("pp_entries", ["id"])
    known = set(entries["id"].to_list()) if entries is not None else set()
    rejected = rejected_id_reasons(store.read_table("pp_rejected_entries"))
    found = []
    for item in outcomes:
        path = override_path(overrides_dir, item["partition"])
        if not path.is_file():
            continue
        if item["status"] not in ("ok", "warning"):  # break-it: was not listed at all
            try:  # what can be checked without this run's picks: the file and its ids
                load_overrides(path, known, rejected)
                later = "; it is applied when the RFP next runs"
            except OverrideError as exc:  # break-it: a broken file was promised to apply
                problem = str(exc).replace(f"{path}: ", "")
                later = f", and this file would not apply when it runs: {problem}"
            found.append(
                {
                    "file": str(path),
                    "reason": f"the RFP {Path(item['file']).name} did not run to the end "
                    f"({item['status']}){later}",
                }
            )
            continue
        refs = store.read_partition("pp_references", item["partition"])
        picks = ranker_picks(refs) if refs is not None else []
        problem = override_problem(path, known, picks, item["partition"], rejected)
        if problem:
            reason = problem.removeprefix(f"{path}: ")
            found.append({"file": str(path), "reason": f"{reason}; {NOT_APPLIED}"})
    return found


def briefs_without_rfp(
    store: Any, outcomes: list[RunItem], sources: dict[str, str]
) -> list[dict[str, str]]:
    """``{"file": the brief's folder, "partition", "reason"}`` for each stored brief on disk
    whose RFP file (``sources``: ``partition_sources(store)``) no longer exists, other than
    this run's partitions (break-it: a deleted RFP kept its old brief with no word). The brief
    is kept: it may be the one a writer is working from; the reason says what to do."""
    briefs = store.read_table("response_brief", ["rfp_partition", "html_path"])
    if briefs is None:
        return []
    ran = {o["partition"] for o in outcomes if o.get("partition")}
    gone = []
    for key, html in briefs.iter_rows():
        source = sources.get(key)
        if key in ran or not source or Path(source).is_file() or not Path(html).is_file():
            continue
        gone.append(
            {
                "file": str(Path(html).parent),
                "partition": key,
                "reason": f"its RFP {source} is gone; the brief is of that file as it "
                "was. Put the file back (or run its new name) to refresh it, or delete the "
                "brief's folder if the RFP was withdrawn",
            }
        )
    return gone


def library_rejections(store: Any) -> list[dict[str, Any]]:
    """The rows of both libraries the last library run left out, with file, row and reason
    (``library.quality.rejected_library_rows`` over the stored ``pp_rejected_entries``,
    ``pp_superseded_entries`` and ``answer_blocks``); [] before the library job ran.
    ``store``: a partition store."""
    from rfp_retrieval.library.quality import rejected_library_rows

    return rejected_library_rows(
        store.read_table("pp_rejected_entries", ["file", "row", "reason"]),
        store.read_table("answer_blocks", ["source", "row", "usable", "problems"]),
        store.read_table(
            "pp_superseded_entries",
            ["id", "file", "row", "superseded_by_file", "superseded_by_row"],
        ),
    )


def not_started(rfp_files: list) -> list[RunItem]:
    """One ``interrupted`` item per file (``NOT_STARTED``): Ctrl-C came before any RFP ran."""
    from rfp_retrieval.inbox import partition_key_for

    items = []
    for path in rfp_files:
        item = run_item(str(path), partition_key_for(Path(path).name))
        item["status"], item["error"] = "interrupted", NOT_STARTED
        items.append(item)
    return items


def unchanged_rfps(
    launcher: Any, rfp_files: list, no_library: str | None = None
) -> dict[str, RunItem]:
    """The inbox files that need no run, by file path: ``launcher.rfp_is_current`` (the
    library run, the file and its override file are those of the last successful run) and
    the stored results still whole (a ScopeQuery, ``ok`` or ``warning``, the brief's HTML
    file on disk). Each item holds the stored results (and that run's warning, if any) with
    ``unchanged`` True. A launcher without ``rfp_is_current`` (a test's fake) has
    none; any error reading a partition makes it run again."""
    from rfp_retrieval.inbox import partition_key_for

    found: dict[str, RunItem] = {}
    if not hasattr(launcher, "rfp_is_current"):
        return found
    for path in rfp_files:
        key = partition_key_for(Path(path).name)
        try:
            if not Path(path).is_file() or not launcher.rfp_is_current(key, Path(path)):
                continue
            item = run_item(str(path), key)
            read_results(launcher.store, item, no_library)
        except Exception:  # a partition half-read: run it again
            continue
        if item["status"] in ("ok", "warning") and item["brief"] and Path(item["brief"]).is_file():
            item["unchanged"] = True
            found[str(path)] = item
    return found


def export_golden(launcher: Any, outcomes: list[RunItem]) -> None:
    """After RFPs ran ``ok`` or ``warning``, refresh the writers' overrides as golden-set lines
    (``launch.Launcher.export_override_golden``: nothing when the project has no overrides). A
    failed export is a warning with its reason, never a failed run (the briefs are written)."""
    export = getattr(launcher, "export_override_golden", None)
    if export is None or not any(o["status"] in ("ok", "warning") for o in outcomes):
        return
    outcome = export()
    if outcome is not None and not outcome.success and not outcome.interrupted:
        console.print(
            Text.assemble(
                ("Warning: ", "yellow"),
                "the writers' overrides were not exported as golden-set lines: "
                + outcome.message,
            )
        )


def record_inputs(launcher: Any, outcomes: list[RunItem]) -> None:
    """Record the inputs of every file that ran ``ok`` or ``warning`` this time
    (``launcher.record_rfp_inputs``), so the next ``run`` can skip it while nothing changed."""
    done = [
        (o["partition"], Path(o["file"]))
        for o in outcomes
        if o["status"] in ("ok", "warning") and not o.get("unchanged")
    ]
    if done and hasattr(launcher, "record_rfp_inputs"):
        launcher.record_rfp_inputs(done)


def run_rfps(
    launcher: Any,
    rfp_files: list,
    missing: list[str],
    progress: Any,
    no_library: str | None = None,
) -> list[RunItem]:
    """Run ``rfp_job`` for every file (one partition each); a failure never stops the others.

    ``launcher`` is a ``launch.Launcher`` (``run_batch(files) -> {key: RunOutcome}``,
    ``run_rfp(key, path) -> RunOutcome`` and a partition ``store``). The existing files go to
    ``run_batch`` at once (on the DuckDB store: one Dagster run over their partitions, each
    failure still its own file's); a later file with the partition key of an earlier one
    is not run (break-it: it overwrote the earlier file's partition and brief with no word):
    the same file listed again is a ``warning`` ("listed twice: it ran once"), another file
    is ``failed`` with what to rename, as the inbox lists a look-alike name (the first file
    keeps the partition; ``inbox.skipped_in_inbox``). A launcher without
    ``run_batch`` runs each file with ``run_rfp``. Ctrl-C (in a run, or between runs) stops
    the batch: no run starts after it; the files whose run it stopped are ``interrupted``
    (``INTERRUPTED``), those no run had reached ``interrupted`` with ``NOT_STARTED``, those
    finished before it keep their results. ``no_library`` (``library_shortfall``) makes an
    RFP that ran but got no reference ``failed`` with ``"no references: <reason>"`` (its
    ScopeQuery and brief are kept).
    """
    from rfp_retrieval.inbox import partition_key_for

    outcomes: list[RunItem] = []
    task = progress.add_task("RFPs: parse, read scope, rank", total=len(rfp_files))
    batched: dict[str, Any] = {}
    stopped = False  # Ctrl-C: no run is started after it, the rest is "not started"
    if hasattr(launcher, "run_batch"):
        firsts: dict[str, Path] = {}
        for path in rfp_files:
            if str(path) not in missing:
                firsts.setdefault(partition_key_for(Path(path).name), Path(path))
        progress.update(task, description=f"RFPs: {len(firsts)} in one run")
        try:
            batched = launcher.run_batch(list(firsts.items()))
        except KeyboardInterrupt:  # between Dagster's runs (its own Ctrl-C is an outcome)
            batched = {}
        stopped = len(batched) < len(firsts) or any(o.interrupted for o in batched.values())
        batched = {k: o for k, o in batched.items() if getattr(o, "started", True)}
    done = 0
    taken: dict[str, Path] = {}
    for path in rfp_files:
        path = Path(path)
        key = partition_key_for(path.name)
        item = run_item(str(path), key)
        outcomes.append(item)
        if str(path) in missing:
            item["error"] = (
                f"{path}: is a folder, not a file; pass the RFP files inside it"
                if path.is_dir()
                else f"{path}: file not found"
            )
            continue
        if (first := taken.get(key)) is not None:
            if _same_file(first, path):
                item["status"] = "warning"
                item["error"] = f"{path}: listed twice: it ran once (the row above)"
            else:
                item["error"] = (
                    f"{path}: not run: its partition key '{key}' is already taken in this run "
                    f"by {first} (partitions are named by the file name); rename one of the "
                    "two files and run it again"
                )
            continue
        taken[key] = path
        result = batched.pop(key, None)
        if stopped and result is None:  # never start a run after Ctrl-C
            item["status"], item["error"] = "interrupted", NOT_STARTED
            continue
        try:
            if result is None:
                progress.update(task, completed=done, description=f"RFP {path.name[:40]}")
                result = launcher.run_rfp(key, path)
            if result.interrupted:
                raise KeyboardInterrupt
            if result.success:
                read_results(launcher.store, item, no_library)
            else:
                item["error"] = result.message
        except KeyboardInterrupt:  # in the run, or while its results were read
            stopped = True
            item["status"], item["error"] = "interrupted", INTERRUPTED
            item.update(scope_query=None, references=[], brief=None)
            continue
        done += 1
    if stopped:
        progress.update(task, completed=done, description="RFPs: interrupted (Ctrl-C)")
    elif rfp_files:
        progress.update(task, completed=len(rfp_files), description="RFPs done")
    return outcomes


def read_results(store: Any, item: RunItem, no_library: str | None = None) -> None:
    """Fill ``item`` (``status`` ``ok``) from the stored results of its partition: the scope
    query, the references, the brief; ``failed`` with ``"no references: <no_library>"`` when
    it got no reference because the library is empty, ``warning`` with the structure warning
    (``inbox.structure_warning``) when the RFP's outline looks unreadable."""
    key = item["partition"]
    scope = store.read_partition("scope_query", key).row(0, named=True)
    refs = store.read_partition("pp_references", key)
    item["status"] = "ok"
    item["scope_query"] = run_scope_query(scope)
    brief = store.read_partition("response_brief", key)
    built = brief is not None and brief.height > 0
    notes = brief["reference_notes"][0] if built and "reference_notes" in brief else None
    item["references"] = run_references(refs, notes)
    item["brief"] = brief["html_path"][0] if built else None
    if no_library and not item["references"]:
        item["status"] = "failed"
        item["error"] = f"no references: {no_library}"
    elif warning := structure_warning(
        store.read_partition("rfp_outline", key), store.read_partition("rfp_questions", key)
    ):
        item["status"] = "warning"
        item["error"] = warning
