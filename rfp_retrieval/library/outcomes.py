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

# A calendar or fiscal year ("in 2019", "FY2024") dates a result; it does not measure one.
_YEAR_RE = re.compile(r"\b(?:FY\s?)?(?:19|20)\d{2}\b", re.IGNORECASE)

ABBREVIATIONS = frozenset(
    {"e.g.", "i.e.", "etc.", "vs.", "no.", "approx.", "inc.", "dr.", "mr.", "ms.", "st.", "jr."}
)


def is_measurable(metric: str) -> bool:
    """True when a metric states a number, a number word, a percentage or a before/after
    (``from hours to minutes``); a year alone (``in 2019``, ``FY2024``) dates a result and
    does not count."""
    return bool(_MEASURABLE_RE.search(_YEAR_RE.sub(" ", metric)))


def is_vague(metrics: list[str], narrative: str = "") -> bool:
    """The vague-outcome flag (the one rule): True when the outcomes state no measurable
    result (``is_measurable``): judged on the metrics when there are any, else on the
    sentences of the outcome narrative.

    A result written as prose ("Reduced case processing time by 30%.", a cell with no list)
    is as measurable as a listed one (issue 18, defect 5: such a cell has no metric and was
    flagged vague). With a metric list, the narrative is context ("extended for two option
    years") and does not count. Verified against every record of ``canonical_dev.jsonl``;
    an entry with neither metrics nor narrative is vague.
    """
    texts = metrics if metrics else split_sentences(narrative or "")
    return not any(is_measurable(text) for text in texts)


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
            return Outcomes(metrics=[], narrative=first, vague=is_vague([], first))
    metrics = parse_metrics_block(first)
    narrative = "\n\n".join(rest)
    return Outcomes(metrics=metrics, narrative=narrative, vague=is_vague(metrics, narrative))


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
        return Outcomes(metrics=metrics, narrative=narrative, vague=is_vague(metrics, narrative))
    bullets = [p for p in paragraphs if all(_BULLET_RE.match(x) for x in p.split("\n"))]
    if bullets:
        prose = [join_markdown_lines(p) for p in paragraphs if p not in bullets]
        metrics = parse_metrics_block("\n".join(bullets))
        narrative = "\n\n".join(prose)
        return Outcomes(metrics=metrics, narrative=narrative, vague=is_vague(metrics, narrative))
    sentences = split_sentences(" ".join(paragraphs))
    if not sentences:
        return Outcomes(metrics=[], narrative="", vague=True)
    metrics = [s[:-1] if s.endswith(".") else s for s in sentences[1:]]
    return Outcomes(metrics=metrics, narrative=sentences[0], vague=is_vague(metrics, sentences[0]))


def join_markdown_lines(paragraph: str) -> str:
    """A Markdown paragraph as one line (hard-wrapped lines joined); lists keep their lines."""
    lines = paragraph.split("\n")
    if any(_BULLET_RE.match(line) for line in lines):
        return "\n".join(line.rstrip() for line in lines)
    return " ".join(line.strip() for line in lines)
