"""Writer overrides of chosen past-performance references, and the writer-facing review.

A writer replaces a chosen reference for one RFP with a small YAML file in the overrides
folder, named after the RFP's partition key (``overrides/<partition-key>.yaml``)::

    overrides:
      - replace: PP-112          # a reference the pipeline chose for this RFP
        with: PP-045             # the library entry to cite instead
        by: Dana Writer
        at: 2026-06-10           # date or date-time (ISO 8601)
        reason: The CO asked for the SNAP modernization work, not the loan system.

The override wins (issue 5, "writer overrides"): the replaced pick stays in the
``pp_references`` table with ``rank`` null and ``overridden_by`` set, and the new pick takes
its rank with every score component computed as for any other entry, plus ``override_by``,
``override_at`` and ``override_reason``. Each overridden RFP becomes one golden-set line
(DESIGN.md, evaluation formats) so the team's golden set grows from real use.
"""

from __future__ import annotations

import bisect
import datetime as dt
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import yaml

from rfp_retrieval.documents.text import shown_text
from rfp_retrieval.library.cells import entry_id_key, library_id
from rfp_retrieval.library.writeups import lenient_yaml_load
from rfp_retrieval.retrieval.config import RankingConfig
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.prepared import PreparedLibrary
from rfp_retrieval.retrieval.records import (
    EntryVectors,
    RankedReference,
    RankingResult,
    ScopeQuery,
)
from rfp_retrieval.retrieval.references import REFERENCES_SCHEMA, references_frame

OVERRIDE_FIELDS = ("replace", "with", "by", "at", "reason")

OVERRIDE_SCHEMA: dict[str, Any] = {
    "overridden_by": pl.String,
    "override_by": pl.String,
    "override_at": pl.String,
    "override_reason": pl.String,
}
"""Columns ``apply_overrides`` adds to the ``pp_references`` table (``override_at`` ISO 8601)."""

REVIEW_SCHEMA: dict[str, Any] = {
    "rfp_partition": pl.String,
    "rank": pl.Int64,
    "id": pl.String,
    "title": pl.String,
    "outcome_metrics": pl.String,
    "outcome_narrative": pl.String,
    "source": pl.String,
    "source_row": pl.Int64,
    "updated_by": pl.String,
}


EXAMPLE_FILE_NAME = "example.yaml.example"
"""The example ``rfp-retrieval init`` writes in the overrides folder: not ``*.yaml``, so no
run reads it (copy it to ``<partition-key>.yaml`` and edit)."""

EXAMPLE_OVERRIDE_FILE = """\
# A writer's override of the past-performance references chosen for one RFP.
#
# This example is never read: only a file named <partition-key>.yaml is (the key is in the
# run summary and at the top of the brief, e.g. miami-dade-311-rfp-md.yaml for
# "Miami-Dade 311 RFP.md"). Copy it to that name, replace the ids with yours, and re-run
# the RFP (`rfp-retrieval run`, or `rfp-retrieval review` which writes this file for you).
#
# Every field is required. `replace` is a reference the pipeline chose for this RFP,
# `with` the library entry (pp_entries id) to cite instead; `at` is a date (2026-06-10) or
# a date-time (2026-06-10T14:30). The brief and `run --json` then mark the new pick with
# who, when, why and the replaced pick and its score.
overrides:
  - replace: PP-112
    with: PP-045
    by: Dana Writer
    at: 2026-06-10
    reason: The evaluators asked for benefits-eligibility work, not the loan system.
"""
"""The example override file's text (the format of the module docstring)."""


class OverrideError(ValueError):
    """An override file is unreadable or does not fit the RFP's picks (names the file)."""


@dataclass(frozen=True)
class ReferenceOverride:
    """One writer decision: cite ``with_id`` instead of the chosen ``replace_id``.

    ``at`` is the ISO 8601 date or date-time the writer gave; ``source`` the YAML file.
    """

    replace_id: str
    with_id: str
    by: str
    at: str
    reason: str
    source: Path


def override_path(overrides_dir: Path | str, partition_key: str) -> Path:
    """The override file of one RFP partition: ``<overrides_dir>/<partition_key>.yaml``."""
    return Path(overrides_dir) / f"{partition_key}.yaml"


