"""How completely the parser reads a labelled solicitation: outline F1, ask recall and
precision, past-performance fields (``rfp-retrieval eval parse``).

Truth file: JSONL, one document a line (the format of ``parse_truth_dev.jsonl``): ``doc`` (a
file name, found next to the JSONL, in its ``rfps/`` folder, or as given), ``sections`` (each
with ``number`` as printed or None and ``heading``), ``questions`` (each with ``text``, ``kind``
in ``instruction | question | table-row | requirement`` and optional ``borderline``), and
``past_performance`` (``references_required``, ``recency_years``, ``value_min``, ``value_max``).

Matching rules (the definitions of issue 13, made exact here; one place):

- **Section.** A parsed section matches a labelled one when both numbers normalise to the same
  label (``normal_number``: case folded, ``Section``/``Sec.``/``Article``/``Part``/``Addendum``
  dropped (``ADDENDUM L`` is UCF section ``L``),
  surrounding brackets and a trailing ``.``/``)`` dropped) and the headings (``normal_text``) are
  at least ``NUMBERED_HEADING_SIMILARITY`` similar (rapidfuzz ``fuzz.ratio`` / 100; a labelled
  empty heading matches any); or, both unnumbered, at least ``UNNUMBERED_HEADING_SIMILARITY``.
  Matching is one-to-one, in document order: each labelled section takes the first unused
  parsed section after the previous match that qualifies, else the first unused one before it.
  The parser's level-0 root (the document title, ``outline``) is not a section of the outline
  and is not scored; the labels give the title apart from the sections.
- **Ask.** A parsed ask matches a labelled one when their ``normal_text`` forms are at least
  ``ASK_SIMILARITY`` similar (``fuzz.ratio``), or the shorter is at least ``ASK_MIN_SHARE`` of
  the longer's length and ``fuzz.partial_ratio`` >= ``ASK_PARTIAL_SIMILARITY`` (a row that cut or
  ran on a sentence). One-to-one, best score first. The parsed asks are the compliance-matrix
  rows (``documents.matrix.matrix_rows``: a compound ask's prompt and each of its list items
  are rows of their own) of the ask kinds (``ASK_KINDS``): post-award work statements are rows
  but not asks.
- **Borderline.** A ``borderline`` labelled ask that is not found is no miss (left out of the
  recall denominator); one that is found counts as a hit; a parsed ask matching it is correct.
- **Kinds.** Recall is given per labelled kind, precision per parsed kind (the parser's own
  names: ``question``, ``requirement``, ``table-row``, ``evaluation-criterion``).
- **PP fields.** ``PP_FIELDS`` of the labels compared for equality with ``read_scope``'s
  reading (None equals None); the score is the share of equal fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from rfp_retrieval.eval.jsonl import read_objects

NUMBERED_HEADING_SIMILARITY = 0.6
"""A numbered section's heading must be this similar to the label's (issue 13)."""
UNNUMBERED_HEADING_SIMILARITY = 0.85
"""An unnumbered section's heading must be this similar to the label's (issue 13)."""
ASK_SIMILARITY = 0.8
"""Whole-text similarity at which a parsed ask is the labelled one."""
ASK_PARTIAL_SIMILARITY = 0.9
"""Partial (best-window) similarity for a parsed ask that cut or ran on the labelled text."""
ASK_MIN_SHARE = 0.5
"""The shorter text must be at least this share of the longer for a partial match."""
PP_FIELDS = ("references_required", "recency_years", "value_min", "value_max")
"""Past-performance requirement fields compared with the labels."""


PP_LABEL_KEYS = frozenset(
    {
        *PP_FIELDS,
        "recency",
        "value_constraint",
        "size_constraints",
        "customer_constraint",
        "relevance_criteria",
        "relevance_examples",
        "stated_in",
        "references_max",
        "references_qualifier",
        "min_experience_years",
        "role_constraint",
        "case_studies_required",
    }
)
"""Every key a truth line's ``past_performance`` object may hold: a key outside it is a typo
(``recency_yrs``) that would silently score as "not labelled"."""


class ParseTruthError(ValueError):
    """A truth-file line is malformed (names the file and line)."""


@dataclass(frozen=True)
class TruthDoc:
    """One labelled document of a truth file."""

    doc: str
    path: Path
    sections: list[dict[str, Any]]
    asks: list[dict[str, Any]]
    past_performance: dict[str, Any] = field(default_factory=dict)


def load_truth(path: Path) -> list[TruthDoc]:
    """Read a parse-truth JSONL file; each ``doc`` is resolved to a file.

    The document is looked for next to the JSONL, in its ``rfps/`` folder, then as given. A
    byte-order mark (as Notepad and Excel save UTF-8) is allowed; blank lines are skipped.
    Shape of a line: ``{"doc": str, "sections": [{"number", "heading", ...}], "questions":
    [{"text", "kind", "borderline"?}], "past_performance": {...} | null}``.

    Raises:
        ParseTruthError: the file is not UTF-8 or holds no truth line; a line is not JSON,
            lacks ``doc``/``sections``/``questions`` or gives them the wrong type (a question
            without text, a ``past_performance`` key outside ``PP_LABEL_KEYS`` or a scored field
            that is not a number); a document is listed twice; or a document cannot be found.
            The message names the file and line.
    """
    path = Path(path)
    docs: list[TruthDoc] = []
    seen: dict[str, int] = {}
    for number, item in read_objects(path, ParseTruthError, "truth"):
        where = f"{path}:{number}"
        name, sections, asks, pp = _truth_fields(item, where)
        if name in seen:
            raise ParseTruthError(f"{where}: document {name!r} is listed twice (line {seen[name]})")
        seen[name] = number
        candidates = [path.parent / name, path.parent / "rfps" / name, Path(name)]
        found = next((c for c in candidates if c.is_file()), None)
        if found is None:
            raise ParseTruthError(f"{where}: document {name!r} not found")
        docs.append(TruthDoc(name, found, sections, asks, pp))
    return docs


def _truth_fields(item: Any, where: str) -> tuple[str, list[dict], list[dict], dict[str, Any]]:
    """``(doc, sections, questions, past_performance)`` of one decoded truth line, checked.

    Raises:
        ParseTruthError: a field is missing or of the wrong type (names ``where`` and the field).
    """
    if not isinstance(item, dict):
        raise ParseTruthError(f"{where}: a truth line is a JSON object, got {type(item).__name__}")
    missing = [key for key in ("doc", "sections", "questions") if key not in item]
    if missing:
        raise ParseTruthError(f"{where}: bad truth line (missing {', '.join(missing)})")
    name = item["doc"]
    if not isinstance(name, str) or not name.strip():
        raise ParseTruthError(f"{where}: 'doc' must be a file name, got {name!r}")
    for key, need in (("sections", ("number", "heading")), ("questions", ("text",))):
        value = item[key]
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ParseTruthError(f"{where}: '{key}' must be a list of objects")
        for index, entry in enumerate(value, start=1):
            for field_name in need:
                got = entry.get(field_name)
                if got is not None and not isinstance(got, str):
                    raise ParseTruthError(
                        f"{where}: {key}[{index}].{field_name} must be text or null, got {got!r}"
                    )
            if key == "questions" and not (entry.get("text") or "").strip():
                raise ParseTruthError(
                    f"{where}: questions[{index}].text must be the ask's text, "
                    f"got {entry.get('text')!r}"
                )
    pp = item.get("past_performance") or {}
    if not isinstance(pp, dict):
        raise ParseTruthError(f"{where}: 'past_performance' must be an object or null")
    _check_pp_labels(pp, where)
    return name, list(item["sections"]), list(item["questions"]), pp


def _check_pp_labels(pp: dict[str, Any], where: str) -> None:
    """Refuse a ``past_performance`` object with a key outside ``PP_LABEL_KEYS`` or a scored
    field (``PP_FIELDS``) that is not a number or null (``references_required`` a whole
    number): ``"three"`` or ``recency_yrs`` would score as a miss instead of a label error.

    Raises:
        ParseTruthError: naming ``where`` (file:line) and the field.
    """
    unknown = sorted(set(pp) - PP_LABEL_KEYS)
    if unknown:
        raise ParseTruthError(
            f"{where}: past_performance.{unknown[0]} is not a label field "
            f"(scored: {', '.join(PP_FIELDS)})"
        )
    for name in PP_FIELDS:
        value = pp.get(name)
        whole = name == "references_required"
        number = isinstance(value, int) if whole else isinstance(value, (int, float))
        if value is not None and (isinstance(value, bool) or not number):
            need = "a whole number" if whole else "a number"
            raise ParseTruthError(
                f"{where}: past_performance.{name} must be {need} or null, got {value!r}"
            )


_NUMBER_WORD = re.compile(r"^(?:section|sec\.?|article|art\.?|part|item|addendum)\s+", re.I)


def normal_number(number: str | None) -> str | None:
    """A section number for comparison: ``Sec. 1.04`` -> ``1.04``, ``(a)`` -> ``a``, ``IV.`` ->
    ``iv``; None or blank -> None."""
    if number is None:
        return None
    text = _NUMBER_WORD.sub("", str(number).strip()).strip()
    text = text.strip("()[]").rstrip(".)").strip().casefold()
    return text or None


_MARKUP = re.compile(r"[*_`#>|]+")
_NON_WORD = re.compile(r"[^\w]+")


def normal_text(text: str | None) -> str:
    """Text for comparison: markup and punctuation dropped, case folded, spaces collapsed."""
    text = _MARKUP.sub(" ", text or "")
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


def heading_similarity(a: str | None, b: str | None) -> float:
    """``fuzz.ratio`` of the normalised headings, in [0, 1]."""
    return fuzz.ratio(normal_text(a), normal_text(b)) / 100.0


def section_matches(truth: dict[str, Any], parsed: dict[str, Any]) -> bool:
    """The section rule of the module docstring."""
    t_num, p_num = normal_number(truth.get("number")), normal_number(parsed.get("number"))
    if t_num != p_num:
        return False
    if t_num is None:
        return heading_similarity(truth.get("heading"), parsed.get("heading")) >= (
            UNNUMBERED_HEADING_SIMILARITY
        )
    if not normal_text(truth.get("heading")):
        return True
    return heading_similarity(truth.get("heading"), parsed.get("heading")) >= (
        NUMBERED_HEADING_SIMILARITY
    )


def match_sections(truth: list[dict], parsed: list[dict]) -> list[tuple[int, int]]:
    """One-to-one (truth index, parsed index) pairs, in document order (module docstring)."""
    used: set[int] = set()
    pairs = []
    last = -1
    for ti, t in enumerate(truth):
        order = list(range(last + 1, len(parsed))) + list(range(0, last + 1))
        for pi in order:
            if pi not in used and section_matches(t, parsed[pi]):
                used.add(pi)
                pairs.append((ti, pi))
                last = pi
                break
    return pairs


def ask_score(a: str, b: str) -> float:
    """Similarity in [0, 1] of two ask texts under the ask rule (0 when they do not match)."""
    x, y = normal_text(a), normal_text(b)
    if not x or not y:
        return 0.0
    whole = fuzz.ratio(x, y) / 100.0
    if whole >= ASK_SIMILARITY:
        return whole
    short, long_ = sorted((x, y), key=len)
    if len(short) >= ASK_MIN_SHARE * len(long_):
        part = fuzz.partial_ratio(short, long_) / 100.0
        if part >= ASK_PARTIAL_SIMILARITY:
            return part
    return 0.0


def match_asks(truth: list[str], parsed: list[str]) -> list[tuple[int, int]]:
    """One-to-one (truth index, parsed index) pairs, best score first."""
    scored = []
    for ti, t in enumerate(truth):
        for pi, p in enumerate(parsed):
            s = ask_score(t, p)
            if s > 0:
                scored.append((-s, ti, pi))
    scored.sort()
    used_t: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, ti, pi in scored:
        if ti in used_t or pi in used_p:
            continue
        used_t.add(ti)
        used_p.add(pi)
        pairs.append((ti, pi))
    return sorted(pairs)


def _ratio(num: int, den: int) -> float | None:
    return round(num / den, 4) if den else None


def _f1(p: float | None, r: float | None) -> float | None:
    if p is None or r is None:
        return None
    return round(2 * p * r / (p + r), 4) if p + r else 0.0


@dataclass
class Counts:
    """Raw counts behind the scores of one document (summed for the overall figures)."""

    sections_truth: int = 0
    sections_parsed: int = 0
    sections_matched: int = 0
    asks_truth: dict[str, int] = field(default_factory=dict)  # by labelled kind, non-borderline
    asks_found: dict[str, int] = field(default_factory=dict)  # by labelled kind, all found
    asks_parsed: dict[str, int] = field(default_factory=dict)  # by parsed kind
    asks_correct: dict[str, int] = field(default_factory=dict)  # by parsed kind
    borderline_found: dict[str, int] = field(default_factory=dict)  # by labelled kind
    pp_fields: int = 0
    pp_equal: int = 0

    def add(self, other: Counts) -> None:
        """Add ``other``'s counts to these."""
        self.sections_truth += other.sections_truth
        self.sections_parsed += other.sections_parsed
        self.sections_matched += other.sections_matched
        for name in ("asks_truth", "asks_found", "asks_parsed", "asks_correct", "borderline_found"):
            mine = getattr(self, name)
            for k, v in getattr(other, name).items():
                mine[k] = mine.get(k, 0) + v
        self.pp_fields += other.pp_fields
        self.pp_equal += other.pp_equal

    def scores(self) -> dict[str, Any]:
        """Shape: ``{"section": {precision, recall, f1, truth, parsed, matched}, "asks":
        {recall, precision, recall_by_kind, precision_by_kind, truth, found, parsed, correct},
        "pp_fields": share}``; a ratio with an empty denominator is None."""
        sp = _ratio(self.sections_matched, self.sections_parsed)
        sr = _ratio(self.sections_matched, self.sections_truth)
        kinds = sorted(set(self.asks_truth) | set(self.asks_found))
        den = {k: self.asks_truth.get(k, 0) + self.borderline_found.get(k, 0) for k in kinds}
        found, truth = sum(self.asks_found.values()), sum(den.values())
        parsed, correct = sum(self.asks_parsed.values()), sum(self.asks_correct.values())
        return {
            "section": {
                "precision": sp,
                "recall": sr,
                "f1": _f1(sp, sr),
                "truth": self.sections_truth,
                "parsed": self.sections_parsed,
                "matched": self.sections_matched,
            },
            "asks": {
                "recall": _ratio(found, truth),
                "precision": _ratio(correct, parsed),
                "recall_by_kind": {k: _ratio(self.asks_found.get(k, 0), den[k]) for k in kinds},
                "precision_by_kind": {
                    k: _ratio(self.asks_correct.get(k, 0), n)
                    for k, n in sorted(self.asks_parsed.items())
                },
                "truth": truth,
                "found": found,
                "parsed": parsed,
                "correct": correct,
            },
            "pp_fields": _ratio(self.pp_equal, self.pp_fields),
        }


