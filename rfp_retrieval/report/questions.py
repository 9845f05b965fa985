"""The questions of an RFP as the brief shows them: rewrite, query set, passages, SME flag."""

from __future__ import annotations

import json
import re
from typing import Any

import polars as pl

from rfp_retrieval.retrieval.answers import NEEDS_SME, PAST_PERFORMANCE
from rfp_retrieval.rewrite.terms import STOPWORDS, words

ANSWERED_BY_REFERENCES = (
    "a past-performance ask: answer it with the references picked above, not with "
    "answer-library passages"
)
"""What the brief says for an ask with the ``past performance`` status (issue 15: "Offerors
shall provide three (3) references" was answered from the answer library)."""

_SECTION_NUMBER = re.compile(
    r"^\s*(?:(?:Section|Part|Article|Volume|Factor|Attachment|Appendix|Exhibit)\s+)?"
    r"(?P<n>(?:[A-Z]{1,3}|[0-9]+|[IVXLC]+)(?:\.[A-Z0-9]+)*)\.?(?=[\s—–:-]|$)"
)
_LOCAL_LABEL = re.compile(r"^\(?(?:[0-9]{1,3}|[a-z]{1,2}|[ivxlc]{1,6}|[A-Z])[.)]?$")


def full_label(label: str | None, section_path: list[str], repeated: bool = False) -> str | None:
    """The label a proposal answer is cited by: a local item marker ("(ii)", "a.", "(1)")
    prefixed with the number of the nearest numbered section above it ("III.B (ii)",
    "L.5.3.2 (1)"; issue 15: "the section numbers the RFP asks answers to be labelled with").

    A label that is already a section number ("3.1.4", "L.4.2.1", "CCM-01") is returned as
    is, unless ``repeated`` (the RFP uses it more than once: "Q1" restarting in every
    section), which prefixes it too; without a label, the section number alone; None when
    neither exists.
    """
    number = None
    for heading in reversed(section_path or []):
        m = _SECTION_NUMBER.match(heading or "")
        if m and (any(ch.isdigit() for ch in m.group("n")) or "." in m.group("n")):
            number = m.group("n")
            break
    if not label:
        return number
    local = repeated or _LOCAL_LABEL.match(label.strip())
    if number and local and not label.startswith(number):
        return f"{number} {label.strip()}"
    return label


def compound_items(questions: pl.DataFrame | None, question_id: str) -> list[dict[str, str]]:
    """The list items of question ``question_id`` in the ``rfp_questions`` frame
    (``documents.tables.questions_frame``) as ``[{label, text}]`` with the compliance
    matrix's labels (``matrix.part_label_of``); [] when the frame or the row is missing."""
    from rfp_retrieval.documents.matrix import part_label_of
    from rfp_retrieval.documents.tables import questions_from_frame

    if questions is None or "id" not in questions.columns or "parts" not in questions.columns:
        return []
    rows = questions.filter(pl.col("id") == question_id)
    if rows.is_empty():
        return []
    q = questions_from_frame(rows)[0]
    return [{"label": part_label_of(q, k), "text": part} for k, part in enumerate(q.parts)]


def meaningful_queries(queries: list[str]) -> list[str]:
    """The query variants worth showing a writer, in order: duplicates (case and spacing
    ignored), keyword-only forms (no function word left: "caseworkers training metrics
    adoption") and variants that add no word the ones before lacked are left out. The full
    set stays in the ``rewritten_questions`` table."""
    shown: list[str] = []
    seen_words: set[str] = set()
    for text in queries:
        tokens = [w.lower() for w in words(text)]
        if not tokens:
            continue
        if any(" ".join(text.lower().split()) == " ".join(s.lower().split()) for s in shown):
            continue
        if shown and not any(t in STOPWORDS for t in tokens):
            continue
        new = set(tokens) - STOPWORDS
        if shown and new <= seen_words:
            continue
        shown.append(text)
        seen_words |= new
    return shown


def question_views(
    rewritten: pl.DataFrame | None,
    answers: pl.DataFrame | None,
    questions: pl.DataFrame | None = None,
) -> list[dict[str, Any]] | None:
    """Per question: label, text, section path, rewrite, query set, status and passages.

    ``rewritten`` / ``answers`` are the partition's ``rewritten_questions`` and
    ``question_answers`` frames (None when the answer pipeline has not run). Missing columns
    are tolerated. Returns None when both frames are None, [] when they hold no question.
    Each passage is ``{rank, block_id, title, score}``; ``needs_sme`` is True when the
    retrieval status says so; ``past_performance`` is True for an ask for references
    (status ``past performance``, ``retrieval.answers.is_past_performance_ask``): its
    ``passages`` are left out (the brief points it to the references instead, wording
    ``ANSWERED_BY_REFERENCES``; the ``question_answers`` table keeps them). ``label`` is
    the citation label (``full_label``: "III.B (ii)"), ``item_label`` the label as printed;
    ``queries`` the variants worth showing (``meaningful_queries``), ``all_queries`` the
    whole query set. ``questions`` is the ``rfp_questions`` frame (optional): a compound
    ask's list items become ``items`` (``[{label, text}]``, labelled with the document's own
    numbers as in the compliance matrix, ``matrix.part_label_of``; issue 13), else ``items`` is [].
    """
    if rewritten is None and answers is None:
        return None
    views: dict[str, dict[str, Any]] = {}

    def view(qid: str) -> dict[str, Any]:
        return views.setdefault(
            qid,
            {
                "question_id": qid,
                "label": None,
                "item_label": None,
                "question": None,
                "section_path": [],
                "rewrite": None,
                "skipped": None,
                "queries": [],
                "all_queries": [],
                "status": None,
                "confidence": None,
                "needs_sme": False,
                "past_performance": False,
                "passages": [],
                "items": [],
            },
        )

    for row in (rewritten if rewritten is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["item_label"] = row.get("label")
        v["section_path"] = list(row.get("section_path") or [])
        v["label"] = full_label(row.get("label"), v["section_path"])
        v["question"] = row.get("original")
        v["rewrite"] = row.get("rewrite")
        v["skipped"] = row.get("skipped")
        try:
            queries = json.loads(row.get("queries") or "[]")
        except json.JSONDecodeError:
            queries = []
        v["all_queries"] = [q.get("text") if isinstance(q, dict) else str(q) for q in queries]
        v["queries"] = meaningful_queries(v["all_queries"])
    for row in (answers if answers is not None else pl.DataFrame()).iter_rows(named=True):
        if not row.get("question_id"):
            continue
        v = view(row["question_id"])
        v["label"] = v["label"] or row.get("label")
        v["question"] = v["question"] or row.get("question")
        v["status"] = row.get("status")
        v["confidence"] = row.get("confidence")
        v["needs_sme"] = row.get("status") == NEEDS_SME
        v["past_performance"] = row.get("status") == PAST_PERFORMANCE
        if row.get("block_id") and not v["past_performance"]:
            v["passages"].append(
                {
                    "rank": row.get("rank"),
                    "block_id": row["block_id"],
                    "title": row.get("title"),
                    "score": row.get("score"),
                }
            )
    for v in views.values():
        v["items"] = compound_items(questions, v["question_id"])
    printed = [v["item_label"] for v in views.values() if v["item_label"]]
    for v in views.values():
        if v["item_label"] and printed.count(v["item_label"]) > 1:
            v["label"] = full_label(v["item_label"], v["section_path"], repeated=True)
    for v in views.values():
        v["passages"].sort(key=lambda p: p["rank"] if p["rank"] is not None else 1_000_000)
    return list(views.values())
