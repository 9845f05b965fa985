"""Peer baseline: the common LlamaIndex build next to our ranking modes, in one run.

The way most teams build past-performance retrieval today: one vector per library entry
(the whole-entry text), an in-memory ``VectorStoreIndex``, and LlamaIndex
``MetadataFilters`` for customer type, contract value and dates. Same library, same golden
set, same model (all-MiniLM-L6-v2 through a LlamaIndex embedding wrapper over our
``Embedder``), and the same filters our product reads from each RFP (customer types, value
band in USD, ended-after and started-after dates). No graded relaxation: a scope whose
filters let fewer than three entries through simply gets fewer.

Two LlamaIndex variants are run: ``llamaindex`` embeds like LlamaIndex's sentence-transformers
integration (the model truncates every text at 256 word pieces), ``llamaindex+chunks`` uses our
Embedder's window averaging for long texts (so the difference is the ranking, not truncation).

Prints top-3 recall against both labellers, MRR, scopes with fewer than three results, and the
per-query latency p50 (ms): ``rank`` is ranking with the query vectors given; ``query`` adds
what each approach does per RFP at query time (LlamaIndex: embed the query text; ours: read
the RFP's constraints and embed its facets and sections).

    .venv/bin/pip install -e '.[baseline]' -c constraints.txt
    .venv/bin/python benchmarks/peer_baseline.py \
        --golden sample/golden/golden.jsonl --library sample/library
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core import VectorStoreIndex
from llama_index.core.embeddings import BaseEmbedding
from llama_index.core.schema import QueryBundle, TextNode
from llama_index.core.vector_stores import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from pydantic import PrivateAttr

from rfp_retrieval.eval.past_performance import (
    PreparedScope,
    embed_library,
    load_golden,
    prepare_scopes,
    recall_at_k,
    reciprocal_rank,
)
from rfp_retrieval.library.frames import entries_frame
from rfp_retrieval.library.ingest import load_library
from rfp_retrieval.retrieval.config import MODES, RankingConfig
from rfp_retrieval.retrieval.embedding import DEFAULT_MODEL, Embedder, chunk_words
from rfp_retrieval.retrieval.facets import entry_facet_texts
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.records import ScopeFilters

ONGOING = 99991231  # end date of ongoing work, as a YYYYMMDD integer


class LocalSentenceEmbedding(BaseEmbedding):
    """LlamaIndex embedding over our local ``Embedder`` (no hub download).

    ``chunked=False`` encodes each text once, truncated at the model's 256 word pieces (what
    LlamaIndex's sentence-transformers integration does); ``chunked=True`` uses
    ``Embedder.encode`` (window-averaged vectors for long texts). Vectors are unit length.
    """

    chunked: bool = False
    _embedder: Embedder = PrivateAttr()

    def __init__(self, embedder: Embedder, chunked: bool = False, **kwargs: Any) -> None:
        super().__init__(model_name=embedder.model_id, chunked=chunked, **kwargs)
        self._embedder = embedder

    def _encode(self, texts: list[str]) -> list[list[float]]:
        if self.chunked:
            return self._embedder.encode(texts).tolist()
        vectors = self._embedder.load().encode(
            texts, normalize_embeddings=True, convert_to_numpy=True
        )
        return np.asarray(vectors, dtype=np.float32).tolist()

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._encode([query])[0]

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._encode([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self._encode(texts)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)


def _yyyymmdd(day: dt.date | None) -> int | None:
    return day.year * 10000 + day.month * 100 + day.day if day else None


def entry_nodes(entries: Any) -> list[TextNode]:
    """One ``TextNode`` per ``pp_entries`` row: the whole-entry text, flat filter metadata
    (customer type, value band USD, start and end as YYYYMMDD ints; ongoing ends 99991231),
    metadata kept out of the embedded text."""
    nodes = []
    for row in entries.iter_rows(named=True):
        lo = row["value_min"] if row["value_min"] is not None else row["value_max"]
        hi = row["value_max"] if row["value_max"] is not None else row["value_min"]
        metadata = {
            "customer_type": row["customer_type"],
            "value_lo": lo,
            "value_hi": hi,
            "start": _yyyymmdd(row["start_date"]),
            "end": ONGOING if row["ongoing"] else _yyyymmdd(row["end_date"]),
        }
        nodes.append(
            TextNode(
                id_=row["id"],
                text=entry_facet_texts(row)["whole"],
                metadata=metadata,
                excluded_embed_metadata_keys=list(metadata),
                excluded_llm_metadata_keys=list(metadata),
            )
        )
    return nodes


def llama_filters(filters: ScopeFilters) -> MetadataFilters | None:
    """The RFP's customer type, value and date constraints as LlamaIndex ``MetadataFilters``
    (AND). Same semantics as our SQL pass: the value band overlaps, the work ended on/after
    ``ended_after`` or is ongoing, it started on/after ``started_after``."""
    parts: list[MetadataFilter] = []
    if filters.customer_types:
        parts.append(
            MetadataFilter(
                key="customer_type", operator=FilterOperator.IN, value=list(filters.customer_types)
            )
        )
    if filters.value_min is not None:
        parts.append(
            MetadataFilter(key="value_hi", operator=FilterOperator.GTE, value=filters.value_min)
        )
    if filters.value_max is not None:
        parts.append(
            MetadataFilter(key="value_lo", operator=FilterOperator.LTE, value=filters.value_max)
        )
    if filters.ended_after is not None:
        day = _yyyymmdd(filters.ended_after)
        parts.append(MetadataFilter(key="end", operator=FilterOperator.GTE, value=day))
    if filters.started_after is not None:
        day = _yyyymmdd(filters.started_after)
        parts.append(MetadataFilter(key="start", operator=FilterOperator.GTE, value=day))
    return MetadataFilters(filters=parts, condition=FilterCondition.AND) if parts else None


class TimedEmbedder:
    """Our ``Embedder`` counting what its ``encode`` calls cost: ``seconds`` (wall), ``texts``
    and ``windows`` (model windows after ``chunk_words``: what the model actually runs on).
    Splits our per-RFP query time into reading the RFP and embedding it."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.texts = 0
        self.windows = 0

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    def encode(self, texts: list[str]) -> np.ndarray:
        started, cpu = time.perf_counter(), time.process_time()
        vectors = self.embedder.encode(texts)
        self.seconds += time.perf_counter() - started
        self.cpu_seconds += time.process_time() - cpu
        self.texts += len(texts)
        self.windows += sum(len(chunk_words(text or "")) for text in texts)
        return vectors