def unmatched_override_files(
    overrides_dir: Path | str,
    partition_keys: list[str],
    present: Mapping[str, str] | None = None,
    sources: Mapping[str, str] | None = None,
) -> list[tuple[Path, str]]:
    """Override files that no RFP partition will read, each with what to do.

    An override applies only when its file is named ``<partition-key>.yaml`` exactly; a file
    named after the RFP's file name (``good.yaml`` for ``good.md``, whose key is
    ``good-md``) would otherwise be ignored without a word. Returns ``(path, reason)`` for
    every ``*.yaml``/``*.yml`` file in ``overrides_dir`` whose stem is not one of
    ``partition_keys``, the reason naming the closest key that has no override file yet (a
    close key whose file exists is named as the file to merge into, never as a rename target);
    [] when the folder is missing.

    ``present`` (``{partition key: RFP file name}`` of the files in the inbox or in this run;
    None: not checked) also reports an override of a known partition whose RFP file is gone:
    the key is derived from the file name (``inbox.partition_key_for``), so renaming the RFP
    starts a new partition and the old key's override stops applying. ``sources``
    (``{partition key: path it was last read from}``, the ``rfp_document`` table's ``file``)
    names the gone file; a partition whose recorded file still exists elsewhere (an RFP
    named on the command line) is not reported.
    """
    import difflib

    folder = Path(overrides_dir)
    if not folder.is_dir():
        return []
    keys = set(partition_keys)
    sources = sources or {}
    found = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in (".yaml", ".yml") or path.name.startswith("."):
            continue
        if path.suffix == ".yaml" and path.stem in keys:
            if present is not None and path.stem not in present:
                reason = _gone_source_reason(folder, path.stem, present, sources.get(path.stem))
                if reason is not None:
                    found.append((path, reason))
            continue
        free = sorted(k for k in keys if not override_path(folder, k).exists())
        close = difflib.get_close_matches(path.stem, free, n=1, cutoff=0.5)
        taken = difflib.get_close_matches(path.stem, sorted(keys - set(free)), n=1, cutoff=0.5)
        if close:
            hint = f"rename it to {close[0]}.yaml"
        elif taken:  # break-it: the hint named a file that exists, which renaming would replace
            hint = (
                f"{taken[0]}.yaml already holds that RFP's overrides: move its entries there, "
                "or name it <partition-key>.yaml"
            )
        else:
            hint = "name it <partition-key>.yaml"
        found.append(
            (
                path,
                f"matches no RFP partition, so it is not applied; {hint} (the key is in "
                "the run summary and the brief)",
            )
        )
    return found


def _gone_source_reason(
    folder: Path, key: str, present: Mapping[str, str], source: str | None
) -> str | None:
    """Why the override of known partition ``key`` applies to no run: its RFP file is gone
    from the inbox (renamed or removed), with the likely new name (the closest present key
    that has no override file of its own); None when ``source`` still exists."""
    import difflib

    if source and Path(source).is_file():
        return None
    was = f"was last read from {Path(source).name}" if source else "was read from a file"
    free = sorted(k for k in present if not override_path(folder, k).exists())
    close = difflib.get_close_matches(key, free, n=1, cutoff=0.5)
    if close:
        hint = f"if the RFP was renamed to {present[close[0]]}, rename this file to {close[0]}.yaml"
    else:
        hint = "if the RFP was renamed, rename this file to its new partition key + .yaml"
    return (
        f"its RFP partition {key} {was}, which is no longer in the inbox, so it applies to "
        f"no run; {hint} (the key is in the run summary)"
    )


def _duplicate_keys(text: str) -> list[tuple[str, int]]:
    """``(key, line)`` of each mapping key given twice in the YAML ``text`` (1-based line of
    the second one): PyYAML keeps the last value silently, so a hand-edited file with two
    ``with:`` lines would cite the one the writer may have meant to delete."""
    found: list[tuple[str, int]] = []
    stack = [yaml.compose(text, Loader=yaml.SafeLoader)]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        found.append((key.value, key.start_mark.line + 1))
                    seen.add(key.value)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return sorted(found, key=lambda item: item[1])


def _id_typo_distance(typed: str, known: str) -> int:
    """Typing mistakes between two entry ids: the optimal-string-alignment distance of their
    ``entry_id_key`` forms (one digit missing, extra, wrong or two digits swapped = 1)."""
    from rapidfuzz.distance import OSA

    return OSA.distance(entry_id_key(typed), entry_id_key(known))


def _id_number(entry_id: str) -> int | None:
    """The last run of digits of an entry id (``PP-175`` -> 175), None when it has none."""
    digits = re.findall(r"\d+", entry_id)
    return int(digits[-1]) if digits else None


