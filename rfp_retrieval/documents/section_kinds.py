"""The one section classifier over an RFP outline: what kind of text each section is.

Kinds (each a method of ``SectionKinds``, each rule written once here):

- **statement of work** (``is_statement_of_work``): the section's path names the work (scope,
  SOW/PWS/SOO, requirements, tasks, objectives, specifications) and not past performance,
  instructions, evaluation, proposals, administration, invoicing, clauses, key personnel,
  pricing, schedule of events or formatting. Read by the scope reading for the domain
  emphasis and the outcome sentences.
- **administration** (``is_administration``): a section that says how to bid or administer the
  contract (Section L/M, pricing, references, terms, insurance, ...), or a context section
  (background, purpose, ...) that is not itself the scope. Its complement, **work unit**
  (``is_work_unit``), is what the scope reading embeds as units of the work (``scope_units``).
- **instructions** (``is_instructions``): Section L, instructions to offerors, proposal /
  submission requirements (a part of administration).
- **evaluation** (``is_evaluation``): Section M text: evaluation, basis of award, scoring,
  selection / award criteria, ``M.1``-numbered sections, Addendum M. Read by the question
  finder (a requirement there is an evaluation criterion).
- **clauses** (``is_clauses``): clauses, FAR / DFARS provisions, terms and conditions,
  definitions. Read by the question finder.
- **past performance** (``is_past_performance``): a past-performance / references /
  experience section or one inside it. Read by the Section L/M reader.
- **background** (``is_background``): a background / purpose / overview heading (own heading
  only). Read by the scope reading for the narrative text.

Where the consumers disagree today the difference is a named rule here, kept so outputs stay
identical, each to be settled by a measured change later:

1. ``EMPHASIS_EVALUATION`` vs ``EVALUATION``: the scope reading's evaluation emphasis
   (``is_evaluation_emphasis``) reads headings without numbers below the title and also
   matches "relevan..."; the question finder's evaluation (``is_evaluation``) reads
   "number heading" (numbered level-0 sections too) and also matches ``M.x`` numbering,
   Addendum M, "selection / award criteria", "factors for award", "basis for the award".
2. Statement of work vs work unit: a context section under the statement of work
   ("3. Scope of Work > 3.1 Background") is not a work unit (``is_work_unit`` is False: left
   out of the technical text) yet is statement of work (``is_statement_of_work`` is True: it
   gives domain weight). Rule ``CONTEXT_UNDER_SCOPE``.
3. "Program Evaluation": a heading that only contains "evaluation" is a work unit
   (``ADMIN_HEADING`` needs the whole heading to be the word) yet counts as Section M for the
   emphasis (``is_evaluation_emphasis``) and for the question finder (``is_evaluation``).
   Rule ``EVALUATION_WORD_IN_WORK_HEADING``.
4. Statement of work excludes by ``NOT_STATEMENT_OF_WORK`` (single words anywhere in the
   path: "proposals", "price", "evaluation"), work units exclude by ``NOT_WORK`` (phrases such
   as "proposal submission", "evaluation criteria") plus ``ADMIN_HEADING`` (whole headings):
   a "Claims Pricing" section is a work unit but not statement of work.

Paths: ``heading_path`` (headings as written, nearest first, level-0 title excluded),
``plain_path_below_title`` (case-folded plain headings, root first, stopping at a heading equal
to the document title), ``numbered_path`` ("number heading", nearest first, level > 0 or
numbered). All walk the outline with ``RfpDocument.ancestors``.
"""

from __future__ import annotations

import re
from itertools import takewhile

from rfp_retrieval.documents.numbering import CLAUSE_NUMBER
from rfp_retrieval.documents.records import RfpDocument, Section
from rfp_retrieval.documents.text import strip_inline_markdown

# -- statement of work (scope reading: emphasis and outcome sentences) --------------------------

