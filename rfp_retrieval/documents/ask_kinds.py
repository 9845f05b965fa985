"""The kind of every ask of an RFP: one rule for the question finder, the compliance matrix,
``parse`` and the rewriter (issue 13).

``questions.find_questions`` reads a sentence's wording (``ask_patterns``); ``matrix_kind``
then decides, with the section it stands in (``SectionKinds``), whether the proposal answers
it (``ASK_KINDS``) or it is a post-award work statement, a step of the buyer's procurement or
a reminder to follow the document. ``find_questions`` gives every ``Question`` this kind, so
the stored ``rfp_questions`` table, the rewriter (which rewrites ``question`` and
``table-row`` asks only) and the compliance matrix never disagree: "The Contractor shall
provide monthly status reports" in a statement of work is a work statement everywhere.
``item_kind`` is the same rule for one list item of a compound ask (a matrix row of its own).
"""

from __future__ import annotations

from dataclasses import replace

from rfp_retrieval.documents.ask_patterns import (
    PROCEDURAL_ASK,
    is_administration_requirement,
    is_after_selection,
    is_ask,
    is_deliverable_delivery,
    is_general_compliance,
    is_impersonal_requirement,
    is_procurement_process,
    is_task_imperative,
    is_work_requirement,
    is_work_statement,
)
from rfp_retrieval.documents.records import Question, RfpDocument
from rfp_retrieval.documents.section_kinds import SectionKinds
from rfp_retrieval.documents.text import strip_inline_markdown

WORK_STATEMENT = "work-statement"
"""The matrix kind of a post-award contractor obligation (``ask_patterns.is_work_statement``):
kept in the matrix for the compliance check, but not an ask the proposal answers."""

PROCUREMENT_PROCESS = "procurement-process"
"""The matrix kind of a sentence about how the buyer runs the procurement (how offers are
evaluated and awarded, questions and contact before award, the receipt deadline;
``ask_patterns.is_procurement_process``): kept in the matrix as context, not an ask."""

GENERAL_COMPLIANCE = "general-compliance"
"""The matrix kind of a reminder to follow the document (``ask_patterns.is_general_compliance``:
"submit your quotation in accordance with the instructions of this RFQ"): kept in the matrix,
not an ask of its own."""

STANDARD_PROVISION = "standard-provision"
"""The matrix kind of an ask or requirement in the standard text of a clause or provision
reproduced in full (``SectionKinds.is_standard_provision``: "Submit signed and dated offers to
the office specified ...", "The offeror shall list as foreign end products ..." under
``52.212-3``): the regulation's wording, accepted by signing the offer; kept in the matrix,
not an ask of its own (the addenda and the buyer's own sections carry the asks)."""

ASK_KINDS = ("question", "requirement", "table-row", "evaluation-criterion")
"""Matrix kinds that are asks (what the proposal must respond to)."""

NOT_ANSWERED = (WORK_STATEMENT, PROCUREMENT_PROCESS, GENERAL_COMPLIANCE, STANDARD_PROVISION)
"""The other kinds ``matrix_kind`` gives a found sentence: kept as rows, not answered."""


def matrix_kind(doc: RfpDocument, kinds: SectionKinds, q: Question) -> str:
    """The compliance-matrix kind of ``q``: its finder kind (``question``, ``requirement``,
    ``table-row``, ``evaluation-criterion``: an ask), ``GENERAL_COMPLIANCE`` for a reminder
    to follow the document (``ask_patterns.is_general_compliance``), ``PROCUREMENT_PROCESS``
    for a requirement or evaluation statement about the buyer's own process
    (``ask_patterns.is_procurement_process``), ``STANDARD_PROVISION`` for an ask or a
    requirement in a clause's standard text reproduced in full
    (``SectionKinds.is_standard_provision``), or ``WORK_STATEMENT`` for a requirement that
    binds the work or the contract after award (``_post_award``) and for a "the contractor
    will provide ..." sentence in statement-of-work text. Questions (``?``) and table rows
    keep their kind. Source: issue 13 (the ask list is what the proposal must answer)."""
    kind = q.kind
    section = doc.section(q.section_key)
    if kind in ("question", "requirement") and section is not None:
        if kinds.is_standard_provision(section) and not q.text.rstrip().endswith("?"):
            return STANDARD_PROVISION  # "Submit signed and dated offers ..." in FAR 52.212-1
    if kind in ("requirement", "evaluation-criterion") and is_procurement_process(q.text):
        return PROCUREMENT_PROCESS
    if kind in ("question", "requirement") and not q.parts and is_general_compliance(q.text):
        return GENERAL_COMPLIANCE
    if kind == "requirement" and _post_award(doc, kinds, q):
        return WORK_STATEMENT
    if kind == "question" and not q.text.rstrip().endswith("?") and _contractor_work(doc, kinds, q):
        return WORK_STATEMENT  # "The Contractor shall provide monthly reports" in the SOW
    if kind in ("question", "requirement") and _work_in_sow(doc, kinds, q):
        return WORK_STATEMENT
    return kind