def closest_ids(typed: str, known_ids: set[str] | frozenset[str], limit: int = 3) -> list[str]:
    """The library ids a writer most likely meant by ``typed`` (an id the library does not
    hold), best first, at most ``limit``; [] when none is close.

    Rule: an id typed wrong from a printout differs from the meant one by one typing mistake
    (a digit missing, extra, wrong, or two swapped; two for ids of ten or more characters),
    not by sharing its prefix: ``PP-175`` is close to ``PP-17``, ``PP-15`` and ``PP-157``,
    not to ``PP-1`` or ``PP-5``. Ranked by the number of mistakes, then by how near the
    id's number is to the typed one, then by the id (so ties are not alphabetical luck)."""
    key = entry_id_key(typed)
    if not key:
        return []
    allowed = 2 if len(key) >= 10 else 1
    number = _id_number(typed)
    scored = []
    for known in known_ids:
        distance = _id_typo_distance(typed, known)
        if 0 < distance <= allowed:
            other = _id_number(known)
            gap = abs(other - number) if other is not None and number is not None else 10**9
            scored.append((distance, gap, known))
    return [known for *_, known in sorted(scored)[:limit]]


def _closest_ids(unknown: Sequence[str], known_ids: set[str] | frozenset[str]) -> str:
    """`` (closest in the library: PP-17, PP-15)`` for ids typed wrong (``closest_ids``, at
    most three in all, best first), or `` (no library id is close to it)`` when none is."""
    close: list[str] = []
    for wrong in unknown:
        for match in closest_ids(wrong, known_ids):
            if match not in close:
                close.append(match)
    if not close:
        return " (no library id is close to " + ("it" if len(unknown) == 1 else "them") + ")"
    return f" (closest in the library: {', '.join(close[:3])})"


def _text(item: Mapping[str, Any], name: str, path: Path, number: int) -> str:
    """Field ``name`` of one override as text: an id may be written as a number
    (``replace: 112``), the other fields must be text (not a list, mapping or yes/no)."""
    value = item[name]
    ok = isinstance(value, str) or (
        name in ("replace", "with") and isinstance(value, int) and not isinstance(value, bool)
    )
    if not ok:
        raise OverrideError(
            f"{path}: override {number}: '{name}' must be text, got {value!r} "
            f"({type(value).__name__}); quote it if it is meant as written"
        )
    return str(value).strip()


def _iso(value: Any, path: Path, number: int) -> str:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value.strip()).isoformat()
        except ValueError:
            pass
    raise OverrideError(
        f"{path}: override {number}: 'at' must be a date such as 2026-06-10 "
        f"(or a date-time 2026-06-10T14:30), got {value!r}"
    )


def rejected_id_reasons(rejected: pl.DataFrame | None) -> dict[str, str]:
    """``{entry id key: "<file> row <n>: <reason>"}`` of the library's rejected rows
    (``pp_rejected_entries``: file, row, reason, raw JSON of the row's cells): every cell of
    a rejected row that reads as an entry id (``PP-951``: letters, a separator or none, digits)
    is keyed by ``library.cells.entry_id_key``, so an override naming it can say the row was
    rejected and why instead of "not held" (issue 15). {} for None or an empty frame."""
    out: dict[str, str] = {}
    if rejected is None or not rejected.height or "raw" not in rejected.columns:
        return out
    for row in rejected.iter_rows(named=True):
        try:
            cells = json.loads(row.get("raw") or "{}")
        except json.JSONDecodeError:
            continue
        where = f"{row.get('file')} row {row['row']}" if row.get("row") else str(row.get("file"))
        for value in cells.values() if isinstance(cells, dict) else []:
            text = str(value or "").strip()
            if _ID_LIKE.fullmatch(text):
                out.setdefault(entry_id_key(text), f"{where}: {row.get('reason')}")
    return out


_ID_LIKE = re.compile(r"[A-Za-z]{1,6}[- _]?\d{1,6}")


