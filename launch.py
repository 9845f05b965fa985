"""Launching runs for the CLI: the one seam between the core's command line and Dagster.

``rfp-retrieval run`` and ``rfp-retrieval ui`` import this module inside the command (never
at module level: the core package ``rfp_retrieval`` does not import Dagster). The command
loads the settings (config file and flags) and hands them here with the project's Dagster
home; nothing in this module reads settings from, or writes anything to, ``os.environ``:

- ``Launcher(settings, home)`` builds the definitions for ``settings``
  (``code_location.build_definitions``), opens the persistent instance in ``home`` (so the
  UI shows every run) and runs the library job and ``rfp_job`` on the RFP files: on the
  DuckDB store all new files in one run over their partitions (``Launcher.run_batch``; a
  failed batch re-runs its files one by one), on Postgres one run per file; the rows a run
  wrote are read back through the partition store. Dagster's console log stays
  off the terminal (``QUIET_LOGS``): the CLI prints each failure's message, and for an
  unexpected one (a bug) its class, step and the file in ``home/failures/`` with the stack
  trace.
- ``library_fingerprint(settings, project_dir)`` is what the library job's output depends
  on (the library and answer folders, the settings, the model, the code, the Dagster
  version); ``Launcher.library_is_current()`` compares it with the one recorded after the
  last successful library run (``LIBRARY_STAMP`` in the Dagster home), so ``run`` skips a
  library job that would rebuild the same tables.
- ``ui_process(...)`` is the ``dagster dev`` command line and the environment it gets, given
  explicitly (``dagster dev`` loads ``definitions.py``, which reads the settings itself).

Dagster is imported when a ``Launcher`` is made, not when this module is imported, so the
``ui`` command starts ``dagster dev`` without loading the code location twice.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rfp_retrieval.settings import CONFIG_ENV, Settings, load_settings

QUIET_LOGS = {"loggers": {"console": {"config": {"log_level": "CRITICAL"}}}}
"""Run config: Dagster's console logger prints nothing on the CLI's stderr. It would print
every event at DEBUG, and at ERROR each failed step with its stack trace, where an expected
failure (an empty PDF: the step raised ``dg.Failure``) needs only the message the CLI's summary
already shows. Every event stays in the run's event log (the UI); an unexpected failure's
stack trace goes to a file the summary names (``RunOutcome.message``)."""

MODEL_ERRORS = {"ModelNotFoundError", "ModelPartsMissingError", "ModelArchiveError"}
"""Exception classes that mean the embedding model setting, not the library, is at fault."""

STORE_ERRORS = {"PostgresStoreError"}
"""Exception classes that mean the store (an unreachable Postgres), not the library, failed."""

INTERRUPTS = {"DagsterExecutionInterruptedError", "KeyboardInterrupt"}
"""Exception classes of a run stopped by Ctrl-C."""

EXPECTED_ERRORS = MODEL_ERRORS | STORE_ERRORS | INTERRUPTS
"""Exception classes of a failure that is no bug, besides ``dg.Failure`` (what the assets raise
for bad input: an unreadable file, a bad override); any other failure is unexpected."""

TRACES = "failures"
"""Folder in the Dagster home holding ``<run_id>.txt``: the stack traces of a run that failed
unexpectedly."""

RFP_PARTITIONS = "rfp_documents"
"""The dynamic partitions definition of the RFP assets (``assets/partitions.py``)."""

LIBRARY_JOB = "library_job"
"""The job that ingests, validates and embeds both libraries (``jobs.py``)."""

LIBRARY_STAMP = "library_stamp.json"
"""File in the Dagster home: ``{"fingerprint": library_fingerprint(...), "run_id": ...}`` of
the last successful library run started by ``Launcher.run_library``."""

RFP_STAMPS = "rfp_inputs.json"
"""File in the Dagster home: ``{partition key: Launcher.rfp_inputs(...)}`` of the RFPs that
``rfp-retrieval run`` last ran successfully (``Launcher.record_rfp_inputs``)."""

CODE_FOLDERS = ("rfp_retrieval", "assets", "checks", "resources")
"""The project's code the library job runs (with ``CODE_FILES``): a change to any ``.py``
file here rebuilds the library."""
CODE_FILES = ("jobs.py", "code_location.py", "definitions.py", "launch.py")


def code_fingerprint(project_dir: Path) -> str:
    """Hex digest (16 characters) over the relative path, size and modification time of every
    ``.py`` file in ``CODE_FOLDERS`` and ``CODE_FILES`` of ``project_dir`` (compiled files
    are left out: Python writes them during a run)."""
    project_dir = Path(project_dir)
    files = [project_dir / name for name in CODE_FILES if (project_dir / name).is_file()]
    for folder in CODE_FOLDERS:
        files.extend(sorted((project_dir / folder).rglob("*.py")))
    digest = hashlib.sha256()
    for path in files:
        stat = path.stat()
        rel = path.relative_to(project_dir)
        digest.update(f"{rel}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def library_fingerprint(settings: Settings, project_dir: Path | None = None) -> dict[str, str]:
    """What the library job's tables depend on, as strings (compared key by key).

    ``library`` and ``answers``: ``folder_fingerprint`` of the two folders (names, sizes,
    modification times); ``settings``: every setting (a changed model, store or folder
    rebuilds); ``model``: the model location the embedder loads; ``code``:
    ``code_fingerprint(project_dir)`` (default ``settings.project_dir``); ``dagster``: the
    installed Dagster version.
    """
    from importlib.metadata import version

    from rfp_retrieval.library.fingerprint import folder_fingerprint

    return {
        "library": folder_fingerprint(settings.library_dir),
        "answers": folder_fingerprint(settings.answers_dir),
        "settings": repr(settings),
        "model": settings.model_location(),
        "code": code_fingerprint(project_dir or settings.project_dir),
        "dagster": version("dagster"),
    }


def carry_library_stamp(home: Path, before: Settings, after: Settings) -> bool:
    """After ``rfp-retrieval store migrate``: when ``LIBRARY_STAMP`` in ``home`` records the
    library as current for ``before`` (the DuckDB settings), record it for ``after`` (the
    same settings with ``store: postgres``), so the next ``run`` skips a library job that
    would only rebuild the tables just copied. Returns True when the stamp was carried;
    False (nothing written) when there is no stamp or it was not current for ``before``.

    What Dagster itself uses to judge staleness (materializations, code and data versions)
    lives in the instance's event log in ``home``, not in the store, so it is unchanged.
    """
    stamp_file = Path(home) / LIBRARY_STAMP
    try:
        stamp = json.loads(stamp_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if stamp.get("fingerprint") != library_fingerprint(before):
        return False
    stamp["fingerprint"] = library_fingerprint(after)
    stamp_file.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
    return True


def dagster_home(
    project_dir: Path, config_file: Path | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The Dagster home the CLI's runs and UI use (absolute; not created).

    ``DAGSTER_HOME`` when set in ``environ`` (default ``os.environ``, read only); else
    ``var/dagster_home`` beside ``config_file`` (``--config``); else the project's
    ``var/dagster_home``.
    """
    environ = os.environ if environ is None else environ
    if environ.get("DAGSTER_HOME"):
        # Dagster refuses a relative DAGSTER_HOME (`dagster dev` would fail after the UI
        # printed its address): a relative one is taken from the working directory
        return Path(environ["DAGSTER_HOME"]).expanduser().resolve()
    if config_file is not None:
        return config_file.parent / "var" / "dagster_home"
    return project_dir / "var" / "dagster_home"


