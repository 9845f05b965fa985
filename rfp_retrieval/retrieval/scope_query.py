"""ScopeQuery rows: the RFP's reading (filters, issuer) plus its facet texts and vectors.

``build_scope_query(document, embedder, as_of)`` is the one recipe (read the scope, make the
facet texts, embed them and the scope units, one ``scope_query`` row, its ``ScopeQuery``),
shared by the ``scope_query`` asset, the past-performance evaluation and ``parse``; the row's
columns are ``SCOPE_QUERY_SCHEMA``, written by ``scope_query_frame`` and read back by
``scope_query_from_row``. ``as_of`` comes from ``scope.as_of_for(document)`` (or a golden
set's ``as_of``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import polars as pl

from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.retrieval.records import ScopeFilters, ScopeQuery
from rfp_retrieval.scope import AsOf, ScopeReading, read_scope, scope_units

QUERY_FACETS = ("narrative", "technical", "outcome", "whole")

SCOPE_QUERY_SCHEMA = {
    "rfp_partition": pl.String,
    "title": pl.String,
    "issuer": pl.String,
    "issuer_acronym": pl.String,
    "parent_agency": pl.String,
    "issuer_type": pl.String,
    "rfp_date": pl.Date,
    "as_of": pl.Date,
    "as_of_source": pl.String,
    "references_required": pl.Int64,
    "references_max": pl.Int64,
    "recency_text": pl.String,
    "recency_years": pl.Float64,
    "ended_after": pl.Date,
    "started_after": pl.Date,
    "value_text": pl.String,
    "value_min": pl.Int64,
    "value_max": pl.Int64,
    "value_approx": pl.Int64,
    "customer_types": pl.List(pl.String),
    "industries": pl.List(pl.String),
    "industries_preferred": pl.List(pl.String),
    "industries_alternative": pl.List(pl.String),
    "require_prime": pl.Boolean,
    "emphasized_domains": pl.List(pl.String),
    "domain_weights": pl.List(pl.Struct({"domain": pl.String, "weight": pl.Float64})),
    "text_narrative": pl.String,
    "text_technical": pl.String,
    "text_outcome": pl.String,
    "text_whole": pl.String,
    "model": pl.String,
    "vec_narrative": pl.List(pl.Float32),
    "vec_technical": pl.List(pl.Float32),
    "vec_outcome": pl.List(pl.Float32),
    "vec_whole": pl.List(pl.Float32),
    "section_headings": pl.List(pl.String),
    "section_texts": pl.List(pl.String),
    "vec_sections": pl.List(pl.List(pl.Float32)),
    "trace": pl.String,
}

READING_COLUMNS = (
    "issuer",
    "issuer_acronym",
    "parent_agency",
    "issuer_type",
    "references_required",
    "references_max",
    "recency_text",
    "value_text",
    "value_min",
    "value_max",
    "value_approx",
)
"""``scope_query`` columns copied as is from the ``ScopeReading`` field of the same name."""
FILTER_FIELDS = (
    "issuer",
    "issuer_type",
    "customer_types",
    "value_min",
    "value_max",
    "ended_after",
    "started_after",
    "require_prime",
    "as_of",
)
"""The ``scope_query`` columns shown as the ScopeQuery's filters (asset metadata ``filters``)."""
RUN_SUMMARY_FIELDS = (*FILTER_FIELDS, "industries", "references_required")
"""The columns of an RFP's ScopeQuery in ``rfp-retrieval run --json`` (``cli.shapes
.RunScopeQuery``): ``FILTER_FIELDS`` with the industries required and the number of
references asked for (new-user trial: prime-only, industries and the count were missing)."""

MAX_SECTIONS = 24


def scope_sections(doc: Any) -> list[tuple[str, str]]:
    """(heading, text) of each part of the work an RfpDocument asks for, embedded one by one.

    The units of ``scope.scope_units`` (titled sections of the statement of work, short
    numbered paragraphs merged into their section, offeror instructions removed), at most 24
    (the longest, kept in document order). Each is embedded on its own so an RFP with many
    technical areas is matched area by area instead of as one averaged text (seed 1:
    ambiguous scopes); the ranking takes each entry's best unit (``section_max``).
    """
    picked = scope_units(doc)
    if len(picked) > MAX_SECTIONS:
        longest = sorted(range(len(picked)), key=lambda i: (-len(picked[i][1]), i))
        keep = set(longest[:MAX_SECTIONS])
        picked = [item for i, item in enumerate(picked) if i in keep]
    return picked