def load_overrides(
    path: Path | str,
    known_ids: set[str] | frozenset[str],
    rejected: Mapping[str, str] | None = None,
) -> list[ReferenceOverride]:
    """Read one override file (see the module docstring for the format).

    Accepts a mapping with an ``overrides`` list, a bare list, or a single override mapping.
    ``known_ids`` are the library's entry ids (``pp_entries.id``); ``rejected``:
    ``rejected_id_reasons`` of the library's rejected rows (an id there is named "rejected:
    <file> row <n>: <reason>", not "not held").

    Returns the overrides in file order (empty when the file is missing).

    Raises:
        OverrideError: the file is not valid YAML, gives a field twice in one override,
            has no ``overrides:`` list (a misspelt key), an override lacks one of
            replace/with/by/at/reason (naming any misspelt field), has a list, mapping or
            yes/no where text belongs, names an id that is not in the library, replaces
            an id twice, or replaces an id with itself. The message names the file.
    """
    path = Path(path)
    if not path.is_file():
        return []
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise OverrideError(
            f"{path}: not UTF-8 text ({exc}); re-save the file as UTF-8 and re-run"
        ) from exc
    try:
        loaded = lenient_yaml_load(text)
        twice = _duplicate_keys(text)
    except yaml.YAMLError as exc:
        raise OverrideError(f"{path}: not valid YAML ({exc}); fix the file and re-run") from exc
    if twice:
        where = ", ".join(f"'{k}' again on line {line}" for k, line in twice)
        raise OverrideError(
            f"{path}: a field is given twice in one override ({where}); keep one and re-run"
        )
    if loaded is None:
        return []
    if isinstance(loaded, dict) and "overrides" in loaded:
        loaded = loaded["overrides"] or []
    elif isinstance(loaded, dict) and not set(map(str, loaded)) & set(OVERRIDE_FIELDS):
        raise OverrideError(
            f"{path}: expected a list under 'overrides:', found "
            f"{', '.join(repr(str(k)) for k in loaded)}; fix the spelling and re-run"
        )
    items = [loaded] if isinstance(loaded, dict) else loaded
    if not isinstance(items, list):
        raise OverrideError(
            f"{path}: expected a list 'overrides:' of mappings with {', '.join(OVERRIDE_FIELDS)}"
        )
    out: list[ReferenceOverride] = []
    faults: list[str] = []  # every override's fault, not only the first (break-it)
    for number, item in enumerate(items, start=1):
        try:
            out.append(_one_override(item, number, path, known_ids, rejected))
        except OverrideError as error:
            faults.append(str(error).removeprefix(f"{path}: "))
    if len(faults) == 1:
        raise OverrideError(f"{path}: {faults[0]}")
    if faults:
        raise OverrideError(
            f"{path}: {len(faults)} overrides need fixing:\n"
            + "\n".join(f"  - {f}" for f in faults)
        )
    for field_name in ("replace_id", "with_id"):
        ids = [getattr(o, field_name) for o in out]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise OverrideError(f"{path}: {', '.join(twice)} appears in more than one override")
    return out


def _one_override(
    item: Any,
    number: int,
    path: Path,
    known_ids: set[str] | frozenset[str],
    rejected: Mapping[str, str] | None,
) -> ReferenceOverride:
    """Override ``number`` of the file at ``path`` read and checked (``load_overrides``).
    Raises ``OverrideError`` naming the file and the override."""
    if not isinstance(item, dict):
        raise OverrideError(f"{path}: override {number} is not a mapping of field: value")
    missing = [f for f in OVERRIDE_FIELDS if item.get(f) is None or str(item[f]).strip() == ""]
    if missing:
        strays = [str(k) for k in item if str(k) not in OVERRIDE_FIELDS]
        stray = f" (it has {', '.join(repr(k) for k in strays)}: a misspelling?)" * bool(strays)
        raise OverrideError(
            f"{path}: override {number} lacks {', '.join(missing)}{stray}; every override "
            f"needs {', '.join(OVERRIDE_FIELDS)}"
        )
    fields = {f: _text(item, f, path, number) for f in ("replace", "with", "by", "reason")}
    for f in ("by", "reason"):  # shown in the brief: no bidi overrides or control characters
        fields[f] = shown_text(fields[f])
    blank = [f for f in ("by", "reason") if not fields[f]]
    if blank:
        raise OverrideError(
            f"{path}: override {number}: {' and '.join(blank)} holds only invisible or control "
            "characters; write it out"
        )
    for f in ("replace", "with"):  # the library's spelling: pp-175 is PP-175
        fields[f] = library_id(fields[f], known_ids)
    unknown = [fields[f] for f in ("replace", "with") if fields[f] not in known_ids]
    refused = {i: (rejected or {}).get(entry_id_key(i)) for i in unknown}
    if any(refused.values()):
        raise OverrideError(
            f"{path}: override {number} names "
            + "; ".join(
                f"{i}, rejected: {why}" if why else f"{i}, which the library does not hold"
                for i, why in refused.items()
            )
            + "; fix the library row (or pick another entry) and re-run"
        )
    if unknown:
        raise OverrideError(
            f"{path}: override {number} names {', '.join(unknown)}, which the library does "
            f"not hold{_closest_ids(unknown, known_ids)}; `rfp-retrieval library` lists "
            "every id"
        )
    if fields["replace"] == fields["with"]:
        raise OverrideError(f"{path}: override {number} replaces {fields['replace']} by itself")
    return ReferenceOverride(
        replace_id=fields["replace"],
        with_id=fields["with"],
        by=fields["by"],
        at=_iso(item["at"], path, number),
        reason=fields["reason"],
        source=path,
    )