def score_document(
    truth: TruthDoc,
    sections: list[dict[str, Any]],
    asks: list[dict[str, Any]],
    pp: dict[str, Any],
    readable: bool = True,
) -> Counts:
    """Counts for one document. ``sections``: ``{number, heading}`` dicts; ``asks``: ``{text,
    kind}`` dicts; ``pp``: the parsed ``PP_FIELDS`` values. ``readable=False`` (the parser
    could not read the file): no PP field counts as equal, even where the truth is null and
    the empty reading is too."""
    counts = Counts()
    counts.sections_truth = len(truth.sections)
    counts.sections_parsed = len(sections)
    counts.sections_matched = len(match_sections(truth.sections, sections))
    pairs = match_asks([a.get("text") or "" for a in truth.asks], [a["text"] for a in asks])
    found_t = {ti for ti, _ in pairs}
    correct_p = {pi for _, pi in pairs}
    for ti, ask in enumerate(truth.asks):
        kind = ask.get("kind") or "unknown"
        if ask.get("borderline"):
            if ti in found_t:
                counts.borderline_found[kind] = counts.borderline_found.get(kind, 0) + 1
        else:
            counts.asks_truth[kind] = counts.asks_truth.get(kind, 0) + 1
        if ti in found_t:
            counts.asks_found[kind] = counts.asks_found.get(kind, 0) + 1
    for pi, ask in enumerate(asks):
        kind = ask.get("kind") or "unknown"
        counts.asks_parsed[kind] = counts.asks_parsed.get(kind, 0) + 1
        if pi in correct_p:
            counts.asks_correct[kind] = counts.asks_correct.get(kind, 0) + 1
    if truth.past_performance:
        for name in PP_FIELDS:
            counts.pp_fields += 1
            same = truth.past_performance.get(name) == pp.get(name)
            counts.pp_equal += int(readable and same)
    return counts