def _date(value: Any) -> dt.date | None:
    if value is None or value == "":
        return None
    if isinstance(value, dt.date):
        return value
    return dt.date.fromisoformat(str(value)[:10])


def scope_texts(reading: Any, title: str, summary: str) -> dict[str, str]:
    """The ranking texts of a scope: narrative, technical domain, outcome, and whole.

    ``whole`` is the narrative (title, background, then the units of the work, capped at
    ``scope.NARRATIVE_WORDS``) followed by the outcome sentences: the technical text is the
    same units again, so it is not repeated (a repeated text would outweigh the title and
    background in the chunk average of a long scope). Falls back to the document summary when
    the reading found no text for a facet, so a facet vector is never the embedding of an
    empty string.
    """
    narrative = getattr(reading, "narrative_text", "") or summary or title
    technical = getattr(reading, "technical_text", "") or narrative
    outcome = getattr(reading, "outcome_text", "")
    head = "" if narrative.startswith(title) else title
    whole = "\n".join(t for t in (head, narrative, outcome) if t)
    outcome = outcome or narrative
    return {"narrative": narrative, "technical": technical, "outcome": outcome, "whole": whole}


def scope_query_frame(
    partition: str,
    title: str,
    reading: Any,
    texts: dict[str, str],
    vectors: np.ndarray,
    model_id: str,
    as_of: dt.date,
    as_of_source: str,
    section_headings: list[str] | None = None,
    section_vectors: np.ndarray | None = None,
    section_texts: list[str] | None = None,
) -> pl.DataFrame:
    """One-row ``scope_query`` frame. ``vectors`` is (4, dim) in ``QUERY_FACETS`` order;
    ``section_vectors`` is (m, dim), one per scope-of-work section, embedded from
    ``section_texts`` (kept so the row can be re-embedded: ``reembed_scope_row``)."""
    g = lambda name, default=None: getattr(reading, name, default)  # noqa: E731
    row = {column: g(column) for column in READING_COLUMNS}
    row |= {
        "rfp_partition": partition,
        "title": title,
        "rfp_date": _date(g("rfp_date")),
        "as_of": as_of,
        "as_of_source": as_of_source,
        "recency_years": float(g("recency_years")) if g("recency_years") is not None else None,
        "ended_after": _date(g("ended_after")),
        "started_after": _date(g("started_after")),
        "customer_types": list(g("customer_types_required", []) or []),
        "industries": list(g("industries_required", []) or []),
        "industries_preferred": list(g("industries_preferred", []) or []),
        "industries_alternative": list(g("industries_alternative", []) or []),
        "require_prime": bool(g("require_prime", False)),
        "emphasized_domains": list(g("emphasized_domains", []) or []),
        "domain_weights": [
            {"domain": d, "weight": float(w)} for d, w in (g("domain_weights", {}) or {}).items()
        ],
        "model": model_id,
        "trace": json.dumps(g("trace", []) or [], default=str),
        "section_headings": list(section_headings or []),
        "section_texts": list(section_texts) if section_texts is not None else None,
    }
    row |= {f"text_{facet}": texts[facet] for facet in QUERY_FACETS}
    row |= _vector_columns(vectors, section_vectors)
    return pl.DataFrame([row], schema=SCOPE_QUERY_SCHEMA)


def _vector_columns(vectors: np.ndarray, section_vectors: np.ndarray | None) -> dict[str, Any]:
    """The ``vec_*`` columns of a ``scope_query`` row: ``vectors`` (4, dim) in
    ``QUERY_FACETS`` order and ``section_vectors`` (m, dim) or None, as lists of floats."""
    columns: dict[str, Any] = {
        f"vec_{facet}": [float(x) for x in vectors[i]] for i, facet in enumerate(QUERY_FACETS)
    }
    columns["vec_sections"] = [
        [float(x) for x in v] for v in (section_vectors if section_vectors is not None else [])
    ]
    return columns