class _EntryOfLibrary(PreparedLibrary):
    """One library entry prepared alone whose lexical match is read from its whole library:
    the lexical component is BM25 over the library divided by its best entry
    (``components.LEXICAL_RULE``), so scored alone an entry would be its own best (1.0) and
    outscore the runner-up it is (new-user trial: a pick scored 0.508 as an override, 0.451
    as a runner-up)."""

    def __init__(self, single: pl.DataFrame, vectors: EntryVectors, library: PreparedLibrary):
        super().__init__(single, vectors)
        self._library = library
        self._at = bisect.bisect_left(library.ids, self.ids[0])  # ids are in sorted order
        if library.ids[self._at : self._at + 1] != [self.ids[0]]:
            raise ValueError(f"{self.ids[0]} is not an entry of the prepared library")

    def lexical_scores(self, text: str, tool_weight: float = 1.0) -> np.ndarray:
        """The entry's ``PreparedLibrary.lexical_scores`` in its whole library, float64 (1,)."""
        return self._library.lexical_scores(text, tool_weight)[[self._at]]


def score_entry(
    entries: pl.DataFrame,
    vectors: EntryVectors,
    scope: ScopeQuery,
    config: RankingConfig,
    pp_id: str,
    prepared: PreparedLibrary | None = None,
) -> RankedReference:
    """Score one library entry for ``scope`` exactly as the ranker scores a candidate.

    One rule for the writer's pick (the writer's choice wins, module docstring): the
    constraints relaxation never bends for a pick (``started_after``, ``started_by``,
    ``vehicle_type``, ``customer_type``) are lifted, and the entry is ranked alone with the
    RFP's other filters, so graded relaxation (``config.relaxation.order``) lets it through and the
    default mode charges its soft penalties as usual. ``relaxed`` lists every original
    constraint it misses: those relaxation bent, then the lifted ones it misses (an unknown
    fact is not a miss, ``filters.UNKNOWN_RULE``), so the brief says what it misses.
    Components that compare the entry with the rest of the library (the lexical match) read
    the whole library (``_EntryOfLibrary``): ``prepared``, the ``PreparedLibrary`` of
    ``entries`` and ``vectors`` the ranking used, or one built here. An entry that passes
    every filter gets the score it has among the runners-up.

    Raises:
        ValueError: the entry passes no relaxation of the remaining filters.
    """
    single = entries.filter(pl.col("id") == pp_id)
    filters = scope.filters
    row = single.row(0, named=True)
    lifted = []
    if filters.started_after and (
        row["start_date"] is None or row["start_date"] < filters.started_after
    ):
        lifted.append("started_after")
    if row["start_date"] is not None and row["start_date"] > scope.as_of:
        lifted.append("started_by")  # STARTED_BY_RULE's date, lifted for the writer's pick
    if filters.vehicle_types and row["vehicle_type"] not in filters.vehicle_types:
        lifted.append("vehicle_type")
    if filters.customer_types and row["customer_type"] not in (None, *filters.customer_types):
        lifted.append("customer_type")  # an unknown type passes (UNKNOWN_RULE): not lifted
    open_scope = replace(
        scope,
        filters=replace(
            filters,
            started_after=None,
            started_by=dt.date.max,  # lifted: never excludes (with_started_by keeps it)
            vehicle_types=(),
            customer_types=(),
        ),
    )
    library = prepared if prepared is not None else PreparedLibrary(entries, vectors)
    one = _EntryOfLibrary(single, vectors, library)
    try:
        refs = rank_references(
            single, vectors, open_scope, replace(config, top_k=1), prepared=one
        ).references
    finally:
        one.close()
        if prepared is None:
            library.close()
    if not refs:
        raise ValueError(
            f"{pp_id} passes no relaxation of this RFP's filters; add its constraints to "
            "RankingConfig.relaxation_order"
        )
    relaxed = [*refs[0].relaxed, *(c for c in lifted if c not in refs[0].relaxed)]
    return replace(refs[0], relaxed=relaxed)


def check_against_picks(
    overrides: Sequence[ReferenceOverride], chosen: Sequence[str], partition: str
) -> None:
    """Raise ``OverrideError`` (naming the file and the picks) when an override replaces an
    id the pipeline did not choose for ``partition`` or brings in one already chosen."""
    for override in overrides:
        if override.replace_id not in chosen:
            raise OverrideError(
                f"{override.source}: {override.replace_id} is not among the references chosen "
                f"for {partition} ({', '.join(chosen) or 'none'}); edit the file to replace one "
                "of them or delete it"
            )
        if override.with_id in chosen:
            raise OverrideError(
                f"{override.source}: {override.with_id} is already chosen for {partition}; "
                "pick another entry"
            )


def override_problem(
    path: Path | str,
    known_ids: set[str],
    chosen: Sequence[str],
    partition: str,
    rejected: Mapping[str, str] | None = None,
) -> str | None:
    """Why the override file ``path`` of ``partition`` is not applied (the ``OverrideError``
    of ``load_overrides`` or ``check_against_picks``), None when it applies or is absent.
    ``chosen``: the pipeline's picks for the partition (before overrides); ``rejected`` as in
    ``load_overrides``."""
    try:
        check_against_picks(load_overrides(path, known_ids, rejected), chosen, partition)
    except OverrideError as exc:
        return str(exc)
    return None