def _work_in_sow(doc: RfpDocument, kinds: SectionKinds, q: Question) -> bool:
    """A task imperative (``ask_patterns.is_task_imperative``) or a "the vendor will provide
    ..." sentence inside statement-of-work text (not Section L/M) that says nothing about the
    proposal: a task of the work. A question (``?``) stays an ask, and so does an item under
    a heading that names prompts or questions (``SectionKinds.is_prompts``: "Statement of Work
    and Technical Prompts" in a sources-sought notice)."""
    if q.text.rstrip().endswith("?"):
        return False
    section = doc.section(q.section_key)
    if section is None or not kinds.is_statement_of_work(section) or kinds.is_prompts(section):
        return False
    if kinds.is_instructions(section) or kinds.is_evaluation(section):
        return False
    return is_task_imperative(q.text) or q.kind == "question" and is_work_statement(q.text)


def item_kind(doc: RfpDocument, kinds: SectionKinds, q: Question, part: str, prompt: str) -> str:
    """The matrix kind of ``part``, a list item of the compound ask ``q`` whose prompt has the
    matrix kind ``prompt``: the item's own wording decides where it says more than the
    prompt, else it keeps the prompt's kind. A question (``?``) is a ``question``; an item
    about the buyer's process (``ask_patterns.is_procurement_process``) is
    ``PROCUREMENT_PROCESS``; under an ask, a contractor's post-award work statement outside
    Section L/M and a contract-administration rule anywhere (key personnel substitutions,
    invoices: ``ask_patterns.is_administration_requirement``, as for a prompt) are
    ``WORK_STATEMENT`` and an item that asks by its own verb is a
    ``question`` (``Describe ...``) or a ``requirement`` (``Submit ...``,
    ``ask_patterns.PROCEDURAL_ASK``). Source: proposal practice of shredding to the lowest
    level (each item is its own compliance line, of its own kind)."""
    text = strip_inline_markdown(part).strip()
    if text.endswith("?"):
        return "question"  # a question is always an ask
    if is_procurement_process(text):
        return PROCUREMENT_PROCESS
    if prompt not in ASK_KINDS or prompt == "table-row":
        return prompt
    item = replace(q, text=text, parts=[], part_labels=[])
    if _contractor_work(doc, kinds, item) or is_administration_requirement(text):
        return WORK_STATEMENT  # the work, or the awarded contract's administration
    if is_ask(text):
        return "requirement" if PROCEDURAL_ASK.match(text) else "question"
    return prompt


def _contractor_work(doc: RfpDocument, kinds: SectionKinds, q: Question) -> bool:
    """An imperative-verb sentence whose subject is the contractor (``The Contractor shall
    provide ...``: ``ask_patterns.is_ask`` reads "contractor" as the bidder) that is a
    post-award work statement (``ask_patterns.is_work_statement``) outside Section L/M and
    past-performance text, where "the contractor" is the offeror."""
    if not is_work_statement(q.text):
        return False
    section = doc.section(q.section_key)
    return section is None or not (
        kinds.is_instructions(section)
        or kinds.is_evaluation(section)
        or kinds.is_past_performance(section)
    )


def _post_award(doc: RfpDocument, kinds: SectionKinds, q: Question) -> bool:
    """A requirement row that binds the contractor after award: a contract-administration
    obligation (invoices, payment, travel, substitutions) or a duty of the firm selected for
    award (``ask_patterns.is_after_selection``) anywhere; any requirement under a
    contract-term heading (``SectionKinds.is_contract_terms``); outside Section L/M and
    past-performance text (which call the offeror "the contractor" too), a contractor work
    statement, a requirement naming no bidder and no part of the proposal
    (``ask_patterns.is_impersonal_requirement``: the system, the data, the contract) or a
    delivery of the work's deliverables (``ask_patterns.is_deliverable_delivery``); or any
    proposal-free obligation inside statement-of-work text."""
    if is_administration_requirement(q.text) or is_after_selection(q.text):
        return True  # invoices, substitutions; what the selected firm owes after award
    section = doc.section(q.section_key)
    if section is not None and kinds.is_contract_terms(section):
        return True  # INSURANCE, CHANGES, ORDER OF PRECEDENCE: terms of the awarded contract
    if section is not None and (
        kinds.is_instructions(section)
        or kinds.is_evaluation(section)
        or kinds.is_past_performance(section)
    ):
        return False  # "The contractor must demonstrate ..." in Section L/M means the offeror
    if is_work_statement(q.text) or is_impersonal_requirement(q.text):
        return True
    if is_deliverable_delivery(q.text):
        return True  # "Code deliverables shall be submitted via pull requests"
    if section is None:
        return False
    return kinds.is_statement_of_work(section) and is_work_requirement(q.text)