def lexical_text(row: dict[str, Any]) -> str:
    """The scope's text for the lexical (BM25) component: the stored ``whole`` text (title,
    background, outcomes) and the ``technical`` text (the units of the work), "" when the row
    has neither (``ScopeQuery.text``)."""
    parts = [row.get("text_whole") or "", row.get("text_technical") or ""]
    return "\n".join(p for p in parts if p)


def trace_reading(trace: Any, name: str) -> Mapping[str, Any] | None:
    """The ``reading`` of the ``name`` item (``"filter": name``) of a ``scope_query`` row's
    ``trace`` (JSON text or a list), or None when it has none or the trace cannot be read."""
    if isinstance(trace, str):
        try:
            trace = json.loads(trace or "[]")
        except json.JSONDecodeError:
            return None
    for item in trace or []:
        if isinstance(item, Mapping) and item.get("filter") == name:
            reading = item.get("reading")
            return reading if isinstance(reading, Mapping) else None
    return None


def ongoing_started_by(trace: Any) -> dt.date | None:
    """The date by which work still in progress must have started
    (``ScopeFilters.ongoing_started_by``, ``filters.ONGOING_PERFORMED_RULE``), from the
    ``ongoing_min_months`` item of a ``scope_query`` row's ``trace`` (JSON text or a list; the
    reading records it there with its sentence, ``scope.reading``); None when the RFP states
    no minimum or the trace cannot be read."""
    reading = trace_reading(trace, "ongoing_min_months")
    if reading is None:
        return None
    try:
        return _date(reading.get("started_by"))
    except ValueError:
        return None


def scope_query_from_row(row: dict[str, Any]) -> ScopeQuery:
    """Rebuild the ScopeQuery (filters, issuer, as-of date, vectors) from a stored row."""
    filters = ScopeFilters(
        customer_types=tuple(row.get("customer_types") or ()),
        industries=tuple(row.get("industries") or ()),
        industries_preferred=tuple(row.get("industries_preferred") or ()),
        industries_alternative=tuple(row.get("industries_alternative") or ()),
        value_min=row.get("value_min"),
        value_max=row.get("value_max"),
        started_after=_date(row.get("started_after")),
        ended_after=_date(row.get("ended_after")),
        require_prime=bool(row.get("require_prime")),
        ongoing_started_by=ongoing_started_by(row.get("trace")),
    )
    vectors = {f: np.asarray(row[f"vec_{f}"], dtype=np.float32) for f in QUERY_FACETS}
    sections = row.get("vec_sections") or []
    return ScopeQuery(
        filters=filters,
        as_of=_date(row["as_of"]),
        vectors=vectors,
        issuer=row.get("issuer"),
        issuer_acronym=row.get("issuer_acronym"),
        issuer_type=row.get("issuer_type"),
        section_vectors=np.asarray(sections, dtype=np.float32) if len(sections) else None,
        emphasized_domains=tuple(row.get("emphasized_domains") or ()),
        domain_weights={
            item["domain"]: float(item["weight"])
            for item in (row.get("domain_weights") or [])
            if item and item.get("domain") is not None and item.get("weight") is not None
        },
        model=row.get("model"),
        rfp_partition=row.get("rfp_partition") or "",
        text=lexical_text(row),
    )


def reembed_scope_row(row: dict[str, Any], embedder: QueryEmbedder) -> dict[str, Any] | None:
    """The ``scope_query`` row ``row`` with its vectors made again by ``embedder``.

    The reading (filters, texts, weights) is kept as it is; the four facet vectors and the
    scope-unit vectors are encoded again from the stored texts and ``model`` becomes
    ``embedder.model_id``. Used when the library was re-embedded with another model while
    this RFP's run was in flight, so that a ranking still compares one model's vectors
    (issue 17: never two models). Returns None when the row does not keep its section texts
    (rows written before ``section_texts`` existed): it cannot be re-embedded faithfully.
    Raises what ``embedder.encode`` raises.
    """
    sections = row.get("section_texts")
    if sections is None and row.get("section_headings"):
        return None
    vectors = np.asarray(embedder.encode([row[f"text_{f}"] or "" for f in QUERY_FACETS]))
    section_vectors = np.asarray(embedder.encode(list(sections))) if sections else None
    return {**row, "model": embedder.model_id, **_vector_columns(vectors, section_vectors)}