def ranker_picks(references: pl.DataFrame) -> list[str]:
    """The ids the ranker chose for one partition's stored ``pp_references`` rows, before any
    override: ranked rows not brought in by an override, and the picks an override replaced."""
    cols = references.columns
    brought = pl.col("override_by").is_not_null() if "override_by" in cols else pl.lit(False)
    replaced = pl.col("overridden_by").is_not_null() if "overridden_by" in cols else pl.lit(False)
    keep = ((pl.col("rank") > 0) & ~brought) | replaced
    return references.filter(keep.fill_null(False))["id"].to_list()


NOT_APPLIED = "the references are the ranker's picks without the file's overrides"
"""What an RFP gets when its override file cannot be applied (said beside the reason)."""


def apply_overrides(
    references: pl.DataFrame,
    overrides: list[ReferenceOverride],
    result: RankingResult,
    entries: pl.DataFrame,
    vectors: EntryVectors,
    scope: ScopeQuery,
    config: RankingConfig,
    prepared: PreparedLibrary | None = None,
) -> pl.DataFrame:
    """The ``pp_references`` rows of one partition with the writer's overrides applied.

    ``references`` is ``references_frame(partition, result)``. Returns the same columns plus
    ``OVERRIDE_SCHEMA``: each replaced pick keeps its components with ``rank`` null and
    ``overridden_by`` = the new id; the new pick takes the replaced rank, its components
    come from ``score_entry`` and its ``override_by/at/reason`` from the file. Rows are
    sorted by rank (replaced picks last). With no overrides only the columns are added.
    ``prepared``: the ``PreparedLibrary`` of ``entries`` and ``vectors`` the ranking used
    (passed on to ``score_entry``; built there when None).

    Raises:
        OverrideError: an override replaces an id the pipeline did not choose for this RFP,
            or brings in an id that is already chosen (names the file and the picks).
    """
    frame = references.with_columns(
        [pl.lit(None, dtype=dtype).alias(name) for name, dtype in OVERRIDE_SCHEMA.items()]
    )
    if not overrides:
        return frame
    chosen = frame.filter(pl.col("rank") > 0)["id"].to_list()
    partition = frame["rfp_partition"][0]
    check_against_picks(overrides, chosen, partition)
    rows = frame.to_dicts()
    for override in overrides:
        old = next(r for r in rows if r["id"] == override.replace_id and r["rank"])
        ref = score_entry(entries, vectors, scope, config, override.with_id, prepared)
        ref = replace(ref, rank=old["rank"])
        single = RankingResult(
            [ref],
            result.candidate_count,
            result.filter_trace,
            [],
            result.mode,
            ranking_config=result.ranking_config,
        )
        new = references_frame(partition, single).row(0, named=True)
        for shared in ("relaxation_steps", "reason"):
            new[shared] = old[shared]
        new.update(
            overridden_by=None,
            override_by=override.by,
            override_at=override.at,
            override_reason=override.reason,
        )
        old.update(rank=None, overridden_by=override.with_id)
        rows.append(new)
    schema = {**REFERENCES_SCHEMA, **OVERRIDE_SCHEMA}
    return pl.DataFrame(rows, schema=schema).sort("rank", nulls_last=True)


OVERRIDES_GOLDEN_JSONL = Path("golden") / "overrides.jsonl"
"""Where ``override_golden_lines`` are written, relative to the project's ``output_dir``."""


def override_golden_due(overrides_dir: Path | str, output_dir: Path | str) -> bool:
    """True when the writers' golden lines need writing again after a run: the project has an
    override file (``<overrides_dir>/*.yaml``) or an earlier export
    (``<output_dir>/OVERRIDES_GOLDEN_JSONL``) that a removed override must leave. False for a
    project without overrides, so a run pays nothing for the export."""
    folder = Path(overrides_dir)
    return (Path(output_dir) / OVERRIDES_GOLDEN_JSONL).is_file() or (
        folder.is_dir() and any(folder.glob("*.yaml"))
    )