def read_parsed(path: Path) -> tuple[list[dict], list[dict], dict[str, Any]]:
    """The parser's reading of one file: (sections, asks, PP fields).

    Raises:
        DocumentError: the file cannot be read.
    """
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.documents.matrix import ASK_KINDS, matrix_rows
    from rfp_retrieval.documents.questions import find_questions
    from rfp_retrieval.scope import as_of_for, read_scope

    doc = load_document(path)
    sections = [{"number": s.number, "heading": s.heading} for s in doc.sections if s.level > 0]
    asks = [
        {"text": row.text, "kind": row.kind}
        for row in matrix_rows(doc, find_questions(doc))
        if row.kind in ASK_KINDS
    ]
    reading = read_scope(doc, as_of=as_of_for(doc).date)
    pp = {name: getattr(reading, name, None) for name in PP_FIELDS}
    return sections, asks, pp


def evaluate_parse(truth: list[TruthDoc]) -> dict[str, Any]:
    """Scores per document and overall. Shape: ``{"documents": [{"doc", "error", **scores}],
    "overall": scores}`` (``Counts.scores``). A document the parser cannot read (a
    ``DocumentError``) names its error and scores 0 on every headline figure (section
    precision/recall/F1, ask recall/precision, PP fields): its nulls never match the truth's
    nulls. In ``overall`` it counts as nothing parsed and no PP field right."""
    from rfp_retrieval.documents.records import DocumentError

    total = Counts()
    rows = []
    for item in truth:
        error = None
        try:
            sections, asks, pp = read_parsed(item.path)
        except DocumentError as exc:
            sections, asks, pp, error = [], [], {}, str(exc)
        counts = score_document(item, sections, asks, pp, readable=error is None)
        total.add(counts)
        scores = counts.scores()
        if error is not None:
            for key in ("precision", "recall", "f1"):
                scores["section"][key] = 0.0
            scores["asks"]["recall"] = scores["asks"]["precision"] = 0.0
            scores["pp_fields"] = 0.0
        rows.append({"doc": item.doc, "error": error, **scores})
    return {"documents": rows, "overall": total.scores()}