SCOPE = re.compile(
    r"\b(scope|statement of (?:work|objectives|needs?)|\bSOW\b|\bPWS\b|\bSOO\b|performance work "
    r"statement|requirements?|task areas?|technical areas?|objectives|tasks?|description of work|"
    r"specifications?)\b",
    re.I,
)
"""A heading that names the work (also lets a context section under it stay a work unit)."""
NOT_STATEMENT_OF_WORK = re.compile(
    r"\b(?:past performance|instructions|evaluation|proposals?|submissions?|administration|"
    r"invoic\w*|clauses|key personnel|pricing|price|schedule of events|format(?:ting)?)\b",
    re.I,
)
"""Words anywhere in the path that make a section not statement of work (rule 4)."""
PROMPTS = re.compile(r"\b(?:prompts?|questions?|questionnaire)\b", re.I)
"""A heading that says its items are put to the respondent ("Draft Statement of Work and
Technical Prompts", "Capability Questions"): an imperative item there ("Provide modeling
expertise ...") asks for a response, though the heading also names the work."""
EMPHASIS_EVALUATION = re.compile(
    r"\bevaluation|basis (?:of|for) award|section m\b|relevan|scoring", re.I
)
"""The scope reading's Section M rule over ``heading_path`` (rule 1)."""
BACKGROUND = re.compile(
    r"\b(background|purpose|overview|introduction|summary|description|current (?:environment|"
    r"system)|problem|mission|vision)\b",
    re.I,
)
"""A background heading (own heading only), read into the narrative text."""

# -- administration / work units (scope reading: scope_units) -----------------------------------

INSTRUCTIONS = (
    r"section l|instructions (?:to|for) (?:the )?(?:offerors?|proposers?|bidders?|vendors?|"
    r"respondents?|quoters?|applicants?|preparation|submission|proposals?|quotes?|quotations?|"
    r"responses?)|preparation of (?:proposals|quotes|quotations|offers|bids|responses)|"
    r"(?:proposal|quote|quotation|offer|bid) (?:submission|preparation|format|instructions|"
    r"requirements|content|organization)|"
    r"(?:submission|submittal) (?:requirements|instructions)|(?:technical |proposal )?response "
    r"(?:requirements|format|instructions)|page limits?|cover page"
)
"""Instructions to offerors (Section L): a regex fragment, also a part of ``NOT_WORK``. The
quote and offer forms (``Quotation Instructions``, ``Instructions for Preparation of
Proposals``) and the format headings only instructions have (``Page Limits``, ``Cover
Page``) count too."""
INSTRUCTIONS_PATH = re.compile(rf"\b(?:{INSTRUCTIONS})\b", re.I)
NOT_WORK = re.compile(
    rf"\b(?:past performance|section [lm]|{INSTRUCTIONS}|proposal evaluation|"
    r"evaluation (?:criteria|factors?|process|of proposals|methodology|and award)|"
    r"basis (?:of|for) award|award (?:criteria|process)|(?:cost|price|pricing) (?:proposal|"
    r"volume|schedule|sheet|instructions|submission|form)|contract type|period of performance|"
    r"points? of contact|references|(?:offeror|corporate|company|vendor|contractor|bidder|"
    r"proposer|minimum) (?:experience|qualifications)|contract administration|invoicing "
    r"instructions|terms and conditions|insurance(?: requirements)?|compensation and payment|"
    r"payment terms|key personnel|schedule of events|(?:technical|cost|price|management|"
    r"business) volume|volume (?:[ivx]+|\d+)\b|scoring)\b",
    re.I,
)
"""A path (below the document title) naming one of these says how to bid or administer the
contract, not what the work is (Section L/M, pricing, references, ...)."""
ADMIN_HEADING = re.compile(
    r"^(?:evaluation|pricing|price|cost|proposals?|submissions?|format|administration|"
    r"qualifications|instructions|invoicing|award|general|definitions|glossary|"
    r"attachments|exhibits|appendix(?: [a-z\d]+)?)$",
    re.I,
)
"""A heading that is only one of these words is administration too ("Pricing", "Evaluation");
inside a longer heading the word can name work ("Claims Pricing", "Program Evaluation",
"Database Administration", "Invoice Processing"): rule 3."""
CONTEXT = re.compile(
    r"\b(?:background|purpose|overview|introduction|current (?:environment|system)|history)\b",
    re.I,
)
"""Context sections (read into the narrative text, not units of the work), unless the section
itself is the scope ("1. Introduction > 1.2 Scope of Work"): rule 2."""
CONTEXT_UNDER_SCOPE = "context-under-scope"
EVALUATION_WORD_IN_WORK_HEADING = "evaluation-word-in-work-heading"