def _p50_ms(seconds: list[float]) -> float:
    return 1000 * statistics.median(seconds)


def _scores(prepared: list[PreparedScope], tops: list[list[str]]) -> dict[str, float]:
    n = len(prepared)
    alts = [(p, t) for p, t in zip(prepared, tops, strict=True) if p.golden.ideal_alt]
    return {
        "recall": sum(recall_at_k(t, p.golden.ideal) for p, t in zip(prepared, tops, strict=True))
        / n,
        "recall_alt": sum(recall_at_k(t, p.golden.ideal_alt) for p, t in alts) / len(alts)
        if alts
        else float("nan"),
        "mrr": sum(reciprocal_rank(t, p.golden.ideal) for p, t in zip(prepared, tops, strict=True))
        / n,
        "short": sum(len(t) < 3 for t in tops),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, default=Path("sample/golden/golden.jsonl"))
    parser.add_argument("--library", type=Path, default=Path("sample/library"))
    parser.add_argument("--model", default=DEFAULT_MODEL)
    args = parser.parse_args()

    embedder = Embedder(args.model)
    embedder.load()
    scopes = load_golden(args.golden)
    entries = entries_frame(load_library(args.library).entries)

    # Ours: facet vectors of the library, then per scope read + embed (timed), then rank.
    started = time.perf_counter()
    vectors = embed_library(entries, embedder)
    ours_build = time.perf_counter() - started
    prepared, prepare_times, prepare_cpu, embeds = [], [], [], []
    for scope in scopes:
        timed = TimedEmbedder(embedder)
        t0, c0 = time.perf_counter(), time.process_time()
        prepared.extend(prepare_scopes([scope], timed))  # type: ignore[arg-type]
        prepare_times.append(time.perf_counter() - t0)
        prepare_cpu.append(time.process_time() - c0)
        embeds.append(timed)
    default_rank_times: list[float] = []

    rows: list[tuple[str, dict[str, float], float, float]] = []
    for mode in MODES:
        config = RankingConfig(mode=mode)
        tops, times = [], []
        for p in prepared:
            t0 = time.perf_counter()
            result = rank_references(entries, vectors, p.query, config)
            times.append(time.perf_counter() - t0)
            tops.append([r.id for r in result.references])
        rank_p50 = _p50_ms(times)
        query_p50 = _p50_ms([a + b for a, b in zip(prepare_times, times, strict=True)])
        if mode == "default":
            default_rank_times = times
        rows.append((mode, _scores(prepared, tops), rank_p50, query_p50))

    # LlamaIndex: whole-entry text per node, metadata filters, top-3 by cosine.
    query_texts = [p.texts["whole"] for p in prepared]  # the ScopeQuery's own whole text
    builds = {}
    for name, chunked in (("llamaindex", False), ("llamaindex+chunks", True)):
        embed_model = LocalSentenceEmbedding(embedder, chunked=chunked)
        t0 = time.perf_counter()
        index = VectorStoreIndex(entry_nodes(entries), embed_model=embed_model)
        builds[name] = time.perf_counter() - t0
        tops, rank_times, query_times, query_cpu = [], [], [], []
        for p, text in zip(prepared, query_texts, strict=True):
            retriever = index.as_retriever(
                similarity_top_k=3, filters=llama_filters(p.query.filters)
            )
            t0, c0 = time.perf_counter(), time.process_time()
            hits = retriever.retrieve(text)
            query_times.append(time.perf_counter() - t0)
            query_cpu.append(time.process_time() - c0)
            bundle = QueryBundle(text, embedding=embed_model.get_query_embedding(text))
            t0 = time.perf_counter()
            again = retriever.retrieve(bundle)
            rank_times.append(time.perf_counter() - t0)
            assert [h.node.node_id for h in again] == [h.node.node_id for h in hits]
            tops.append([h.node.node_id for h in hits])
        rows.append((name, _scores(prepared, tops), _p50_ms(rank_times), _p50_ms(query_times)))
        if name == "llamaindex":
            peer_times = (query_times, rank_times)
            peer_cpu = query_cpu

    print(f"library: {entries.height} entries ({args.library})   golden: {len(prepared)} scopes")
    print(f"model: {embedder.model_id}")
    print(
        f"index build: ours (4 facet vectors/entry) {ours_build:.1f} s, "
        + ", ".join(f"{k} {v:.1f} s" for k, v in builds.items())
    )
    header = f"{'approach':<19}{'recall@3':>9}{'alt':>7}{'MRR':>7}{'<3':>4}"
    print(header + f"{'rank p50 ms':>13}{'query p50 ms':>14}")
    for name, s, rank_p50, query_p50 in rows:
        print(
            f"{name:<19}{s['recall']:>9.3f}{s['recall_alt']:>7.3f}{s['mrr']:>7.3f}"
            f"{s['short']:>4}{rank_p50:>13.1f}{query_p50:>14.1f}"
        )
    by_name = {name: s for name, s, _, _ in rows}
    peer = by_name["llamaindex"]
    for mode in ("default", "facet+bumps"):
        ratio = by_name[mode]["recall"] / peer["recall"] if peer["recall"] else float("inf")
        ratio_alt = (
            by_name[mode]["recall_alt"] / peer["recall_alt"] if peer["recall_alt"] else float("inf")
        )
        print(f"{mode} / llamaindex recall@3: {ratio:.2f}x (ideal), {ratio_alt:.2f}x (ideal_alt)")
    # where the per-RFP query time goes (p50 over the scopes, ms)
    embed_s = [t.seconds for t in embeds]
    read_s = [total - e for total, e in zip(prepare_times, embed_s, strict=True)]
    peer_query, peer_rank = peer_times
    ours_query = [a + b for a, b in zip(prepare_times, default_rank_times, strict=True)]
    print(
        f"query time, p50 ms per RFP: default {_p50_ms(ours_query):.1f} = read the RFP "
        f"{_p50_ms(read_s):.1f} + embed {_p50_ms(embed_s):.1f} "
        f"({statistics.median(t.texts for t in embeds):g} texts, "
        f"{statistics.median(t.windows for t in embeds):g} model windows) + rank "
        f"{_p50_ms(default_rank_times):.1f}; llamaindex {_p50_ms(peer_query):.1f} = embed "
        f"{_p50_ms([q - r for q, r in zip(peer_query, peer_rank, strict=True)]):.1f} "
        f"(1 text, 1 window) + retrieve {_p50_ms(peer_rank):.1f}; ratio "
        f"{_p50_ms(ours_query) / max(_p50_ms(peer_query), 1e-9):.2f}x"
    )
    # CPU time (all threads of this process): what wall time means on a loaded machine
    cpu_read = [c - t.cpu_seconds for c, t in zip(prepare_cpu, embeds, strict=True)]
    print(
        f"CPU ms p50 per RFP (no rank): default read + embed {_p50_ms(prepare_cpu):.1f} = read "
        f"{_p50_ms(cpu_read):.1f} + embed {_p50_ms([t.cpu_seconds for t in embeds]):.1f}; "
        f"llamaindex embed + retrieve {_p50_ms(peer_cpu):.1f}; ratio "
        f"{_p50_ms(prepare_cpu) / max(_p50_ms(peer_cpu), 1e-9):.2f}x"
    )


if __name__ == "__main__":
    main()
