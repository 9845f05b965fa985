"""Top-3 recall of the past-performance ranker against a golden set (DESIGN: eval formats).

Golden set: JSONL, one scope a line: ``scope_id``, ``rfp_file`` (relative to the JSONL),
``as_of`` (recency is judged against it), ``ideal`` (three ids), optional ``ideal_alt``
(a second labeller) and ``near_miss``. Metric: top-3 recall = mean over scopes of
|top3 ∩ ideal| / |ideal|; MRR = mean of 1 / rank of the first ideal id in the top 3 (0 if none).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError
from rfp_retrieval.eval.jsonl import read_objects
from rfp_retrieval.retrieval.config import MODES, RankingConfig
from rfp_retrieval.retrieval.embedding import Embedder
from rfp_retrieval.retrieval.facets import facet_embeddings_frame
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.records import EntryVectors
from rfp_retrieval.retrieval.scope_query import build_scope_query
from rfp_retrieval.scope import AsOf

GOLDEN_AS_OF_SOURCE = "golden as_of"
"""The ``as_of_source`` of a golden scope: recency counts from the golden file's ``as_of``."""


class GoldenSetError(ValueError):
    """A golden-set line is malformed (names the file and line)."""


@dataclass(frozen=True)
class GoldenScope:
    """One labelled scope of a golden set."""

    scope_id: str
    rfp_file: Path
    as_of: dt.date
    ideal: list[str]
    ideal_alt: list[str] = field(default_factory=list)
    near_miss: list[str] = field(default_factory=list)


def load_golden(path: Path) -> list[GoldenScope]:
    """Read a golden-set JSONL file (``eval.jsonl.read_objects``); ``rfp_file`` resolves
    against the file's folder.

    Raises:
        GoldenSetError: the file is not UTF-8 or empty; a line is not a JSON object, lacks
            scope_id, rfp_file, as_of or ideal, gives scope_id as anything but text or an
            integer (``null`` would become the id "None"), gives ``ideal`` as anything but a
            non-empty list of ids (an empty list would score an unknown as a miss), repeats a
            scope id, or names an RFP file that does not exist. The message names the file and line.
    """
    path = Path(path)
    scopes = []
    seen: dict[str, int] = {}
    for number, item in read_objects(path, GoldenSetError, "golden-set"):
        where = f"{path}:{number}"
        missing = [k for k in ("scope_id", "rfp_file", "as_of", "ideal") if k not in item]
        if missing:
            raise GoldenSetError(f"{where}: bad golden-set line (missing {', '.join(missing)})")
        ids = {}
        for key in ("ideal", "ideal_alt", "near_miss"):
            value = item.get(key)
            if key != "ideal" and value is None:
                ids[key] = []
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise GoldenSetError(
                    f"{where}: bad golden-set line ({key} must be a list of entry ids, got "
                    f"{value!r})"
                )
            ids[key] = value
        if not ids["ideal"]:
            raise GoldenSetError(
                f"{where}: bad golden-set line (ideal is empty: a scope needs at least one "
                "ideal pick to be measured)"
            )
        raw_id = item["scope_id"]
        if isinstance(raw_id, bool) or not isinstance(raw_id, str | int) or not str(raw_id).strip():
            raise GoldenSetError(
                f"{where}: bad golden-set line (scope_id must be text, got {raw_id!r})"
            )
        scope_id = str(raw_id)
        if scope_id in seen:
            raise GoldenSetError(
                f"{where}: scope {scope_id!r} is listed twice (line {seen[scope_id]})"
            )
        seen[scope_id] = number
        try:
            as_of = dt.date.fromisoformat(str(item["as_of"]))
        except ValueError as exc:
            raise GoldenSetError(f"{where}: bad golden-set line (as_of: {exc})") from None
        rfp_file = (path.parent / str(item["rfp_file"])).resolve()
        if not rfp_file.is_file():
            raise GoldenSetError(f"{where}: rfp_file {item['rfp_file']!r} not found at {rfp_file}")
        scopes.append(
            GoldenScope(
                scope_id=scope_id,
                rfp_file=rfp_file,
                as_of=as_of,
                ideal=ids["ideal"],
                ideal_alt=ids["ideal_alt"],
                near_miss=ids["near_miss"],
            )
        )
    return scopes


def recall_at_k(top: list[str], ideal: list[str]) -> float:
    """|top ∩ ideal| / |ideal| (0 when ideal is empty)."""
    return len(set(top) & set(ideal)) / len(ideal) if ideal else 0.0


def reciprocal_rank(top: list[str], ideal: list[str]) -> float:
    """1 / rank of the first ideal id in ``top`` (0 if none)."""
    for i, pp_id in enumerate(top, start=1):
        if pp_id in ideal:
            return 1.0 / i
    return 0.0


@dataclass
class PreparedScope:
    """A golden scope read and embedded once, reusable across modes and weight settings."""

    golden: GoldenScope
    query: Any  # ScopeQuery
    reading: Any
    texts: dict[str, str] = field(default_factory=dict)  # facet texts (QUERY_FACETS keys)