def prepare_home(
    home: Path,
    project_dir: Path,
    settings: Settings | None = None,
    config_file: Path | None = None,
) -> Path:
    """Create ``home`` and give it the ``dagster.yaml`` for the store of ``settings`` (default:
    ``load_settings(project_dir, config_file=...)``, ``config_file`` when it exists):
    ``instance_config.write_home_instance`` (DuckDB: one run at a time; Postgres: Dagster's
    storage in Postgres, several runs). Returns ``home``.

    Raises ``instance_config.InstanceConfigError`` for a hand-written ``dagster.yaml`` that
    cannot serve the store."""
    from instance_config import write_home_instance

    if settings is None:
        existing = config_file if config_file is not None and config_file.is_file() else None
        settings = load_settings(project_dir, config_file=existing)
    write_home_instance(home, settings.store, settings.postgres_url_env)
    return home


@dataclass(frozen=True)
class RunOutcome:
    """How one run ended, in the CLI's terms (no Dagster object leaves this module).

    ``started`` is False for a partition no run was started for (Ctrl-C came first);
    ``error`` is the message of the first failed step (``failure_message``);
    ``failure_classes`` the exception class names behind the failed steps; ``unexpected``
    names the first failure that is no ``dg.Failure`` and no ``EXPECTED_ERRORS`` class (a bug,
    or a broken install) as ``"<class> in step <step>"``, and ``trace_file`` is the file
    holding its stack trace (None when none was written).
    """

    success: bool
    interrupted: bool = False
    started: bool = True
    error: str | None = None
    failure_classes: frozenset[str] = frozenset()
    unexpected: str | None = None
    trace_file: str | None = None

    @property
    def model_error(self) -> bool:
        """The embedding model setting, not the library, made the run fail."""
        return bool(self.failure_classes & MODEL_ERRORS)

    @property
    def store_error(self) -> bool:
        """The store (``store: postgres``: server unreachable, login refused) made it fail."""
        return bool(self.failure_classes & STORE_ERRORS)

    @property
    def message(self) -> str:
        """What the CLI prints for a failed run: ``error``, and for an unexpected failure the
        class, the step and where its stack trace is (Dagster's own log stays off stderr)."""
        text = self.error or "run failed"
        if self.unexpected:
            where = self.trace_file or "the run's log (`rfp-retrieval ui`, Runs)"
            text += f" (unexpected {self.unexpected}: the stack trace is in {where})"
        return text


