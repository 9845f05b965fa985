"""Section L/M past-performance requirements of an RFP, as structured data.

``find_pp_requirements(doc)`` reads, sentence by sentence, the past-performance instructions
(Section L), evaluation factors (Section M) and any "References / Experience / Qualifications"
section, and returns what a proposal manager would put on the past-performance checklist, each
item with the section and sentence that states it:

- number of references ("submit three (3) past performance references"),
- recency window ("within the last five (5) years", "within 36 months of the RFP release
  date", "since FY2021", "at any time since January 1, 2022"), and whether it counts back from
  the proposal due date,
- contract value ("$10-30M", "between $30 million and $75 million", "at least $15 million",
  "below $2 million will not be considered relevant", "approximately $25M"),
- size other than dollars: FTE counts ("between three (3) and five (5) Full Time Equivalent
  (FTE) staff"), users ("serving at least a million users", "a user population of at least
  2,000 State or county staff"), workforce ("a workforce of at least 50,000 employees"),
  period of performance ("two (2) months to twelve (12) months"),
- customer types ("federal civilian agencies", "Department of Defense or other federal
  agencies", "federal, state or local government", "state Medicaid agency") and industries,
- relevance criteria (the sentences that say what makes a reference relevant),
- whether references must be as prime contractor,
- the minimum performed duration of work still in progress ("counts if at least one year
  has been performed").

Only past-performance sentences are read for value and size, so program budgets, NAICS size
standards or system user counts in the background never become filters. Dates are not
computed here: ``scope.reading.read_scope`` anchors the recency window on the issue date, the
proposal due date or ``as_of``.

Modules: ``records`` (the typed requirements), ``sentences`` (sentences with their section and
the past-performance cues), ``value`` (contract value), ``customers`` (customer types and
industries, allowed and excluded), ``readers`` (the other requirements).
"""

from __future__ import annotations

import re

from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.quantities.money import money_mentions
from rfp_retrieval.scope.section_lm.customers import read_customers
from rfp_retrieval.scope.section_lm.readers import (
    read_ongoing_minimum,
    read_prime,
    read_recency,
    read_references,
    read_relevance,
    read_sizes,
)
from rfp_retrieval.scope.section_lm.records import (
    APPROX_BAND,
    FEDERAL_CIVILIAN,
    FEDERAL_DEFENSE,
    GOVERNMENT_TYPES,
    CustomerConstraint,
    PastPerformanceRequirements,
    Recency,
    SizeConstraint,
    Statement,
    ValueRange,
)
from rfp_retrieval.scope.section_lm.sentences import (
    DONE_WINDOW,
    PERSONNEL,
    PP_STRONG,
    WORK_NOUN,
    DocumentSentence,
    document_sentences,
    pp_sentences,
)
from rfp_retrieval.scope.section_lm.value import read_value

__all__ = [
    "APPROX_BAND",
    "FEDERAL_CIVILIAN",
    "FEDERAL_DEFENSE",
    "GOVERNMENT_TYPES",
    "CustomerConstraint",
    "DocumentSentence",
    "PastPerformanceRequirements",
    "Recency",
    "SizeConstraint",
    "Statement",
    "ValueRange",
    "document_sentences",
    "find_pp_requirements",
    "money_mentions",
    "pp_sentences",
]


def find_pp_requirements(
    doc: RfpDocument, sentences: list[DocumentSentence] | None = None
) -> PastPerformanceRequirements:
    """The past-performance requirements stated in ``doc`` (Section L/M and PP sections).

    ``sentences`` may pass ``document_sentences(doc)`` when the caller has it already. Returns
    a ``PastPerformanceRequirements`` whose unset fields mean "not stated"; every set field
    carries the ``Statement`` (phrase, sentence, section) it was read from. Never raises for
    an unusual document.
    """
    sentences = document_sentences(doc) if sentences is None else sentences
    pp = pp_sentences(sentences)
    # recency may also sit in an experience paragraph without "reference" in it:
    # past-performance sentences first; then experience/work sentences whose window follows a
    # completion verb ("engagements ... within the past five years"), never "within 24 months
    # after contract award"
    recency_sentences = pp + [
        s
        for s in sentences
        if s not in pp
        and WORK_NOUN.search(s.text)
        and DONE_WINDOW.search(s.text)
        and not PERSONNEL.search(s.text)
    ]
    req = PastPerformanceRequirements()
    # a count of projects may sit in past-performance text that also names key personnel
    # ("2 to 3 projects involving ... the Key Personnel being put forward")
    read_references(pp + [s for s in sentences if s.pp and s not in pp], req)
    read_recency(recency_sentences, req)
    read_value(pp, req)
    read_customers(pp, req)
    read_prime(pp, req)
    read_ongoing_minimum(pp, req)
    size_sentences = pp + [
        s
        for s in sentences
        if s not in pp and re.search(r"similar size|similar experience|relevan", s.text, re.I)
    ]
    read_sizes(size_sentences, req)
    read_relevance([s for s in pp if s.pp or PP_STRONG.search(s.text)], req)
    return req
