"""The ranking texts of a scope (narrative, technical, outcome) and its domain emphasis.

Which sections feed each text is the section classifier's (``documents.section_kinds``):
background headings and the work units (``scope.units.scope_units``) make the narrative, the
work units the technical text; outcome sentences and the domain emphasis come from the
statement-of-work and Section M (emphasis rule) sections.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.summary import prose
from rfp_retrieval.scope.emphasis import EMPHASIS_WEIGHTS, domain_emphasis
from rfp_retrieval.scope.section_lm import DocumentSentence
from rfp_retrieval.scope.units import scope_units, work_prose

if TYPE_CHECKING:
    from rfp_retrieval.scope.reading import ScopeReading

NARRATIVE_WORDS = 250
TECHNICAL_WORDS = 400
OUTCOME_WORDS = 150
"""Word caps of the ranking texts (the bundled embedding model reads about 256 tokens)."""

_OUTCOME = re.compile(
    r"\d+(?:\.\d+)?\s*(?:percent|%)|\bfrom\b[^.]{0,40}\bto\b[^.]{0,20}\d|\breduc|\bincreas|"
    r"\bimprov|\btargets?\b|\bgoals?\b|\boutcomes?\b|\bwithin \w+ (?:hours|days|weeks|minutes)|"
    r"\bunder (?:\w+ )?(?:hours|minutes|seconds|days)",
    re.I,
)


def _cap_words(text: str, n: int) -> str:
    words = text.split()
    return " ".join(words[:n])


def ranking_texts(
    doc: RfpDocument, sentences: list[DocumentSentence], reading: ScopeReading
) -> None:
    """Set ``reading``'s narrative, technical and outcome texts (capped at ``NARRATIVE_WORDS``,
    ``TECHNICAL_WORDS``, ``OUTCOME_WORDS`` words), ``emphasized_domains`` and
    ``domain_weights`` (``scope.emphasis.domain_emphasis``)."""
    kinds = SectionKinds(doc)
    background = [s for s in doc.sections if kinds.is_background(s)]
    scope = [s for s in doc.sections if kinds.is_statement_of_work(s)]
    evaluation = [s for s in doc.sections if kinds.is_evaluation_emphasis(s)]

    units = [text for _, text in scope_units(doc)]
    narrative = [doc.title] + [work_prose(s.body) for s in background[:2]] + units
    reading.narrative_text = _cap_words(" ".join(p for p in narrative if p), NARRATIVE_WORDS)
    reading.technical_text = _cap_words(" ".join(units), TECHNICAL_WORDS)

    outcome_sentences: list[str] = []
    for s in sentences:
        if s.cell or s.section is None or (s.section not in scope and s.section not in evaluation):
            continue
        if _OUTCOME.search(s.text) and s.text not in outcome_sentences:
            outcome_sentences.append(s.text)
    reading.outcome_text = _cap_words(" ".join(outcome_sentences), OUTCOME_WORDS)

    # emphasis: the title counts most, then scope sections by length (the first subsections
    # more), then Section M; cross-cutting domains weigh less beside a mission domain
    scope_text = " ".join(prose(s.body) + " " + s.heading for s in scope) or reading.narrative_text
    eval_text = " ".join(prose(s.body) for s in evaluation)
    lead = [s for s in scope if prose(s.body).strip()][: EMPHASIS_WEIGHTS.lead_sections]
    lead_text = " ".join(prose(s.body) + " " + s.heading for s in lead)
    emphasized, weights = domain_emphasis(
        doc.title, scope_text, eval_text, EMPHASIS_WEIGHTS, lead_text
    )
    if weights:
        reading.emphasized_domains = emphasized
        reading.domain_weights = weights
