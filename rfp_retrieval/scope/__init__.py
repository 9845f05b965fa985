"""Read the ScopeQuery of an RFP: who issued it, the past-performance filters it states, and
the texts the facet ranking embeds (seed 1: ScopeQuery filters and ranking facets).

``read_scope`` works on an extracted ``RfpDocument``. The past-performance requirements come
from ``scope.section_lm.find_pp_requirements``, which reads, sentence by sentence, the
past-performance instructions (Section L), evaluation factors (Section M) and any
"References / Experience / Qualifications" section:

- number of references ("submit three (3) past performance references"),
- recency ("within the last five (5) years", "within 36 months of the RFP release date",
  "since FY2021", "at any time since January 1, 2022") -> ``ended_after``,
- contract value ("$10-30M", "between $30 million and $75 million", "at least $15 million",
  "below $2 million will not be considered relevant", "approximately $25M"),
- customer types ("federal civilian agencies", "Department of Defense or other federal
  agencies", "federal, state or local government", "state Medicaid agency") and industries,
- whether references must be as prime contractor.

Recency is counted back from the RFP's issue date, or from the proposal due date when the
sentence says so ("within three (3) years before the proposal due date"); with neither, from
``as_of``; the wall clock only when nothing else exists (the trace says which anchor was used).
Dollar figures that are not contract values (program budgets, "$9 billion in grants", prices,
NAICS size standards) are ignored because only past-performance sentences are read for value.
Every filter read is recorded in ``trace`` with the section and sentence that stated it.

Modules: ``reading`` (ScopeReading, read_scope), ``issuer``, ``section_lm`` (the Section L/M
requirements), ``units`` (the statement of work as units), ``ranking_texts`` and ``emphasis``
(the domain weights, ``EmphasisWeights``), ``as_of`` (``as_of_for``). Which sections are the
statement of work, Section M or administration is ``documents.section_kinds``. The ScopeQuery
itself (vectors, filters) is assembled in ``retrieval.scope_query.build_scope_query``.
"""

from rfp_retrieval.scope.as_of import AsOf, as_of_for
from rfp_retrieval.scope.emphasis import DOMAIN_SIGNALS, EMPHASIS_WEIGHTS, EmphasisWeights
from rfp_retrieval.scope.ranking_texts import NARRATIVE_WORDS, OUTCOME_WORDS, TECHNICAL_WORDS
from rfp_retrieval.scope.reading import ScopeReading, read_scope
from rfp_retrieval.scope.units import MIN_UNIT_CHARS, scope_units, work_prose

__all__ = [
    "DOMAIN_SIGNALS",
    "EMPHASIS_WEIGHTS",
    "MIN_UNIT_CHARS",
    "NARRATIVE_WORDS",
    "OUTCOME_WORDS",
    "TECHNICAL_WORDS",
    "AsOf",
    "EmphasisWeights",
    "ScopeReading",
    "as_of_for",
    "read_scope",
    "scope_units",
    "work_prose",
]