def outcome_of(result: Any, trace_dir: Path | None = None) -> RunOutcome:
    """The ``RunOutcome`` of an ``ExecuteInProcessResult``: a failed run whose steps were
    interrupted (Ctrl-C) is ``interrupted``; an unexpected failure's stack traces are written
    to ``trace_dir/<run_id>.txt`` when ``trace_dir`` is given (created if missing)."""
    if result.success:
        return RunOutcome(success=True)
    classes = failure_classes(result)
    unexpected = unexpected_failures(result)
    trace_file = None
    if unexpected and trace_dir is not None:
        trace_file = trace_dir / f"{result.run_id}.txt"
        trace_dir.mkdir(parents=True, exist_ok=True)
        trace_file.write_text(
            "".join(
                f"run {result.run_id} ({result.job_def.name}), step {step}:\n{error.to_string()}\n"
                for step, error in unexpected
            ),
            encoding="utf-8",
        )
    first = None
    if unexpected:
        step, error = unexpected[0]
        first = f"{_innermost(error).cls_name or 'error'} in step {step}"
    return RunOutcome(
        success=False,
        interrupted=bool(classes & INTERRUPTS),
        error=failure_message(result),
        failure_classes=frozenset(classes),
        unexpected=first,
        trace_file=str(trace_file) if trace_file else None,
    )