def override_golden_lines(
    references: pl.DataFrame,
    scope_dates: dict[str, dt.date],
    rfp_files: dict[str, Path | str],
    jsonl_path: Path | str,
) -> list[str]:
    """Golden-set JSONL lines (DESIGN.md format) for every RFP a writer overrode.

    ``references`` holds ``pp_references`` rows of any number of partitions (with the
    ``OVERRIDE_SCHEMA`` columns); ``scope_dates`` maps a partition to its ScopeQuery
    ``as_of``; ``rfp_files`` to the RFP file; ``jsonl_path`` is where the lines will be
    written (``rfp_file`` is relative to its folder). One line per partition with at least
    one override, sorted by partition: ``scope_id`` (the partition key), ``rfp_file``,
    ``as_of`` (YYYY-MM-DD), ``ideal`` (the final picks in rank order) and ``why`` (the
    writer's reason per brought-in id, with who and when).

    Raises:
        KeyError: a partition with overrides has no ``as_of`` or RFP file.
    """
    if references.is_empty() or "override_by" not in references.columns:
        return []
    folder = Path(jsonl_path).parent
    overridden = (
        references.filter(pl.col("override_by").is_not_null())["rfp_partition"].unique().sort()
    )
    lines = []
    for partition in overridden.to_list():
        rows = references.filter((pl.col("rfp_partition") == partition) & (pl.col("rank") > 0))
        picks = rows.sort("rank")
        why = {
            r["id"]: f"{r['override_reason']} (override by {r['override_by']}, {r['override_at']})"
            for r in picks.iter_rows(named=True)
            if r["override_by"] is not None
        }
        line = {
            "scope_id": partition,
            "rfp_file": Path(os.path.relpath(rfp_files[partition], folder)).as_posix(),
            "as_of": scope_dates[partition].isoformat(),
            "ideal": picks["id"].to_list(),
            "why": why,
        }
        lines.append(json.dumps(line))
    return lines


def vague_outcome_review(references: pl.DataFrame, entries: pl.DataFrame) -> pl.DataFrame:
    """Chosen references whose outcomes have no measurable result, for a writer to fix.

    ``references``: one partition's ``pp_references`` rows (only ``rank > 0`` rows, the picks
    actually cited, count); ``entries``: ``pp_entries`` (``outcome_vague`` from
    ``rfp_retrieval.library.outcomes``). Returns ``REVIEW_SCHEMA`` rows in rank order with the
    outcome metrics (joined by "; "), the outcome narrative and where the entry lives
    (``source`` file and ``source_row``) so the library row can be edited.
    """
    picks = references.filter(pl.col("rank") > 0).select(["rfp_partition", "rank", "id"])
    vague = entries.filter(pl.col("outcome_vague")).select(
        [
            "id",
            "title",
            pl.col("outcome_metrics").list.join("; "),
            "outcome_narrative",
            "source",
            "source_row",
            "updated_by",
        ]
    )
    joined = picks.join(vague, on="id", how="inner").sort("rank")
    return joined.select(list(REVIEW_SCHEMA)).cast(REVIEW_SCHEMA)


