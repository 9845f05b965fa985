"""Answer-library retrieval: hybrid dense + BM25 per query, fused across a query set.

Per query (seed 2 step 5, DESIGN.md "Rewriting"):

- dense: cosine (in [-1, 1]) between the query vector and each block vector (unit vectors
  from the configured ``Embedder``);
- lexical: BM25 (bm25s, Lucene variant) over stemmed title + topic + tags + body;
- the two rankings are fused by reciprocal rank fusion: ``w_dense / (k + rank_dense) +
  w_bm25 / (k + rank_bm25)``.

Across the query set (original + rewrite + paraphrases + parts) the per-query rankings are
fused again by weighted reciprocal rank fusion, ``sum_q w_q / (k + rank_q)``, so a block
found by several queries outranks one found by a single phrasing (seed 2: "the ranker
prioritizes blocks that retrieved well across multiple paraphrases"). Every passage keeps its
rank under each query.

Across one RFP's questions (``retrieve_answers``), a hub passage, in the top 3 of a large
share of them, is moved below the top 3 of each question it shares no word with
(``demote_hubs``, ``HUB_RULE``).

Confidence and the retrieval floor: a question's confidence is the best cosine between any of
its first ``RetrievalConfig.confidence_window`` (3) passages and the closest query of its set
(the writer reads the top three, seed 1; a question answered by passage #2 is not an SME's
job, issue 15); when the configured signal (``RetrievalConfig.sme_signal``, by default this
confidence) is below ``RetrievalConfig.floor`` the question is flagged "needs SME" instead of
being silently answered (the rule and its source: ``RetrievalConfig``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rfp_retrieval.retrieval.lexical import LexicalIndex
from rfp_retrieval.rewrite.records import Query
from rfp_retrieval.rewrite.terms import index_tokens

NEEDS_SME = "needs SME"
PAST_PERFORMANCE = "past performance"
"""Status of an ask for past-performance references ("Offerors shall provide three (3)
references", "For each reference give the contract number"): the brief's reference picks
answer it, not the answer library, so it is neither answered from passages nor an SME's job
(issue 15: such asks were answered from the answer library, and "needs SME" fired on them)."""

_PAST_PERFORMANCE_ASK = re.compile(
    r"\bpast[- ]performance\b"
    r"|\b(?:one|two|three|four|five|\d+)\s+(?:\(\d+\)\s+)?(?:\w+\s+)?references\b"
    r"|\breferences?\s+(?:for|from|of)\s+(?:similar|comparable|prior|previous|recent|relevant)\b"
    r"|\b(?:similar|comparable|prior|previous|recent|relevant)\s+(?:contracts|efforts|projects)\b"
    r"|\b(?:each|every|per)\s+(?:(?:client|customer|project|contract)\s+)?reference\b"
    r"(?!\s+(?:architecture|model|implementation|design|data|number|document))"
    r"|\b(?:client|customer)\s+references?\b"
    r"|\breferences?\s+(?:shall|must|should|will)\s+(?:include|contain|be|cover|describe)\b",
    re.I,
)


def is_past_performance_ask(question: str) -> bool:
    """True when ``question`` asks for past-performance references or prior efforts
    ("Offerors shall provide three (3) references", "For each reference give the contract
    number", "References must include a point of contact"): "past performance", a counted
    "references", "each reference", "client / customer references", "references shall
    include ..." or "prior / similar contracts". "Reference architecture", "cross-references"
    and "incorporated by reference" are not (rule: what a proposal manager answers with the
    references volume, issue 15)."""
    return bool(_PAST_PERFORMANCE_ASK.search(question or ""))


SME_SIGNALS = (
    "cosine_top3",
    "lexical_top3",
    "cosine_margin",
    "bm25_top3",
    "support",
    "rare_terms_top3",
    "cosine_unvaried",
)
"""Candidate confidence signals of a question (``AnswerResult.signals``):

- ``cosine_top3``: best cosine (in [-1, 1]) between a top-3 passage and its closest query;
- ``lexical_top3``: best share (in [0, 1]) of the original question's content tokens
  (stemmed, stopwords and instruction verbs dropped) found in one top-3 passage;
- ``cosine_margin``: cosine of the top passage minus that of the 5th (the top stands out);
- ``bm25_top3``: best BM25 score (>= 0) of a top-3 passage under any query;
- ``support``: fused score of the top passage over the score of a passage ranked first by
  every query (in [0, 1]);
- ``rare_terms_top3``: best share (in [0, 1]) of the original question's content tokens,
  each weighted by its inverse document frequency over the library (``log((n + 1) / (df +
  1))``), found in one top-3 passage: a passage that only shares the question's common
  words ("describe", "approach", "training") scores low, one holding its rare words
  ("caseworkers", "Medicaid") high (issue 15: off-topic passages were not flagged);
- ``cosine_unvaried``: ``cosine_top3`` when the query set holds no paraphrase (the question
  as written, perhaps with its context or its parts: ``is_unvaried``), else 1.0 (the clause
  does not apply). Without a second phrasing ``support`` is 1.0, or close to it, whatever
  the passages say, so only the cosine speaks for the question (issue 15, trial: an AMI
  interval-data question, asked with its heading only, got an SOC/SIEM passage at cosine
  0.463 and support 0.896, and no flag).
"""

PARAPHRASE_ROLE = "paraphrase"
"""Role prefix of the rewriting chain's paraphrases (``paraphrase_1``, ``paraphrase_2``...)."""


def is_unvaried(queries: Sequence[Query]) -> bool:
    """True when ``queries`` holds no paraphrase (no role starting with ``PARAPHRASE_ROLE``):
    the original alone, or with its context rewrite ("... — Required Responses") and its
    parts, which repeat the question's own words. Rule: agreement between phrasings is
    evidence only when there are phrasings to agree (issue 15)."""
    return not any(q.role.startswith(PARAPHRASE_ROLE) for q in queries)


@dataclass(frozen=True)
class RetrievalConfig:
    """Every retrieval weight in one place.

    ``rrf_k``: the reciprocal-rank-fusion constant between dense and BM25 ranks of one query
    (60, Cormack et al. 2009); ``fusion_k``: the constant of the fusion across queries, 5
    (chosen by leave-one-document-out cross-validation on the dev qrels, see
    ``benchmarks/cv_answers.py``: with 60 a block ranked first by every context query lost
    to blocks ranked 2nd-10th by all queries, the noisy original included);
    ``dense_weight`` / ``lexical_weight``: per-query fusion weights of the two retrievers;
    ``top_k``: passages returned per question; ``depth``: ranks kept per query (a block below
    it contributes nothing for that query); ``confidence_window``: how many top passages the
    confidence looks at.

    The "needs SME" rule (``needs_sme``): a question is flagged when its ``sme_signal`` (one
    of ``SME_SIGNALS``) is below ``floor``, or its ``sme_second_signal`` below
    ``sme_second_floor``, or its ``sme_third_signal`` below ``sme_third_floor``. The issue's
    criterion (issue 15): no flag when a relevant passage
    is in the top 3, a flag when none is. Chosen by ``benchmarks/cv_sme.py``: every dev
    question of both qrels files is searched twice, against the full library and with its
    relevant blocks removed (the library lacks the answer); among one-signal rules and pairs
    of signals, the one with the best balanced accuracy against "no relevant passage in the
    top 3" that flags at most 10% of the top-3-answerable cases is chosen by
    leave-one-document-out on the tuning documents, then on all of them: cosine_top3 < 0.46
    (the passages are far from every phrasing) or support < 0.74 (the phrasings of the
    question do not agree on a top passage). Chosen on the tuning documents it flagged 58/115
    cases without a relevant top-3 passage and 11/113 with one (precision 0.84, recall 0.50;
    cross-validated 0.76 / 0.48); on the validation documents 17/45 and 2/43 (precision
    0.89, recall 0.38). After paraphrases stopped swapping stem-only matches, on the tuning
    documents it flags 56/115 and 12/113 (precision 0.82, recall 0.49); after paraphrases
    stopped turning a modifier into a head ("labor categories plan"), 58/115 and 12/113
    (0.83 / 0.50), still one case over the 10% cap: chosen on the tuning documents the rule
    would now be cosine_top3 < 0.45 or support < 0.74 (52/115, 11/113; leave-one-document-out
    0.77 / 0.43). Kept at 0.46, the floor measured on validation: it sits on the cap's edge.
    A third clause for questions that could not be rephrased (session 12, trial: asked with
    only its heading as context, a question gets support near 1.0 by construction, so the
    second clause cannot fire): ``sme_third_signal`` ``cosine_unvaried`` under
    ``sme_third_floor``; off by default (``sme_third_signal`` None). ``benchmarks/cv_sme.py``
    adds it to each pair on ``cosine_top3``; chosen on the tuning documents, cosine_top3 <
    0.45 or support < 0.74 or cosine_unvaried < 0.48 flags 56/115 and 11/113 (precision
    0.84, recall 0.49; leave-one-document-out 0.75 / 0.47 against 0.77 / 0.43 for pairs
    only); on the validation documents 20/45 and 6/43 (0.77 / 0.44) against 18/45 and 4/43
    (0.82 / 0.40) for the rule above: no gain there. A lexical rule tried first, "none of the
    three passages holds the question's rarest content word", flagged about one answerable
    case per unanswerable one on the tuning documents (best 61/115 for 14/113, with a cosine
    gate) and was not built.
    The rule before, cosine_top3 < 0.45 alone, flagged 35/115 and 7/113 on the tuning
    documents (precision 0.83, recall 0.30) and 11/45, 2/43 on the validation ones (0.85 /
    0.24): a question answered with off-topic passages was mostly not flagged.

    The hub step (``demote_hubs``): within one RFP's questions, a passage in the top
    ``confidence_window`` of at least ``hub_share`` of them (and of at least
    ``hub_min_questions``) is a hub; where it shares no content word with the question as
    written it moves just below that window. ``hub_share`` None turns the step off.

    Raises ``ValueError`` (at construction) for an unknown ``sme_signal``.
    """

    rrf_k: int = 60
    fusion_k: int = 5
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    top_k: int = 10
    depth: int = 100
    floor: float = 0.46
    confidence_window: int = 3
    sme_signal: str = "cosine_top3"
    sme_second_signal: str | None = "support"
    sme_second_floor: float = 0.74
    sme_third_signal: str | None = None
    sme_third_floor: float = 0.48
    hub_share: float | None = 1 / 3
    hub_min_questions: int = 4

    def __post_init__(self) -> None:
        for name in ("sme_signal", "sme_second_signal", "sme_third_signal"):
            value = getattr(self, name)
            if (value is not None or name == "sme_signal") and value not in SME_SIGNALS:
                raise ValueError(
                    f"RetrievalConfig.{name} {value!r} is unknown; use one of "
                    + ", ".join(SME_SIGNALS)
                )

    def needs_sme(self, signals: dict[str, float]) -> bool:
        """True when the "needs SME" rule fires on a question's ``signals``
        (``AnswerResult.signals``): ``sme_signal`` under ``floor``, or ``sme_second_signal``
        (when set) under ``sme_second_floor``, or ``sme_third_signal`` (when set) under
        ``sme_third_floor``. Raises ``KeyError`` when ``signals`` lacks a signal the rule
        reads."""
        if signals[self.sme_signal] < self.floor:
            return True
        for signal, floor in (
            (self.sme_second_signal, self.sme_second_floor),
            (self.sme_third_signal, self.sme_third_floor),
        ):
            if signal is not None and signals[signal] < floor:
                return True
        return False


@dataclass
class Passage:
    """One retrieved block for a question.

    ``score`` is the fused RRF score (higher is better, > 0); ``rank`` is 1-based;
    ``query_ranks`` maps each query key (``original``, ``rewrite``, ``paraphrase_1``,
    ``part_2``...) to the block's 1-based hybrid rank under that query (None beyond
    ``depth``); ``cosine`` is the best cosine in [-1, 1] between the block and any query;
    ``bm25`` the best BM25 score (>= 0); ``hub`` is True when ``demote_hubs`` moved it below
    the top passages.
    """

    block_id: str
    title: str
    rank: int
    score: float
    cosine: float
    bm25: float
    query_ranks: dict[str, int | None] = field(default_factory=dict)
    hub: bool = False


@dataclass
class AnswerResult:
    """The passages for one question and whether they clear the retrieval floor.

    ``confidence`` is the best cosine (in [-1, 1]) between one of the top three passages and
    its closest query; ``signals`` maps every candidate "needs SME" signal (``SME_SIGNALS``)
    to its value; ``agreement`` the share (in [0, 1]) of the query-set weight whose own
    top 3 holds the top passage; ``status`` is ``ok``, ``needs SME``, or ``past performance``
    (an ask for references, whatever its signals: the brief's reference picks answer it and
    the brief shows no passage for it).
    """

    passages: list[Passage]
    confidence: float
    agreement: float
    status: str
    signals: dict[str, float] = field(default_factory=dict)


class AnswerIndex:
    """Dense vectors and a BM25 index over the usable blocks of an answer library.

    ``ids``, ``titles`` and ``texts`` are aligned with the rows of ``vectors`` (shape
    (n_blocks, dim), unit float32).
    """

    def __init__(
        self,
        ids: Sequence[str],
        titles: Sequence[str],
        texts: Sequence[str],
        vectors: np.ndarray,
    ):
        if len(ids) != len(texts) or len(ids) != len(vectors):
            raise ValueError(
                f"answer index: {len(ids)} ids, {len(texts)} texts and {len(vectors)} vectors; "
                "re-materialize answer_block_embeddings so every block has one vector"
            )
        self.ids = list(ids)
        self.titles = list(titles)
        self.texts = list(texts)
        self.vectors = np.asarray(vectors, dtype=np.float32)
        if not self.ids:
            self.vectors = self.vectors.reshape(
                0, self.vectors.shape[-1] if self.vectors.ndim > 1 else 0
            )
        tokens = [index_tokens(t) for t in self.texts]
        self._tokens = [set(t) for t in tokens]
        self._lexical = LexicalIndex(tokens)
        df: dict[str, int] = {}
        for block in self._tokens:
            for token in block:
                df[token] = df.get(token, 0) + 1
        self._df = df

    def __len__(self) -> int:
        return len(self.ids)

    def bm25_scores(self, text: str) -> np.ndarray:
        """BM25 score (>= 0) of every block for ``text``, shape (n_blocks,)
        (``lexical.LexicalIndex``)."""
        return self._lexical.scores(text)

    def search(
        self,
        queries: Sequence[Query],
        query_vectors: np.ndarray,
        config: RetrievalConfig | None = None,
    ) -> AnswerResult:
        """Fuse the hybrid rankings of ``queries`` (vectors aligned, unit rows).

        Returns the top ``config.top_k`` passages with their per-query ranks, the confidence
        and the floor verdict. An empty index gives no passages and ``needs SME``.
        """
        config = config or RetrievalConfig()
        n = len(self.ids)
        if n == 0 or not queries:
            return AnswerResult([], 0.0, 0.0, NEEDS_SME)
        k = config.rrf_k
        fused = np.zeros(n, dtype=np.float64)
        ranks: dict[str, np.ndarray] = {}
        best_cos = np.full(n, -1.0, dtype=np.float32)
        best_bm25 = np.zeros(n, dtype=np.float32)
        cos_by_query: list[np.ndarray] = []
        top3_weight = np.zeros(n, dtype=np.float64)
        total_weight = sum(q.weight for q in queries) or 1.0
        for query, vector in zip(queries, query_vectors, strict=True):
            cos = self.vectors @ np.asarray(vector, dtype=np.float32)
            bm = self.bm25_scores(query.text)
            hybrid = config.dense_weight / (k + _ranks(cos)) + config.lexical_weight / (
                k + _ranks(bm)
            )
            if not bm.any():
                hybrid = config.dense_weight / (k + _ranks(cos))
            query_rank = _ranks(hybrid)
            ranks[query.key] = query_rank
            contribution = np.where(
                query_rank <= config.depth, query.weight / (config.fusion_k + query_rank), 0
            )
            fused += contribution
            top3_weight += np.where(query_rank <= 3, query.weight, 0.0)
            best_cos = np.maximum(best_cos, cos)
            best_bm25 = np.maximum(best_bm25, bm)
            cos_by_query.append(cos)
        order = np.lexsort((np.arange(n), -fused))[: config.top_k]
        passages = [
            Passage(
                block_id=self.ids[i],
                title=self.titles[i],
                rank=r,
                score=round(float(fused[i]), 6),
                cosine=round(float(best_cos[i]), 4),
                bm25=round(float(best_bm25[i]), 4),
                query_ranks={
                    key: (int(rk[i]) if rk[i] <= config.depth else None)
                    for key, rk in ranks.items()
                },
            )
            for r, i in enumerate(order, start=1)
        ]
        top = int(order[0])
        window = order[: max(1, config.confidence_window)]
        confidence = round(float(best_cos[window].max()), 4)
        agreement = round(float(top3_weight[top] / total_weight), 4)
        original = next((q.text for q in queries if q.role == "original"), queries[0].text)
        asked = set(index_tokens(original))
        fifth = order[min(4, len(order) - 1)]
        signals = {
            "cosine_top3": confidence,
            "lexical_top3": round(
                max(len(asked & self._tokens[i]) / len(asked) for i in window) if asked else 0.0,
                4,
            ),
            "cosine_margin": round(float(best_cos[top] - best_cos[fifth]), 4),
            "bm25_top3": round(float(best_bm25[window].max()), 4),
            "support": round(float(fused[top] / (total_weight / (config.fusion_k + 1))), 4),
            "rare_terms_top3": self._rare_terms(asked, window),
            "cosine_unvaried": confidence if is_unvaried(queries) else 1.0,
        }
        status = NEEDS_SME if config.needs_sme(signals) else "ok"
        if is_past_performance_ask(original):
            status = PAST_PERFORMANCE
        return AnswerResult(passages, confidence, agreement, status, signals)

    def _rare_terms(self, asked: set[str], window: Sequence[int]) -> float:
        """``rare_terms_top3`` (``SME_SIGNALS``) of the question tokens ``asked`` over the
        blocks at rows ``window``; 0.0 for a question without content tokens."""
        if not asked:
            return 0.0
        n = len(self.ids)
        weight = {t: float(np.log((n + 1) / (self._df.get(t, 0) + 1))) for t in asked}
        total = sum(weight.values())
        if total <= 0:
            return 0.0
        best = max(sum(weight[t] for t in asked & self._tokens[int(i)]) for i in window)
        return round(best / total, 4)


def _ranks(scores: np.ndarray) -> np.ndarray:
    """1-based ranks of ``scores`` (highest first; ties broken by position)."""
    order = np.lexsort((np.arange(len(scores)), -scores))
    ranks = np.empty(len(scores), dtype=np.int64)
    ranks[order] = np.arange(1, len(scores) + 1)
    return ranks


def retrieve_answers(
    index: AnswerIndex,
    query_sets: Sequence[Sequence[Query]],
    embedder: Any,
    config: RetrievalConfig | None = None,
) -> list[AnswerResult]:
    """Search every query set (one per question), embedding all queries in one batch.

    ``embedder`` is an ``Embedder`` (or anything with ``encode(list[str]) -> (n, dim)``).
    Returns one ``AnswerResult`` per query set, in order.

    Work is shared, results are not changed: each distinct query text is embedded once, and
    query sets identical in keys, texts and weights (an ask repeated word for word) are
    searched once and share one ``AnswerResult``.
    """
    texts = list(dict.fromkeys(q.text for qs in query_sets for q in qs))
    vectors = embedder.encode(texts) if texts else np.zeros((0, 1), dtype=np.float32)
    row = {text: i for i, text in enumerate(texts)}
    searched: dict[tuple, AnswerResult] = {}
    results: list[AnswerResult] = []
    for qs in query_sets:
        key = tuple((q.key, q.text, q.weight) for q in qs)
        if key not in searched:
            block = vectors[[row[q.text] for q in qs]] if qs else vectors[:0]
            searched[key] = index.search(list(qs), block, config)
        results.append(searched[key])
    return demote_hubs(index, query_sets, results, config)


HUB_RULE = (
    "a passage in the top 3 of at least a third of one RFP's questions (4 or more) that "
    "shares no content word with a question naming its own topic is moved below that "
    "question's top 3"
)
"""Why (issue 15, trial): one answer passage (a SOC 2 block) stood in the top 3 of most
questions of an RFP, on questions it says nothing about; a passage that fits every question
of a document fits none in particular (hubness of dense retrieval, Radovanovic et al. 2010).
Where the question names one of its words the passage stays where the ranking put it."""


def demote_hubs(
    index: AnswerIndex,
    query_sets: Sequence[Sequence[Query]],
    results: Sequence[AnswerResult],
    config: RetrievalConfig | None = None,
) -> list[AnswerResult]:
    """``results`` (one per query set of ONE RFP, aligned) with hub passages demoted
    (``HUB_RULE``; thresholds ``RetrievalConfig.hub_share`` / ``hub_min_questions``).

    A hub is a block in the top ``confidence_window`` of at least ``hub_share`` of the
    question sets that have passages, and of at least ``hub_min_questions`` of them. In each
    question where it stands in that window and shares no content word (stemmed, stopwords
    and instruction verbs dropped: ``terms.content_words``; topic-less words such as
    "approach" dropped too: ``specificity.ABSTRACT_WORDS``) with the original question, it
    moves to rank ``confidence_window + 1``, marked ``hub``; the passages below it move up
    and every rank is renumbered. A question without a content word of its own ("Describe
    your approach." under a heading) is left alone: its topic is its context, and it gives no
    evidence against the passage. Signals, confidence and status are those of the search
    (the evidence the library holds, not the order shown). Results left alone are returned
    as they are; a changed one is a new ``AnswerResult``. Never raises."""
    config = config or RetrievalConfig()
    window = max(1, config.confidence_window)
    if config.hub_share is None:
        return list(results)
    # an ask repeated word for word shares one result: count each question set once
    distinct: dict[int, AnswerResult] = {id(r): r for r in results if r.passages}
    counts: dict[str, int] = {}
    for r in distinct.values():
        for p in r.passages[:window]:
            counts[p.block_id] = counts.get(p.block_id, 0) + 1
    needed = max(config.hub_min_questions, config.hub_share * len(distinct))
    hubs = {b for b, n in counts.items() if n >= needed}
    if not hubs:
        return list(results)
    from rfp_retrieval.rewrite.specificity import ABSTRACT_WORDS
    from rfp_retrieval.rewrite.terms import content_words

    row = {b: i for i, b in enumerate(index.ids)}
    out: list[AnswerResult] = []
    done: dict[int, AnswerResult] = {}
    for qs, result in zip(query_sets, results, strict=True):
        if id(result) in done:
            out.append(done[id(result)])
            continue
        original = next((q.text for q in qs if q.role == "original"), qs[0].text if qs else "")
        topical = [w for w in content_words(original) if w.lower() not in ABSTRACT_WORDS]
        asked = set(index_tokens(" ".join(topical)))
        top = result.passages[:window]
        moved = [
            p
            for p in top
            if p.block_id in hubs
            and p.block_id in row
            and not (asked & index._tokens[row[p.block_id]])
        ]
        if not asked or not moved or len(result.passages) <= window:
            done[id(result)] = result
            out.append(result)
            continue
        kept = [p for p in result.passages if p not in moved]
        order = kept[:window] + [replace(p, hub=True) for p in moved] + kept[window:]
        passages = [replace(p, rank=i) for i, p in enumerate(order, start=1)]
        changed = replace(result, passages=passages)
        done[id(result)] = changed
        out.append(changed)
    return out


ANSWER_SCHEMA = {
    "rfp_partition": "String",
    "question_id": "String",
    "label": "String",
    "question": "String",
    "status": "String",
    "confidence": "Float64",
    "agreement": "Float64",
    "rank": "Int64",
    "block_id": "String",
    "title": "String",
    "score": "Float64",
    "cosine": "Float64",
    "bm25": "Float64",
    "query_ranks": "String",
    "found_by": "Int64",
}
"""Columns of the ``question_answers`` table (polars type names)."""


def answers_frame(
    partition: str, rows: Sequence[tuple[dict[str, Any], AnswerResult]], keep: int = 5
) -> Any:
    """The ``question_answers`` rows: the top ``keep`` passages of each question.

    ``rows`` pairs each ``rewritten_questions`` row with its ``AnswerResult``. ``query_ranks``
    is JSON ``{query key: rank or null}``; ``found_by`` counts the queries that ranked the
    passage in their top 10. A question without passages gets one row with a null block.
    """
    import json

    import polars as pl

    schema = {name: getattr(pl, kind) for name, kind in ANSWER_SCHEMA.items()}
    out: list[dict[str, Any]] = []
    for row, result in rows:
        base = {
            "rfp_partition": partition,
            "question_id": row["question_id"],
            "label": row.get("label"),
            "question": row.get("original"),
            "status": result.status,
            "confidence": result.confidence,
            "agreement": result.agreement,
        }
        passages = result.passages[:keep]
        if not passages:
            out.append({**base, "rank": None, "block_id": None})
        for p in passages:
            out.append(
                {
                    **base,
                    "rank": p.rank,
                    "block_id": p.block_id,
                    "title": p.title,
                    "score": p.score,
                    "cosine": p.cosine,
                    "bm25": p.bm25,
                    "query_ranks": json.dumps(p.query_ranks),
                    "found_by": sum(1 for r in p.query_ranks.values() if r is not None and r <= 10),
                }
            )
    if not out:
        out.append({"rfp_partition": partition, "status": "no questions"})
    return pl.DataFrame(out, schema=schema)