# -- evaluation and clauses (question finder) -----------------------------------------------

EVALUATION = re.compile(
    r"\bevaluation|\bsection m\b|^m(?:\.\d+)+\b|addendum m\b|basis (?:of|for) (?:the )?award|"
    r"\bscoring\b|selection criteria|award criteria|\bfactors? for award",
    re.I,
)
"""The question finder's Section M rule over ``numbered_path`` (rule 1)."""
SECTION_L = re.compile(r"\b(?:section|addendum)\s+l\b|^l(?:\.\d+)+\b", re.I)
"""Section L by its number over ``numbered_path`` (``Section L.``, ``ADDENDUM L``, a nearest
``L.4.2``): the Uniform Contract Format letter of the instructions to offerors (FAR 15.204-1),
whatever the heading says."""
CLAUSES = re.compile(
    r"\bclauses?\b|\b52\.2\d\d-\d|\b252\.2\d\d-\d|terms and conditions|\bdefinitions?\b|"
    r"standard provisions|general provisions|contract provisions|\bFAR\b|\bDFARS\b|"
    r"general conditions|special conditions|conditions of (?:the )?contract|"
    r"\blegal (?:information|provisions|terms)\b",
    re.I,
)
"""Clause / definition text, over ``numbered_path``: the general and special conditions a
state or county solicitation appends, and its "General Legal Information" (right of rejection,
disclosure, tariffs), are boilerplate the offeror accepts by signing."""
INSTRUCTIONS_PROVISION = re.compile(
    r"\b(?:\d{1,2})?52\.2\d\d-\d+\b[^/]*"
    r"\b(?:instructions to (?:offerors|bidders|quoters|proposers)|evaluation\b)",
    re.I,
)
"""A solicitation provision that instructs the offeror or says how offers are evaluated (FAR
52.212-1 "Instructions to Offerors -- Commercial Products", 52.215-1 "Instructions to Offerors
-- Competitive Acquisition", 52.212-2 "Evaluation -- Commercial Products"): though numbered as
a clause, its text is Section L or M (what the offer must show), so it is not clause text for
the question finder. Read on the outermost heading naming a clause number
(``SectionKinds.is_clauses``)."""
CLAUSE_AT_START = re.compile(rf"^\(?(?:{CLAUSE_NUMBER.pattern})")
"""A heading that opens with a clause or provision number (``52.212-1 INSTRUCTIONS TO
OFFERORS``, ``852.233-70 PROTEST CONTENT.``): the clause reproduced in full text
(``SectionKinds.is_standard_provision``)."""
CONTRACT_TERM_HEADING = re.compile(
    r"^(?:contract (?:period|term)(?: and renewals?)?|renewals?|insurance(?: requirements)?|"
    r"(?:contract )?administration|authorities and delegations|"
    r"changes|delays(?: and suspensions)?|suspensions?|terminations?(?: for (?:convenience|"
    r"default|cause))?|order of precedence|method of ordering|ordering procedures|"
    r"(?:reports and )?invoic(?:ing|es)|payments?(?: terms)?|compensation(?: and payment)?|"
    r"indemnification|indemnity|(?:(?:general|service|contract|product|service contract)\s+)?"
    r"(?:warrant(?:y|ies)|guarant(?:y|ies|ees)(?: (?:and|&) warranties)?)|"
    r"(?:limitation of )?liability|governing law|disputes|assignment|"
    r"subletting(?: or assignment)?|price (?:adjustments?|reductions?|escalation)|"
    r"audit(?: of records)?|use of (?:the )?contract by other public bodies|"
    r"cooperative (?:purchasing|procurement))$",
    re.I,
)
"""A heading that is only the name of a contract term (``INSURANCE``, ``CHANGES``, ``DELAYS
AND SUSPENSIONS``, ``ORDER OF PRECEDENCE``, ``REPORTS AND INVOICING``): the section is a term
of the contract the award binds, accepted or excepted as a whole, not answered line by line
(compliance-matrix practice); its requirements are matrix rows of the work-statement kind.
Whole heading only: ``Changes to Key Personnel`` or ``Insurance Claims Processing`` are not
terms."""

