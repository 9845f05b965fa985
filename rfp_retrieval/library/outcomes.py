"""Outcome metrics and narrative, from a spreadsheet cell or a write-up's Results section.

The vague-outcome rule lives here too (seed 1 ranks on the outcome facet, so an entry whose
metrics carry no measurable result is flagged for the writer).
"""

from __future__ import annotations

import re

from rfp_retrieval.library.records import Outcomes

_BULLET_RE = re.compile(r"^\s*(?:[•·▪◦*]|-(?!-)|–)\s*")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# A ";" starts a new metric only when the next one starts like a metric (capital or digit):
# "Zero high or critical findings at ATO; moderate ATO granted in 11 weeks" stays one (PP-045).
_METRIC_SEMICOLON = re.compile(r";\s*(?=[A-Z0-9$~<>])")
_KEY_RESULTS_RE = re.compile(r"^\s*\**\s*key (?:results|outcomes|metrics)\s*:?\s*\**\s*$", re.I)

# Measurable: a digit, a number word, a percentage, or an explicit before/after.
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    "fifty|hundred|thousand|million|billion|dozen|half|double|doubled|twice|triple|tripled|"
    "percent|percentage points?"
)
_MEASURABLE_RE = re.compile(
    rf"\d|\b(?:{_NUMBER_WORDS})\b|%"
    r"|\bfrom\s+(?:\w+\s+){0,3}?(?:seconds|minutes|hours|days|weeks|months|years)\s+to\s+",
    re.IGNORECASE,
)

ABBREVIATIONS = frozenset(
    {"e.g.", "i.e.", "etc.", "vs.", "no.", "approx.", "inc.", "dr.", "mr.", "ms.", "st.", "jr."}
)


def is_measurable(metric: str) -> bool:
    """True when a metric states a number, a number word, a percentage or a before/after
    (``from hours to minutes``)."""
    return bool(_MEASURABLE_RE.search(metric))


def is_vague(metrics: list[str]) -> bool:
    """The vague-outcome flag: True when no metric is measurable (``is_measurable``).

    Verified against every record of ``canonical_dev.jsonl``; an entry with no metrics is vague.
    """
    return not any(is_measurable(metric) for metric in metrics)


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph: split after ``.``/``!``/``?`` before a capital or digit, except
    after abbreviations (``e.g.``) and initials (``U.S.``)."""
    text = " ".join(text.split())
    sentences: list[str] = []
    start = 0
    for match in re.finditer(r"[.!?][\"')\]]*\s+(?=[A-Z0-9\"'(])", text):
        candidate = text[start : match.end()].strip()
        last_word = candidate.rsplit(" ", 1)[-1].lower()
        if last_word in ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+", last_word):
            continue
        sentences.append(candidate)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences


def _paragraphs(text: str) -> list[str]:
    return [p.strip() for p in _PARAGRAPH_BREAK.split(text.replace("\r\n", "\n")) if p.strip()]


def _bullet_items(lines: list[str]) -> list[str]:
    """Bullet lines as items; a line without a bullet continues the previous item."""
    items: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        if _BULLET_RE.match(line) or not items:
            items.append(_BULLET_RE.sub("", line, count=1).strip())
        else:
            items[-1] = f"{items[-1]} {line.strip()}"
    return [item for item in items if item]


def parse_metrics_block(block: str) -> list[str]:
    """Metrics from a block: bullet lines (``•``, ``-``, ``*``), each kept whole (internal ``;``
    stays), or ``;``-separated items (``_METRIC_SEMICOLON``), one line or several."""
    lines = [line for line in block.replace("\r\n", "\n").split("\n") if line.strip()]
    if any(_BULLET_RE.match(line) for line in lines):
        return _bullet_items(lines)
    metrics: list[str] = []
    for line in lines:
        metrics.extend(part.strip() for part in _METRIC_SEMICOLON.split(line) if part.strip())
    return metrics


def parse_outcomes_cell(text: str | None) -> Outcomes:
    """Outcomes from the spreadsheet's ``Results / Outcomes`` cell.

    Metrics come before the first blank line (``;``-separated or bullet lines), the narrative
    after it (later paragraphs joined by a blank line). A cell without a blank line is all
    metrics when it is a bullet list or ``;``-separated, else all narrative.
    """
    paragraphs = _paragraphs(text or "")
    if not paragraphs:
        return Outcomes(metrics=[], narrative="", vague=True)
    first, rest = paragraphs[0], paragraphs[1:]
    if not rest:
        lines = first.split("\n")
        looks_like_metrics = any(_BULLET_RE.match(line) for line in lines) or ";" in first
        if not looks_like_metrics:
            return Outcomes(metrics=[], narrative=first, vague=True)
    metrics = parse_metrics_block(first)
    return Outcomes(metrics=metrics, narrative="\n\n".join(rest), vague=is_vague(metrics))


def parse_results_section(text: str | None) -> Outcomes:
    """Outcomes from a write-up's ``## Results`` section.

    With a ``Key results:`` line: the paragraphs before it are the narrative and the bullet list
    after it the metrics. Without one, a bullet list anywhere is the metrics and the prose the
    narrative; prose alone (PP-160) gives the first sentence as the narrative and each further
    sentence as a metric (its final period dropped).
    """
    paragraphs = _paragraphs(text or "")
    key_at = next((k for k, p in enumerate(paragraphs) if _KEY_RESULTS_RE.match(p)), None)
    if key_at is not None:
        narrative = "\n\n".join(join_markdown_lines(p) for p in paragraphs[:key_at])
        metrics = parse_metrics_block("\n".join(paragraphs[key_at + 1 :]))
        return Outcomes(metrics=metrics, narrative=narrative, vague=is_vague(metrics))
    bullets = [p for p in paragraphs if all(_BULLET_RE.match(x) for x in p.split("\n"))]
    if bullets:
        prose = [join_markdown_lines(p) for p in paragraphs if p not in bullets]
        metrics = parse_metrics_block("\n".join(bullets))
        return Outcomes(metrics=metrics, narrative="\n\n".join(prose), vague=is_vague(metrics))
    sentences = split_sentences(" ".join(paragraphs))
    if not sentences:
        return Outcomes(metrics=[], narrative="", vague=True)
    metrics = [s[:-1] if s.endswith(".") else s for s in sentences[1:]]
    return Outcomes(metrics=metrics, narrative=sentences[0], vague=is_vague(metrics))


def join_markdown_lines(paragraph: str) -> str:
    """A Markdown paragraph as one line (hard-wrapped lines joined); lists keep their lines."""
    lines = paragraph.split("\n")
    if any(_BULLET_RE.match(line) for line in lines):
        return "\n".join(line.rstrip() for line in lines)
    return " ".join(line.strip() for line in lines)