def prepare_scopes(scopes: list[GoldenScope], embedder: Embedder) -> list[PreparedScope]:
    """Parse each scope's RFP (the product reads every constraint itself) and embed it.

    Raises:
        GoldenSetError: an RFP file cannot be read (corrupt, another format): the message
            names every such scope, its file and the reader's reason, so a measuring run
            never stops on a traceback or scores a set with scopes silently left out.
    """
    unreadable = []
    docs = []
    for scope in scopes:
        try:
            docs.append(load_document(scope.rfp_file))
        except DocumentError as exc:
            unreadable.append(f"scope {scope.scope_id} ({scope.rfp_file}): {exc}")
    if unreadable:
        raise GoldenSetError(
            f"{len(unreadable)} golden-set RFP file(s) cannot be read; fix them or their "
            "lines: " + "; ".join(unreadable)
        )
    prepared = []
    for scope, doc in zip(scopes, docs, strict=True):
        as_of = AsOf(scope.as_of, GOLDEN_AS_OF_SOURCE)
        built = build_scope_query(doc, embedder, as_of, scope.scope_id)
        prepared.append(PreparedScope(scope, built.query, built.reading, built.texts))
    return prepared


def evaluate_modes(
    entries: pl.DataFrame,
    vectors: EntryVectors,
    prepared: list[PreparedScope],
    configs: dict[str, RankingConfig],
) -> dict[str, dict[str, Any]]:
    """Recall@3 (vs ideal and ideal_alt), MRR and per-scope hits for each named config."""
    out: dict[str, dict[str, Any]] = {}
    for name, config in configs.items():
        per_scope = []
        for p in prepared:
            result = rank_references(entries, vectors, p.query, config)
            top = [r.id for r in result.references]
            per_scope.append(
                {
                    "scope_id": p.golden.scope_id,
                    "top3": top,
                    "ideal": p.golden.ideal,
                    "hits": len(set(top) & set(p.golden.ideal)),
                    "recall": recall_at_k(top, p.golden.ideal),
                    "recall_alt": recall_at_k(top, p.golden.ideal_alt)
                    if p.golden.ideal_alt
                    else None,
                    "relaxed": result.relaxed,
                    "candidates": result.candidate_count,
                }
            )
        n = max(len(per_scope), 1)
        alts = [s["recall_alt"] for s in per_scope if s["recall_alt"] is not None]
        out[name] = {
            "recall_at_3": round(sum(s["recall"] for s in per_scope) / n, 4),
            "recall_at_3_alt": round(sum(alts) / len(alts), 4) if alts else None,
            "mrr": round(sum(reciprocal_rank(s["top3"], s["ideal"]) for s in per_scope) / n, 4),
            "per_scope": per_scope,
        }
    return out


def mode_configs(mode: str, base: RankingConfig | None = None) -> dict[str, RankingConfig]:
    """Configs to evaluate for ``--mode`` (a mode name or ``all``)."""
    base = base or RankingConfig()
    names = list(MODES) if mode == "all" else [mode]
    for name in names:
        if name not in MODES:
            raise ValueError(f"unknown mode {name!r}; choose one of {MODES} or 'all'")
    return {name: base.with_mode(name) for name in names}


def embed_library(
    entries: pl.DataFrame, embedder: Embedder, cache: Path | None = None
) -> EntryVectors:
    """Facet vectors of every entry: ``(ids, {facet: (n, dim) unit float32})``.

    ``cache``: a Parquet file of facet vectors from an earlier evaluation (the
    ``pp_facet_embeddings`` shape). A vector is reused when its entry id, facet, text hash and
    model id are unchanged, so an unchanged library under an unchanged model is not embedded
    again (issue 15: every ``eval past-performance`` call re-embedded the library, minutes);
    a new or edited entry, or another model, is embedded. The file is rewritten with the
    vectors of this call. An unreadable cache file is ignored and rewritten (it is a cache,
    not input). Without ``cache``, everything is embedded. Counts: ``embed_library_counts``.
    """
    vectors, _ = embed_library_counts(entries, embedder, cache)
    return vectors


def embed_library_counts(
    entries: pl.DataFrame, embedder: Embedder, cache: Path | None = None
) -> tuple[EntryVectors, dict[str, int]]:
    """``embed_library`` and its counts ``{"embedded": n, "reused": m}`` (facet vectors)."""
    previous = None
    if cache is not None and cache.is_file():
        try:
            previous = pl.read_parquet(cache)
        except Exception:  # noqa: BLE001 - a damaged cache is rebuilt, never trusted
            previous = None
        if previous is not None and not {"id", "facet", "model", "text_sha", "vector"} <= set(
            previous.columns
        ):
            previous = None
    frame, counts = facet_embeddings_frame(entries, embedder, previous)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.name + ".tmp")
        frame.write_parquet(tmp)
        tmp.replace(cache)
    return EntryVectors.from_frame(frame), counts


EVAL_CACHE_FILE = "eval_pp_facet_embeddings.parquet"
"""The file, beside the DuckDB store (``Settings.db_path``), that ``eval past-performance``
keeps its facet vectors in between calls."""