# -- past performance (Section L/M reader) ---------------------------------------------------

PAST_PERFORMANCE_HEADING = re.compile(
    r"past performance|\breferences\b|\breference (?:form|list|check)|similar experience|"
    r"corporate experience|relevant "
    r"experience|prior experience|offeror experience|provider experience|minimum qualifications|"
    r"experience (?:and|&) (?:references|qualifications)|qualifications and references",
    re.I,
)
"""A past-performance / references section heading ("number heading", any level > 0)."""


def plain_heading(text: str) -> str:
    """A heading (``Section.heading``: no number) without markup or edge punctuation,
    case-folded."""
    return strip_inline_markdown(text or "").strip(" .:-–—*#").casefold()


class SectionKinds:
    """The kinds of the sections of one ``RfpDocument`` (rules: module docstring).

    Every method takes a ``Section`` of ``doc`` and returns a bool; none raises.
    """

    def __init__(self, doc: RfpDocument) -> None:
        self.doc = doc
        self.title = plain_heading(doc.title)
        self._numbered: dict[str, str] = {}

    # -- paths ---------------------------------------------------------------------------------

    def heading_path(self, section: Section) -> str:
        """Headings as written from ``section`` up to (not including) level 0, joined " / "."""
        chain = takewhile(lambda node: node.level > 0, self.doc.ancestors(section))
        return " / ".join(node.heading for node in chain)

    def plain_path_below_title(self, section: Section) -> list[str]:
        """Plain headings from below the document title down to ``section`` (root first)."""
        chain = takewhile(
            lambda node: node.level > 0 and plain_heading(node.heading) != self.title,
            self.doc.ancestors(section),
        )
        return [plain_heading(node.heading) for node in reversed(list(chain))]

    def numbered_path(self, section: Section) -> str:
        """ "number heading" of ``section`` and its ancestors (level > 0 or numbered), nearest
        first, joined " / "."""
        if section.key not in self._numbered:
            chain = [
                f"{node.number or ''} {node.heading}"
                for node in self.doc.ancestors(section)
                if node.level > 0 or node.number
            ]
            self._numbered[section.key] = " / ".join(chain)
        return self._numbered[section.key]

    # -- kinds ---------------------------------------------------------------------------------

    def is_statement_of_work(self, section: Section) -> bool:
        """The path names the work and no bid / administration word (rules 2 and 4)."""
        path = self.heading_path(section)
        return (
            bool(SCOPE.search(path))
            and not NOT_STATEMENT_OF_WORK.search(path)
            and (section.level > 0)
        )

    def is_prompts(self, section: Section) -> bool:
        """The path names prompts or questions put to the respondent (``PROMPTS``)."""
        return section.level > 0 and bool(PROMPTS.search(self.heading_path(section)))

    def is_evaluation_emphasis(self, section: Section) -> bool:
        """Section M for the scope reading's emphasis and outcome sentences (rules 1 and 3)."""
        return section.level > 0 and bool(EMPHASIS_EVALUATION.search(self.heading_path(section)))

    def is_background(self, section: Section) -> bool:
        """A background / purpose / overview heading (level > 0, own heading only)."""
        return section.level > 0 and bool(BACKGROUND.search(section.heading))

    def is_instructions(self, section: Section) -> bool:
        """Instructions to offerors (Section L) in the path below the title, or a section
        numbered Section L (``## Section L. Instructions``, ``L.4.2``: ``SECTION_L``)."""
        path = self.plain_path_below_title(section)
        if bool(path) and bool(INSTRUCTIONS_PATH.search(" > ".join(path))):
            return True
        return section.level > 0 and bool(SECTION_L.search(self.numbered_path(section)))

    def is_administration(self, section: Section) -> bool:
        """How to bid or administer, or context that is not itself the scope (rules 2 and 3).

        Judged on the path below the document title, whole words: ``NOT_WORK`` anywhere in it,
        a heading that is only an ``ADMIN_HEADING`` word, or a ``CONTEXT`` heading on the path
        when the section's own heading does not name the scope.
        """
        path = self.plain_path_below_title(section)
        if not path:
            return False
        if NOT_WORK.search(" > ".join(path)) or any(ADMIN_HEADING.match(h) for h in path):
            return True
        context = any(CONTEXT.search(h) for h in path)
        return context and not SCOPE.search(path[-1])

    def is_work_unit(self, section: Section) -> bool:
        """Not administration: a part of the work the scope reading embeds (``scope_units``)."""
        return not self.is_administration(section)

    def is_evaluation(self, section: Section) -> bool:
        """Section M for the question finder (rules 1 and 3)."""
        return bool(EVALUATION.search(self.numbered_path(section)))

    def is_clauses(self, section: Section) -> bool:
        """Clause, provision or definition text (question finder), unless the outermost
        heading naming a clause number is an instructions or evaluation provision
        (``INSTRUCTIONS_PROVISION``: FAR 52.212-1 is Section L text, 52.212-2 Section M)."""
        path = self.numbered_path(section)
        nearest = next((p for p in path.split(" / ") if CLAUSE_NUMBER.search(p)), "")
        if nearest and INSTRUCTIONS_PROVISION.search(nearest):
            return False
        return bool(CLAUSES.search(path))

    def is_standard_provision(self, section: Section) -> bool:
        """The standard text of a clause or provision reproduced in full: the nearest numbered
        section at or above ``section`` has a heading that opens with a clause number
        (``numbering.CLAUSE_NUMBER``: ``D.1 52.212-1 INSTRUCTIONS TO OFFERORS-COMMERCIAL
        ITEMS (JAN 2004)``, ``D.3 52.212-3 OFFEROR REPRESENTATIONS ...``), and it is not
        evaluation text (the evaluation provision's factors are the buyer's own fill-in,
        Section M). The buyer's tailoring sits under headings of its own (``D.1.1 ADDENDUM TO
        FAR 52.212-1``, ``D.1.3 SUBMITTAL REQUIREMENTS``): not standard text. Source: proposal
        practice (the regulation's own wording is accepted by signing the offer, one line of
        the matrix names it; the addenda are shredded)."""
        if section.level <= 0 or self.is_evaluation(section):
            return False
        numbered = next(
            (n for n in self.doc.ancestors(section) if n.number and n.kind != "paragraph"), None
        )
        if numbered is None or numbered.level <= 0:
            return False
        heading = strip_inline_markdown(numbered.heading or "").strip()
        return bool(CLAUSE_AT_START.match(heading))

    def is_contract_terms(self, section: Section) -> bool:
        """At or under a heading that names a contract term (``CONTRACT_TERM_HEADING``): its
        requirements bind the awarded contract (compliance matrix)."""
        return any(
            node.level > 0 and CONTRACT_TERM_HEADING.match(plain_heading(node.heading))
            for node in self.doc.ancestors(section)
        )

    def is_past_performance(self, section: Section) -> bool:
        """A past-performance / references section, or one inside it (Section L/M reader)."""
        return any(
            node.level > 0
            and PAST_PERFORMANCE_HEADING.search(f"{node.number or ''} {node.heading}")
            for node in self.doc.ancestors(section)
        )