def override_marks(references: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """What the brief and ``run --json`` say about each pick a writer brought in.

    ``references``: one partition's ``pp_references`` rows (dicts, with the
    ``OVERRIDE_SCHEMA`` columns; rows without them give ``{}``). Returns
    ``{new id: {"by", "at", "reason", "replaced": {"id", "title", "score"}}}`` for each
    chosen row (``rank > 0``) with ``override_by`` set; ``replaced`` is the pick it
    displaced (its score a float as ranked, None when the row is missing).
    """
    displaced = {
        str(r["overridden_by"]): r for r in references if r.get("overridden_by") is not None
    }
    marks: dict[str, dict[str, Any]] = {}
    for row in references:
        if (row.get("rank") or 0) <= 0 or row.get("override_by") is None:
            continue
        old = displaced.get(str(row["id"]), {})
        score = old.get("score")
        marks[str(row["id"])] = {
            "by": row["override_by"],
            "at": row.get("override_at"),
            "reason": row.get("override_reason"),
            "replaced": {
                "id": old.get("id"),
                "title": old.get("title"),
                "score": None if score is None else float(score),
            },
        }
    return marks


def override_line(mark: Mapping[str, Any]) -> str:
    """One ``override_marks`` value in words, e.g. "Chosen by Dana Writer on 2026-06-10 in
    place of PP-112 (score 0.412): The CO asked for the SNAP work." (the rank is the
    writer's, so the score may be lower than the next pick's)."""
    old = mark.get("replaced") or {}
    score = old.get("score")
    displaced = f"{old.get('id') or 'a pick no longer stored'}"
    if score is not None:
        displaced += f" (score {score:.3f})"
    at = _when_in_words(str(mark.get("at") or "an unstated date"))
    return f"Chosen by {mark.get('by')} on {at} in place of {displaced}: {mark.get('reason')}"


def _when_in_words(at: str) -> str:
    """An ISO 8601 ``at`` as the brief says it: ``2026-06-10``, ``2026-06-10 14:30`` (seconds
    only when not zero) and the offset when one was given (``2026-06-10 14:30 UTC``,
    ``2026-06-10 09:30 UTC-05:00``); any other text as written."""
    if "T" not in at:
        return at
    try:
        when = dt.datetime.fromisoformat(at)
    except ValueError:
        return at.replace("T", " ")
    words = when.strftime("%Y-%m-%d %H:%M:%S" if when.second else "%Y-%m-%d %H:%M")
    offset = when.utcoffset()
    if offset is not None:
        zone = when.isoformat()[-6:]  # +HH:MM
        words += " UTC" if not offset else f" UTC{zone}"
    return words


def _yaml_at(at: str) -> dt.date | dt.datetime | str:
    """``at`` as the date or date-time YAML writes unquoted (so it reads back the same)."""
    for parse in (dt.date.fromisoformat, dt.datetime.fromisoformat):
        try:
            return parse(at)
        except ValueError:
            continue
    return at


def set_override(
    path: Path | str,
    picks: Sequence[str],
    replace_id: str,
    with_id: str,
    by: str,
    reason: str,
    known_ids: set[str] | frozenset[str],
    at: str | None = None,
    rejected: Mapping[str, str] | None = None,
) -> list[ReferenceOverride]:
    """Record in the override file ``path`` that the writer cites ``with_id`` instead of the
    current pick ``replace_id``, and return the file's overrides as now written.

    ``picks``: the RFP's current picks (after the file's overrides), ``known_ids`` the
    library's entry ids, ``at`` ISO 8601 (default: now, to the minute), ``rejected`` the
    ``rejected_id_reasons`` of the library's rejected rows (a ``with_id`` there is refused as
    "rejected: <file> row <n>: <reason>", not as unknown). When ``replace_id``
    was itself brought in by an override, that override is updated (its ``with`` becomes
    ``with_id``, or it is removed when ``with_id`` is the pick it once displaced), so the file
    always replaces the pipeline's own picks. The file is rewritten as plain YAML (comments in
    it are not kept) and only after every check passed.

    Raises:
        OverrideError: empty ``by`` or ``reason``, ``replace_id`` not a current pick,
            ``with_id`` not in the library or already a pick, the existing file is
            unreadable, or the file cannot be written (the message says what to fix; the file
            is left unchanged).
    """
    path = Path(path)
    by, reason, with_id = shown_text(by), shown_text(reason), with_id.strip()
    if not reason:
        raise OverrideError("give a reason: it goes into the brief and the golden set")
    if not by:
        raise OverrideError("give your name: the brief says who chose each override")
    if replace_id not in picks:
        raise OverrideError(
            f"{replace_id} is not one of the current picks ({', '.join(picks) or 'none'}); "
            "reload the page"
        )
    why_rejected = (rejected or {}).get(entry_id_key(with_id)) if with_id else None
    if with_id not in known_ids and why_rejected:
        raise OverrideError(
            f"{with_id} is rejected by the library: {why_rejected}; fix the library row or "
            "pick another entry"
        )
    if with_id not in known_ids:
        raise OverrideError(
            f"{with_id or '(empty)'} is not an entry id of the library"
            f"{_closest_ids([with_id], known_ids) if with_id else ''}; pick a runner-up or type "
            "an id that `rfp-retrieval library` lists"
        )
    if with_id in picks:
        raise OverrideError(f"{with_id} is already one of the picks; choose another entry")
    existing = load_overrides(path, known_ids, rejected)
    for o in existing:
        if o.replace_id == with_id and o.with_id != replace_id:
            raise OverrideError(
                f"{with_id} is a pick the writers replaced by {o.with_id}; to cite it again, "
                f"replace {o.with_id} with {with_id}"
            )
    when = at or dt.datetime.now().replace(second=0, microsecond=0).isoformat()
    new = ReferenceOverride(replace_id, with_id, by, when, reason, path)
    kept: list[ReferenceOverride] = []
    placed = False
    for o in existing:
        if o.with_id == replace_id:  # the pick being replaced came from this override
            placed = True
            if o.replace_id != with_id:
                kept.append(replace(new, replace_id=o.replace_id))
            continue
        kept.append(o)
    if not placed:
        kept.append(new)
    document = {
        "overrides": [
            {
                "replace": o.replace_id,
                "with": o.with_id,
                "by": o.by,
                "at": _yaml_at(o.at),
                "reason": o.reason,
            }
            for o in kept
        ]
    }
    partial = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(
            yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
        partial.replace(path)
    except OSError as exc:  # a read-only overrides folder, a full disk (break-it: a 500)
        raise OverrideError(
            f"cannot write the override file {path} ({exc.strerror or type(exc).__name__}); "
            "set overrides_dir to a folder you can write (the file is unchanged)"
        ) from exc
    finally:
        partial.unlink(missing_ok=True)
    return kept
