"""Rewrites carry only meaningful context (issue 15: "(Requirements Response Table; Comply,
...)" and "(limit: 4 pages)" were appended to queries)."""

from __future__ import annotations

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.rewrite.chain import rewrite_question
from rfp_retrieval.rewrite.context import clean_heading

RFP = """# Request for Proposal 26-114 — Case Management System

## 3. Technical Approach (limit: 4 pages)

3.1 Describe your approach to data migration from the legacy system.

## 4. Hosting (Mandatory) [10 points]

4.1 Describe your approach to disaster recovery.

## Attachment B – Requirements Response Table

Respond to each requirement with Comply, Partial, or Exception.

| Req # | Requirement | Comply / Partial / Exception | Comments |
| --- | --- | --- | --- |
| R-1 | The system shall support single sign-on with the identity provider. | | |
"""


def _queries(tmp_path) -> dict[str, list[str]]:
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    doc = load_document(path)
    return {
        q.label: [x.text for x in rewrite_question(q, doc).queries] for q in find_questions(doc)
    }


def test_page_limits_and_answer_codes_are_not_appended_to_queries(tmp_path):
    queries = _queries(tmp_path)
    assert queries["3.1"][0] == "Describe your approach to data migration from the legacy system."
    assert queries["R-1"][0] == (
        "The system shall support single sign-on with the identity provider."
    )
    assert "Describe your approach to disaster recovery — Hosting" in queries["4.1"]
    # the heading's page limit is an ask of its own (the compliance matrix lists it); it is
    # never context appended to the asks under it or to any other
    (limit,) = [label for label in queries if label.rstrip(".") == "3"]
    assert queries[limit][0] == "3. Technical Approach (limit: 4 pages)"
    every = [text for label, texts in queries.items() if label != limit for text in texts]
    for junk in ("limit", "pages", "Comply", "Partial", "Exception", "Response Table", "points"):
        assert not [t for t in every if junk in t], junk


def test_a_heading_aside_is_dropped_only_when_it_names_no_topic():
    assert clean_heading("3. Technical Approach (limit: 4 pages)") == "Technical Approach"
    assert clean_heading("4. Hosting (Mandatory) [10 points]") == "Hosting"
    assert clean_heading("5.2 Single Sign-On (SSO)") == "Single Sign-On (SSO)"


def test_answer_code_lists_say_how_to_answer():
    from rfp_retrieval.rewrite.context import says_how_to_answer

    assert says_how_to_answer("Respond to each requirement with Comply, Partial, or Exception.")
    assert says_how_to_answer('Answer "Yes/No" in column C.')
    assert not says_how_to_answer("Describe how exceptions in batch jobs are handled.")


def test_a_verb_the_thesaurus_matched_through_its_stem_is_not_swapped():
    from rfp_retrieval.rewrite.offline import paraphrase

    out = paraphrase("Describe how the solution encrypts data at rest", "")
    assert not [p for p in out if "cryptography" in p or "ciphers data" in p]
    assert paraphrase("How are backups tested?", "")[:1] == ["How are snapshots tested?"]


QUESTIONNAIRE = """# Request for Proposal — Customer Communications

### 5. Questionnaire

Answer every question in the table below. Keep each answer to 500 words or fewer.

| No. | Question |
|---|---|
| Q-3 | Describe how you will integrate the agent desktop with our customer information system. |
"""


def test_a_question_tables_answer_instructions_are_not_appended_to_its_rewrites(tmp_path):
    """trial 11 (M5): every rewrite of a Markdown question table ended in " — Keep each
    answer to 500 words or fewer" (the table's instruction sentence taken as context)."""
    path = tmp_path / "rfp.md"
    path.write_text(QUESTIONNAIRE, encoding="utf-8")
    doc = load_document(path)
    (question,) = [q for q in find_questions(doc) if q.label == "Q-3"]
    texts = [x.text for x in rewrite_question(question, doc).queries]
    assert texts == [
        "Describe how you will integrate the agent desktop with our customer information system."
    ]
    from rfp_retrieval.rewrite.context import says_how_to_answer

    assert says_how_to_answer("Keep each answer to 500 words or fewer.")
    assert says_how_to_answer("Answer every question in the table below.")
    assert not says_how_to_answer("The utility answers 40,000 calls a month.")
    assert not says_how_to_answer("Responses to outage reports within 30 minutes are required.")