class Launcher:
    """The code location for one settings object, on the persistent instance in ``home``.

    Attributes:
        settings: the command's settings (``rfp_retrieval.settings.Settings``).
        defs: ``build_definitions(settings)``.
        instance: the ``DagsterInstance`` of ``home`` (with ``home/dagster.yaml``), its
            SQLite event log pooled (``resources.event_log``) and its compute logs mirrored
            by threads, not processes (``resources.compute_logs``).
        store: a read-only partition store on the configured store (``settings.store``).
    """

    _read_hold: ExitStack | None = None
    """The DuckDB store held open read-only while in ``reading`` (None outside it)."""

    def __init__(self, settings: Settings, home: Path) -> None:
        import dagster as dg

        from code_location import build_definitions
        from resources.compute_logs import thread_mirrored_compute_logs
        from resources.event_log import pooled_event_log
        from resources.partition_store import partition_store_for

        self.settings = settings
        self.home = prepare_home(Path(home), settings.project_dir, settings)
        self.defs = build_definitions(settings)
        self.instance = dg.DagsterInstance.from_config(str(self.home))
        pooled_event_log(self.instance)  # the SQLite event log, one engine per shard
        thread_mirrored_compute_logs(self.instance)  # no tail/watcher processes per run
        self.store = partition_store_for(settings, read_only=True)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Keep the DuckDB store open read-only for the block (``resources.duckdb_io
        .held_open``), so the many reads of ``store`` in it open the file once. A run started
        in the block (``run_rfp``) releases it for the run's own read-write connections and
        takes it again after. Does nothing on the Postgres store."""
        if self.settings.store == "postgres" or self._read_hold is not None:
            yield
            return
        self._hold_for_reading()
        try:
            yield
        finally:
            hold, self._read_hold = self._read_hold, None
            if hold is not None:
                hold.close()

    def _hold_for_reading(self) -> None:
        from resources.duckdb_io import held_open

        self._read_hold = ExitStack()
        self._read_hold.enter_context(held_open(str(self.settings.db_path), read_only=True))

    @contextmanager
    def _writing(self, hold: bool = True) -> Iterator[None]:
        """For one run: the DuckDB store held open read-write (``hold``, the ``rfp_job``
        runs: their ~40 IO-manager connections reuse one open file; the library job, which
        may run for minutes, keeps its own connections so another process's run can write
        between its steps), then the instance's run shards released
        (``PooledSqliteEventLogStorage.release_runs``). A ``reading`` hold is dropped for the
        run and taken again after it."""
        from resources.duckdb_io import held_open
        from resources.event_log import PooledSqliteEventLogStorage

        was_reading = self._read_hold is not None
        if was_reading:
            self._read_hold.close()
            self._read_hold = None
        try:
            if self.settings.store == "postgres" or not hold:
                yield
            else:
                with held_open(str(self.settings.db_path)):
                    yield
        finally:
            storage = getattr(self.instance, "_event_storage", None)
            if isinstance(storage, PooledSqliteEventLogStorage):
                storage.release_runs()
            if was_reading:
                self._hold_for_reading()

    def library_is_current(self) -> bool:
        """True when the library job would rebuild the same tables: the stamp of the last
        successful ``run_library`` (``LIBRARY_STAMP``) holds today's ``library_fingerprint``,
        its run is still the latest library run on the instance (none was started since,
        from the UI or the sensor, possibly with other settings), and the store exists."""
        import dagster as dg

        stamp_file = self.home / LIBRARY_STAMP
        from resources.partition_store import store_has_tables

        if not stamp_file.is_file() or not store_has_tables(self.settings):
            return False
        try:
            stamp = json.loads(stamp_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if stamp.get("fingerprint") != library_fingerprint(self.settings):
            return False
        latest = self.instance.get_runs(dg.RunsFilter(job_name=LIBRARY_JOB), limit=1)
        return bool(latest) and latest[0].run_id == stamp.get("run_id") and latest[0].is_success

    def run_library(self) -> RunOutcome:
        """Execute ``library_job`` in process (a failed step never raises); on success record
        its ``library_fingerprint`` (taken before the run) in ``LIBRARY_STAMP``."""
        stamp_file = self.home / LIBRARY_STAMP
        stamp_file.unlink(missing_ok=True)  # a failed or interrupted run leaves no stamp
        fingerprint = library_fingerprint(self.settings)
        with self._writing(hold=False):
            result = self.defs.resolve_job_def(LIBRARY_JOB).execute_in_process(
                instance=self.instance, run_config=QUIET_LOGS, raise_on_error=False
            )
        if result.success:
            stamp = {"fingerprint": fingerprint, "run_id": result.run_id}
            stamp_file.write_text(json.dumps(stamp, indent=1), encoding="utf-8")
        return outcome_of(result, self.home / TRACES)

    def run_rfp(self, key: str, path: Path) -> RunOutcome:
        """Add partition ``key`` and execute ``rfp_job`` for it on the file ``path``.

        A failed step never raises; Ctrl-C during the run (in a step or between steps) is an
        ``interrupted`` outcome.
        """
        try:
            self.instance.add_dynamic_partitions(RFP_PARTITIONS, [key])
            with self._writing():
                result = self.defs.resolve_job_def("rfp_job").execute_in_process(
                    instance=self.instance,
                    partition_key=key,
                    run_config={
                        **QUIET_LOGS,
                        "ops": {"rfp_document": {"config": {"path": str(path.resolve())}}},
                    },
                    raise_on_error=False,
                )
        except KeyboardInterrupt:
            return RunOutcome(success=False, interrupted=True)
        return outcome_of(result, self.home / TRACES)

    def run_batch(self, files: Sequence[tuple[str, Path]]) -> dict[str, RunOutcome]:
        """Run ``rfp_job`` for every ``(partition key, file)`` of ``files`` (keys unique) and
        return each key's outcome.

        On the DuckDB store (one writer: runs go one at a time anyway) the partitions go in as
        few runs as possible: one run per stretch of keys that are adjacent in the instance's
        partition order (``batch_ranges``; new keys are added together, so a batch of new
        files is one run), executed over that partition range (every RFP asset computes one
        partition at a time, ``assets.partitions.each_partition``). The run pays Dagster's
        per-run cost (run record, resources, step events, store connections) once for the
        stretch. When such a run fails for any other reason than Ctrl-C, the model setting or
        the store, its partitions are run again one by one (``run_rfp``), so one bad RFP never
        costs the others their results and each failure names its own file.

        On the Postgres store each file is its own run (``run_rfp``), as the sensor requests
        them, so the run queue of a deployment can run them side by side.
        """
        if not files:
            return {}
        if self.settings.store == "postgres":
            return {key: self.run_rfp(key, Path(path)) for key, path in files}
        paths = {key: Path(path) for key, path in files}
        try:
            self.instance.add_dynamic_partitions(RFP_PARTITIONS, list(paths))
        except KeyboardInterrupt:
            unstarted = RunOutcome(success=False, interrupted=True, started=False)
            return dict.fromkeys(paths, unstarted)
        order = self.instance.get_dynamic_partitions(RFP_PARTITIONS)
        outcomes: dict[str, RunOutcome] = {}
        for stretch in batch_ranges(order, list(paths)):
            if len(stretch) == 1:
                outcomes[stretch[0]] = self.run_rfp(stretch[0], paths[stretch[0]])
                continue
            outcome = self._run_range(stretch, paths)
            if outcome.success or outcome.interrupted or outcome.model_error or outcome.store_error:
                outcomes.update(dict.fromkeys(stretch, outcome))
            else:
                for key in stretch:  # find the bad one(s); the others keep their results
                    outcomes[key] = self.run_rfp(key, paths[key])
                    if outcomes[key].interrupted:
                        break
            if any(o.interrupted for o in outcomes.values()):
                break
        for key in paths:  # Ctrl-C before their run began
            outcomes.setdefault(key, RunOutcome(success=False, interrupted=True, started=False))
        return outcomes

    def _run_range(self, keys: Sequence[str], paths: Mapping[str, Path]) -> RunOutcome:
        """Execute ``rfp_job`` once over the partition range ``keys[0]..keys[-1]`` (adjacent
        in the instance's order), each partition reading its file from ``paths``."""
        from dagster._core.storage.tags import (
            ASSET_PARTITION_RANGE_END_TAG,
            ASSET_PARTITION_RANGE_START_TAG,
        )

        config = {key: str(paths[key].resolve()) for key in keys}
        try:
            with self._writing():
                result = self.defs.resolve_job_def("rfp_job").execute_in_process(
                    instance=self.instance,
                    run_config={
                        **QUIET_LOGS,
                        "ops": {"rfp_document": {"config": {"paths": config}}},
                    },
                    tags={
                        ASSET_PARTITION_RANGE_START_TAG: keys[0],
                        ASSET_PARTITION_RANGE_END_TAG: keys[-1],
                    },
                    raise_on_error=False,
                )
        except KeyboardInterrupt:
            return RunOutcome(success=False, interrupted=True)
        return outcome_of(result, self.home / TRACES)

    def export_override_golden(self) -> RunOutcome | None:
        """Materialize ``override_golden_lines`` (``override_golden_job``: the writers'
        overrides as golden-set lines in ``<output_dir>/golden/overrides.jsonl``) when
        ``retrieval.overrides.override_golden_due`` says the project has overrides or an earlier
        export to refresh; None when it has neither (the run pays nothing). Called after
        ``rfp-retrieval run`` and after a review-page swap, so the file follows the overrides
        without a trip to the evaluation group (new-user trial: it was written only when that
        asset was materialized by hand). Ctrl-C is an ``interrupted`` outcome."""
        from jobs import OVERRIDE_GOLDEN_JOB
        from rfp_retrieval.retrieval.overrides import override_golden_due

        if not override_golden_due(self.settings.overrides_dir, self.settings.output_dir):
            return None
        try:
            with self._writing():
                result = self.defs.resolve_job_def(OVERRIDE_GOLDEN_JOB).execute_in_process(
                    instance=self.instance, run_config=QUIET_LOGS, raise_on_error=False
                )
        except KeyboardInterrupt:
            return RunOutcome(success=False, interrupted=True)
        return outcome_of(result, self.home / TRACES)

    def rfp_inputs(self, key: str, path: Path) -> dict[str, str | None] | None:
        """What partition ``key``'s results depend on beyond the code and settings (which the
        library stamp already covers, ``library_fingerprint``): the library run whose tables
        it ranks against (``LIBRARY_STAMP``'s run id), the RFP file's SHA-256 and its
        override file's SHA-256 (None when it has none). None when there is no library
        stamp or the file cannot be read."""
        from rfp_retrieval.lineage import file_sha
        from rfp_retrieval.retrieval.overrides import override_path

        try:
            stamp = json.loads((self.home / LIBRARY_STAMP).read_text(encoding="utf-8"))
            override = override_path(self.settings.overrides_dir, key)
            return {
                "library_run": stamp.get("run_id"),
                "file": file_sha(Path(path)),
                "override": file_sha(override) if override.is_file() else None,
            }
        except (OSError, ValueError):
            return None

    def rfp_is_current(self, key: str, path: Path) -> bool:
        """True when partition ``key`` need not run again for ``path``: ``rfp-retrieval run``
        last ran it successfully with today's ``rfp_inputs`` (same library run, same file and
        override bytes) and its latest ``rfp_document`` materialization (from the UI or the
        sensor too) is of these same bytes (``sensors.inbox.materialized_sha``). The caller
        checks first that the library is current (``library_is_current``): a library,
        settings or code change rebuilds the library and so re-runs every RFP."""
        from sensors.inbox import materialized_sha

        stored = self._rfp_stamps().get(key)
        if stored is None or stored != self.rfp_inputs(key, path):
            return False
        return materialized_sha(self.instance, key) == stored["file"]

    def record_rfp_inputs(self, files: Sequence[tuple[str, Path]]) -> None:
        """Record ``rfp_inputs`` of each ``(key, file)`` that just ran successfully in
        ``RFP_STAMPS``; an unreadable stamps file is started afresh (it only saves work)."""
        stamps = self._rfp_stamps()
        for key, path in files:
            inputs = self.rfp_inputs(key, path)
            if inputs is not None:
                stamps[key] = inputs
        (self.home / RFP_STAMPS).write_text(json.dumps(stamps, indent=1), encoding="utf-8")

    def _rfp_stamps(self) -> dict[str, Any]:
        try:
            stamps = json.loads((self.home / RFP_STAMPS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return stamps if isinstance(stamps, dict) else {}

    def known_partitions(self) -> set[str]:
        """Every RFP partition key the instance knows."""
        return set(self.instance.get_dynamic_partitions(RFP_PARTITIONS))


def batch_ranges(order: Sequence[str], keys: Sequence[str]) -> list[list[str]]:
    """``keys`` (all in ``order``, the instance's partition order) as stretches of keys that
    are adjacent in ``order``, in that order: the partition ranges ``run_batch`` runs.

    >>> batch_ranges(["a", "b", "c", "d", "e"], ["e", "a", "b", "d"])
    [['a', 'b'], ['d', 'e']]

    Raises ValueError naming a key that is not in ``order``."""
    position = {key: i for i, key in enumerate(order)}
    missing = [key for key in keys if key not in position]
    if missing:
        raise ValueError(f"partition {missing[0]!r} is not a partition of the instance")
    stretches: list[list[str]] = []
    for key in sorted(set(keys), key=position.__getitem__):
        if stretches and position[stretches[-1][-1]] == position[key] - 1:
            stretches[-1].append(key)
        else:
            stretches.append([key])
    return stretches


def failure_message(result: Any) -> str:
    """The message of the run's first failed step: the user-facing ``Failure`` description,
    else the first exception below Dagster's own wrappers; ``"run failed"`` without one."""
    for event in result.all_events:
        if event.event_type_value == "STEP_FAILURE":
            error = event.step_failure_data.error
            user = event.step_failure_data.user_failure_data
            if user is not None and user.description:
                return user.description
            error = _innermost(error)
            return (error.message if error else "step failed").strip()
    return "run failed"


def _innermost(error: Any) -> Any:
    """The first exception below Dagster's own wrappers (``DagsterExecutionStepExecutionError``
    ...) of a ``SerializableErrorInfo``; ``error`` itself when it has no cause."""
    while (
        error is not None
        and error.cause is not None
        and "dagster" in (error.cls_name or "").lower()
    ):
        error = error.cause
    return error


def unexpected_failures(result: Any) -> list[tuple[str, Any]]:
    """``(step key, SerializableErrorInfo)`` of each failed step of the run that raised neither
    ``dg.Failure`` (an expected failure: bad input, with the message for the user) nor an
    ``EXPECTED_ERRORS`` class (model setting, Ctrl-C) anywhere in its cause chain."""
    found = []
    for event in result.all_events:
        if event.event_type_value != "STEP_FAILURE":
            continue
        data = event.step_failure_data
        if data.user_failure_data is not None:
            continue
        names, error = set(), data.error
        while error is not None:
            names.add(error.cls_name or "")
            error = error.cause
        if data.error is not None and not names & EXPECTED_ERRORS:
            found.append((event.step_key, data.error))
    return found


def failure_classes(result: Any) -> set[str]:
    """Class names of every exception (and its causes) behind the run's failed steps."""
    names: set[str] = set()
    for event in result.all_events:
        if event.event_type_value == "STEP_FAILURE":
            error = event.step_failure_data.error
            while error is not None:
                names.add(error.cls_name or "")
                error = error.cause
    return names


def ui_process(
    project_dir: Path,
    home: Path,
    port: int,
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The ``dagster dev`` command on ``project_dir``'s ``workspace.yaml`` (absolute path) and
    its whole environment: ``environ`` (default ``os.environ``, copied) with
    ``DAGSTER_HOME=home`` and, for ``--config``, ``RFP_RETRIEVAL_CONFIG=config_file`` (the code
    location reads it). Prepares ``home`` (``prepare_home``).

    The command is meant to run with ``home`` as its working directory (``ui_cwd``):
    ``dagster dev`` warns that a ``dagster.yaml`` in its working directory "will not be used"
    whenever that folder is not ``DAGSTER_HOME``, and the project folder holds the template
    ``prepare_home`` copies. So relative paths in the environment that the code location
    resolves against the working directory (``RFP_RETRIEVAL_CONFIG`` and the path settings'
    ``RFP_RETRIEVAL_*`` variables, ``settings.PATH_FIELDS``) are made absolute here, against
    this process's working directory, as the CLI's own commands read them.
    """
    from rfp_retrieval.settings import ENV_PREFIX, PATH_FIELDS

    home = Path(home).resolve()
    prepare_home(home, project_dir, config_file=config_file)
    env = dict(os.environ if environ is None else environ)
    env["DAGSTER_HOME"] = str(home)
    if config_file is not None:
        env[CONFIG_ENV] = str(config_file)
    for name in (CONFIG_ENV, *(ENV_PREFIX + field.upper() for field in PATH_FIELDS)):
        if env.get(name):
            env[name] = str(Path.cwd() / Path(env[name]).expanduser())
    dagster = Path(sys.executable).with_name("dagster")
    workspace = home_workspace(home, project_dir)
    cmd = [str(dagster), "dev", "-w", str(workspace), "-h", "127.0.0.1", "-p", str(port)]
    return cmd, env


def home_workspace(home: Path, project_dir: Path) -> Path:
    """``project_dir``'s ``workspace.yaml`` written into ``home`` with every code location's
    ``working_directory`` made absolute (against ``project_dir``), returned as a path.

    ``dagster dev`` resolves a relative ``working_directory`` against its own working
    directory, which is the Dagster home (``ui_cwd``), not the project: without this the code
    location cannot import ``definitions``.
    """
    import yaml

    project_dir = Path(project_dir).resolve()
    spec = yaml.safe_load((project_dir / "workspace.yaml").read_text(encoding="utf-8")) or {}
    for entry in spec.get("load_from") or []:
        for target in entry.values():
            if isinstance(target, dict):
                folder = Path(target.get("working_directory") or ".")
                target["working_directory"] = str(project_dir / folder)
    out = Path(home).resolve() / "workspace.yaml"
    out.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return out


def ui_cwd(home: Path) -> Path:
    """The working directory of ``ui_process``'s command: the Dagster home itself, the one
    folder whose ``dagster.yaml`` ``dagster dev`` uses without a warning."""
    return Path(home).resolve()