def domain_weights_metadata(reading: Any, digits: int = 3) -> dict[str, float]:
    """The RFP's domain weights as a plain ``{domain tag: weight}`` dict for Dagster metadata.

    ``reading`` is a ``ScopeReading`` (or anything with ``domain_weights``: a dict, or the
    ``scope_query`` row's list of ``{"domain", "weight"}`` records). Weights are shares of the
    RFP's domain emphasis in [0, 1] (title, scope-section length, Section M mentions; see
    ``scope.emphasis.EmphasisWeights``), rounded to ``digits`` places, largest first (ties by
    tag). Returns {} when the RFP names no library domain.
    """
    raw = reading.get("domain_weights") if isinstance(reading, dict) else None
    if raw is None and not isinstance(reading, dict):
        raw = getattr(reading, "domain_weights", None)
    if isinstance(raw, list):
        raw = {item["domain"]: item["weight"] for item in raw if item}
    weights = {str(d): round(float(w), digits) for d, w in (raw or {}).items() if w is not None}
    return dict(sorted(weights.items(), key=lambda kv: (-kv[1], kv[0])))


def filters_metadata(row: dict[str, Any]) -> dict[str, str | None]:
    """``{column: str(value) or None}`` of the ``FILTER_FIELDS`` of a ``scope_query`` row."""
    return {k: (str(row[k]) if row[k] is not None else None) for k in FILTER_FIELDS}


class QueryEmbedder(Protocol):
    """What ``build_scope_query`` needs of an embedder (``retrieval.embedding.Embedder``)."""

    model_id: str

    def encode(self, texts: list[str]) -> Any: ...


@dataclass(frozen=True)
class BuiltScopeQuery:
    """One RFP's ScopeQuery with what it was made of.

    ``reading`` is the ``ScopeReading``; ``texts`` the facet texts (``QUERY_FACETS`` keys);
    ``sections`` the embedded scope units ``[(heading, text)]``; ``frame`` the one-row
    ``scope_query`` frame (``SCOPE_QUERY_SCHEMA``); ``query`` the ``ScopeQuery`` read back from
    that row (``scope_query_from_row``), so the stored row and the ranked query never differ.
    """

    reading: ScopeReading
    texts: dict[str, str]
    sections: list[tuple[str, str]]
    frame: pl.DataFrame
    query: ScopeQuery

    @property
    def row(self) -> dict[str, Any]:
        """The ``scope_query`` row as a dict."""
        return self.frame.row(0, named=True)


def build_scope_query(
    document: RfpDocument, embedder: QueryEmbedder, as_of: AsOf, partition: str = ""
) -> BuiltScopeQuery:
    """The ScopeQuery of ``document``: read, embedded and stored as one ``scope_query`` row.

    ``as_of`` is the date recency counts back from when the RFP states no issue date, with its
    source (``scope.as_of_for(document)``, or a golden set's ``as_of``); ``partition`` is the
    row's ``rfp_partition`` (a partition key or a golden ``scope_id``). Embeds the four facet
    texts (vectors (4, dim), ``QUERY_FACETS`` order) and the scope units (m, dim) with
    ``embedder``. Raises what ``embedder.encode`` raises; the reading itself never raises.
    """
    reading = read_scope(document, as_of=as_of.date)
    texts = scope_texts(reading, document.title, document.summary)
    vectors = embedder.encode([texts[f] for f in QUERY_FACETS])
    sections = scope_sections(document)
    section_vectors = embedder.encode([t for _, t in sections]) if sections else None
    frame = scope_query_frame(
        partition,
        document.title,
        reading,
        texts,
        np.asarray(vectors),
        embedder.model_id,
        as_of.date,
        as_of.source,
        [h for h, _ in sections],
        section_vectors,
        [t for _, t in sections],
    )
    query = scope_query_from_row(frame.row(0, named=True))
    return BuiltScopeQuery(reading, texts, sections, frame, query)
