"""Answer retrieval measured against answer qrels, with and without rewriting (DESIGN.md).

Qrels: JSONL, one question a line: ``doc`` (relative to the JSONL), ``label``, ``question``
(verbatim in the doc), ``section_path``, ``type`` (contextual | specific | compound | table |
cross-reference), ``relevant`` ({block_id: grade 1|2}). Optional ``qid`` (else
``<doc stem>:<line>``); ``intent`` is never read: it exists to judge rewrites by hand.

The documents are read and parsed by the product (``load_document`` + ``find_questions``); a
qrels question the parser cannot find counts as a miss (0 on every metric).

Metrics, averaged over questions (overall and by ``type``):

- ``recall_at_5``: |top 5 ∩ relevant| / |relevant| (every graded block counts, grade 1 too);
- ``hit_rate_at_5``: share of questions with at least one relevant block in the top 5;
- ``mrr_at_10``: 1 / rank of the first relevant block in the top 10 (0 when none);
- ``ndcg_at_10``: DCG with gain 2^grade - 1 and log2(rank + 1) discount, over the ideal DCG.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rfp_retrieval.answers.ingest import block_text
from rfp_retrieval.answers.records import AnswerBlock
from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.records import DocumentError, Question, RfpDocument
from rfp_retrieval.eval.jsonl import read_objects
from rfp_retrieval.retrieval.answers import AnswerIndex, RetrievalConfig, retrieve_answers
from rfp_retrieval.rewrite.chain import ChainConfig, Rewriter, original_only, rewrite_question
from rfp_retrieval.rewrite.records import RewrittenQuestion

REWRITE_MODES = ("on", "off")
METRICS = ("recall_at_5", "hit_rate_at_5", "mrr_at_10", "ndcg_at_10")


class QrelsError(ValueError):
    """A qrels line is malformed (the message names the file and line)."""


@dataclass(frozen=True)
class QrelsQuestion:
    """One labelled question of an answer-qrels file."""

    qid: str
    doc: Path
    label: str | None
    question: str
    section_path: list[str]
    type: str
    relevant: dict[str, int]


def load_qrels(path: str | Path) -> list[QrelsQuestion]:
    """Read an answer-qrels JSONL file (``doc`` resolved against the file's folder).

    Raises:
        QrelsError: the file is not UTF-8 or empty, a line is not a JSON object, lacks
            doc/question/type/relevant, gives doc/question/type as anything but non-empty text
            or section_path as anything but a list of headings, or has a grade other than
            the integer 1 or 2 (``true`` is no grade).
        FileNotFoundError: the qrels file does not exist.
    """
    path = Path(path)
    out: list[QrelsQuestion] = []
    for number, row in read_objects(path, QrelsError, "qrels"):
        where = f"{path}:{number}"
        missing = [k for k in ("doc", "question", "type", "relevant") if k not in row]
        if missing:
            raise QrelsError(f"{where}: missing {', '.join(missing)}")
        for key in ("doc", "question", "type"):
            if not isinstance(row[key], str) or not row[key].strip():
                raise QrelsError(f"{where}: '{key}' must be non-empty text, got {row[key]!r}")
        section_path = row.get("section_path")
        if section_path is not None and (
            not isinstance(section_path, list) or not all(isinstance(p, str) for p in section_path)
        ):
            raise QrelsError(
                f"{where}: 'section_path' must be a list of headings, got {section_path!r}"
            )
        relevant = row["relevant"]
        if not isinstance(relevant, dict) or not relevant:
            raise QrelsError(f"{where}: 'relevant' must be a non-empty {{block_id: grade}} map")
        bad = {k: v for k, v in relevant.items() if isinstance(v, bool) or v not in (1, 2)}
        if bad:
            raise QrelsError(f"{where}: grades must be 1 or 2, got {bad}")
        out.append(
            QrelsQuestion(
                qid=str(row.get("qid") or f"{Path(row['doc']).stem}:{number}"),
                doc=(path.parent / row["doc"]).resolve(),
                label=row.get("label"),
                question=row["question"],
                section_path=list(section_path or []),
                type=row["type"],
                relevant={str(k): int(v) for k, v in relevant.items()},
            )
        )
    return out


def _norm(text: str) -> str:
    text = re.sub(r"[*_`]", "", text or "").lower()
    return " ".join(re.sub(r"[^\w/&.-]+", " ", text).split()).strip(" .")


def match_question(qrel: QrelsQuestion, questions: Sequence[Question]) -> Question | None:
    """The parsed question that ``qrel`` labels, or None when the parser did not find it.

    A parsed question matches when its text equals the qrels question or contains it
    (normalised: case, spacing, punctuation); among several, the one with the same label
    wins, then the shortest text.
    """
    target = _norm(qrel.question)
    if not target:
        return None
    hits = [q for q in questions if target == _norm(q.text) or target in _norm(q.text)]
    if not hits:
        return None
    label = _norm(qrel.label or "")
    hits.sort(key=lambda q: (_norm(q.label or "") != label, len(q.text)))
    return hits[0]


def ranking_metrics(retrieved: Sequence[str], relevant: dict[str, int]) -> dict[str, float]:
    """recall@5, hit rate@5, MRR@10 and nDCG@10 of one ranked list (each in [0, 1])."""
    top5 = set(retrieved[:5])
    recall = len(top5 & set(relevant)) / len(relevant)
    hit = 1.0 if top5 & set(relevant) else 0.0
    mrr = 0.0
    for rank, block in enumerate(retrieved[:10], start=1):
        if block in relevant:
            mrr = 1.0 / rank
            break
    dcg = sum(
        (2 ** relevant.get(b, 0) - 1) / math.log2(r + 1)
        for r, b in enumerate(retrieved[:10], start=1)
    )
    ideal = sorted(relevant.values(), reverse=True)[:10]
    idcg = sum((2**g - 1) / math.log2(r + 1) for r, g in enumerate(ideal, start=1))
    return {
        "recall_at_5": recall,
        "hit_rate_at_5": hit,
        "mrr_at_10": mrr,
        "ndcg_at_10": dcg / idcg if idcg else 0.0,
    }


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {m: 0.0 for m in METRICS} | {"questions": 0}
    return {m: round(sum(r[m] for r in rows) / len(rows), 4) for m in METRICS} | {
        "questions": len(rows)
    }


@dataclass
class PreparedQuestions:
    """Qrels questions matched to parsed questions, with their documents (parsed once)."""

    qrels: list[QrelsQuestion]
    matched: dict[str, Question | None]
    documents: dict[Path, RfpDocument | None]
    errors: dict[Path, str]


def prepare_questions(qrels: Sequence[QrelsQuestion]) -> PreparedQuestions:
    """Read and parse each qrels document once and match every qrels question.

    A document that cannot be read (``DocumentError``) leaves all its questions unmatched;
    the reason is kept in ``errors``.
    """
    from rfp_retrieval.documents.questions import find_questions

    documents: dict[Path, RfpDocument | None] = {}
    found: dict[Path, list[Question]] = {}
    errors: dict[Path, str] = {}
    for q in qrels:
        if q.doc in documents:
            continue
        try:
            doc = load_document(q.doc)
        except DocumentError as exc:
            documents[q.doc] = None
            found[q.doc] = []
            errors[q.doc] = str(exc)
            continue
        documents[q.doc] = doc
        found[q.doc] = find_questions(doc)
    matched = {q.qid: match_question(q, found[q.doc]) for q in qrels}
    return PreparedQuestions(list(qrels), matched, documents, errors)


def build_index(blocks: Sequence[AnswerBlock], embedder: Any) -> AnswerIndex:
    """An ``AnswerIndex`` over the usable ``blocks`` (embedded with ``embedder``)."""
    usable = [b for b in blocks if b.usable]
    texts = [block_text(b) for b in usable]
    vectors = embedder.encode(texts)
    return AnswerIndex([b.id for b in usable], [b.title for b in usable], texts, vectors)


def evaluate_answers(
    prepared: PreparedQuestions,
    index: AnswerIndex,
    embedder: Any,
    modes: Sequence[str] = REWRITE_MODES,
    chain_config: ChainConfig | None = None,
    retrieval_config: RetrievalConfig | None = None,
    rewriter: Rewriter | None = None,
    on_rewrite: Callable[[str, RewrittenQuestion], None] | None = None,
) -> dict[str, dict[str, Any]]:
    """Metrics per rewrite mode (``on``: the chain; ``off``: the question as written).

    Returns ``{mode: {"recall_at_5", "hit_rate_at_5", "mrr_at_10", "ndcg_at_10",
    "questions", "found", "by_type": {type: {...}}, "per_question": [{"qid", "type",
    "found", "retrieved", "relevant", "confidence", "status", metrics...}]}}``
    (``confidence`` is a cosine in [-1, 1], ``status`` ``ok`` or ``needs SME``; both None
    for a question the parser did not find). ``on_rewrite`` sees each rewritten question.
    """
    retrieval_config = retrieval_config or RetrievalConfig()
    results: dict[str, dict[str, Any]] = {}
    for mode in modes:
        if mode not in REWRITE_MODES:
            raise ValueError(f"unknown rewrite mode {mode!r}; use on, off or both")
        rewritten: dict[str, RewrittenQuestion] = {}
        for q in prepared.qrels:
            question = prepared.matched[q.qid]
            if question is None:
                continue
            if mode == "off":
                rewritten[q.qid] = original_only(question)
            else:
                rewritten[q.qid] = rewrite_question(
                    question, prepared.documents[q.doc], rewriter, chain_config
                )
            if on_rewrite is not None:
                on_rewrite(q.qid, rewritten[q.qid])
        # one RFP's questions are retrieved together, as the question_answers asset does
        # (the hub step, retrieval.answers.demote_hubs, reads one RFP's questions)
        by_doc: dict[Path, list[str]] = defaultdict(list)
        for q in prepared.qrels:
            if q.qid in rewritten:
                by_doc[q.doc].append(q.qid)
        by_qid = {}
        for qids in by_doc.values():
            answers = retrieve_answers(
                index, [rewritten[qid].queries for qid in qids], embedder, retrieval_config
            )
            by_qid.update(zip(qids, answers, strict=True))
        rows: list[dict[str, float]] = []
        typed: dict[str, list[dict[str, float]]] = defaultdict(list)
        per_question: list[dict[str, Any]] = []
        for q in prepared.qrels:
            result = by_qid.get(q.qid)
            retrieved = [p.block_id for p in result.passages] if result else []
            scores = ranking_metrics(retrieved, q.relevant)
            rows.append(scores)
            typed[q.type].append(scores)
            per_question.append(
                {
                    "qid": q.qid,
                    "type": q.type,
                    "found": result is not None,
                    "retrieved": retrieved,
                    "relevant": q.relevant,
                    "confidence": result.confidence if result else None,
                    "status": result.status if result else None,
                    **{m: round(v, 4) for m, v in scores.items()},
                }
            )
        summary = _mean(rows)
        summary["found"] = sum(1 for p in per_question if p["found"])
        summary["by_type"] = {t: _mean(r) for t, r in sorted(typed.items())}
        summary["per_question"] = per_question
        results[mode] = summary
    return results
