"""Paragraph context and cross-references (issue 14) on a small hand-written RFP."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.rewrite.chain import rewrite_question
from rfp_retrieval.rewrite.context import (
    is_generic,
    is_structural,
    lead_in,
    names_a_topic,
    nearest_sentences,
)

RFP = """# Request for Proposals 77-1: County Records Portal

## 2 Background

### 2.4 Peak Volumes

The portal receives about 40,000 filings a day in January, with a tenfold spike on the last \
business day of the month when batch uploads from title companies arrive.

## Attachment 2 — Legacy Interfaces

The county recorder system exchanges nightly batch files with the assessor, the treasurer, \
and the state vital records registry over SFTP.

## 4 Technical Questions

### 4.1 Capacity

4.1.1 Describe how you will support the exchanges listed in Attachment 2 (see Section 2.4 \
for volumes).

### 4.9 Other Considerations

Title companies file in bursts. The county must be able to move the portal to another \
hosting provider or bring it in-house at the end of the contract without buying licenses \
from the original developer.

4.9.1 Explain how your solution preserves this ability.
"""


@pytest.fixture()
def rewritten(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    doc = load_document(path)
    asks = [q for q in find_questions(doc) if q.kind == "question"]
    return {q.label: rewrite_question(q, doc) for q in asks}


def test_generic_heading_words():
    assert is_generic("Other Considerations")
    assert is_generic("Additional Technical Information")
    assert not is_generic("Peak Volumes")


def test_nearest_sentences_are_the_last_two_that_do_not_ask():
    text = "One. Two is here. Is three a question? Four ends."
    assert nearest_sentences(text) == "Two is here. Four ends."


def test_under_a_generic_heading_the_sentences_above_are_the_topic(rewritten):
    r = rewritten["4.9.1"]
    assert r.context.heading == "Other Considerations" and r.context.generic_heading
    assert r.rewrite == (
        "Explain how your solution preserves this ability — Title companies file in bursts. "
        "The county must be able to move the portal to another hosting provider or bring it "
        "in-house at the end of the contract without buying licenses from the original "
        "developer."
    )
    assert "Other Considerations" not in r.rewrite


def test_cross_references_name_the_sections_and_summarise_them(rewritten):
    r = rewritten["4.1.1"]
    refs = [(x.key, x.heading) for x in r.context.references]
    assert refs == [("Attachment 2", "Legacy Interfaces"), ("2.4", "Peak Volumes")]
    assert r.rewrite.startswith(
        "Describe how you will support the exchanges listed in Legacy Interfaces (Attachment 2) "
        "(see Peak Volumes (Section 2.4) for volumes)."
    )
    summary = r.context.references[0].summary
    assert "assessor" in summary and "SFTP" in summary
    assert "tenfold" in r.context.references[1].summary


FOLLOW_UPS = """# Request for Proposals 12-9: Member Portal Services

## 2. Service Questions

Q1. Describe your service desk hours and escalation path.

Members reach us outside business hours, and regional power failures have taken the \
portal down for a day. Our examiners expect tested recovery of member-facing systems \
within four hours.

Q2. Describe how you will meet this expectation.

Q3. How often is it exercised?

## 3. Additional Considerations

The Credit Union retains member records for seven years and must be able to place \
records on legal hold when litigation is anticipated.

Q1. Explain how your platform supports these obligations.

Some members use screen readers and voice control software.

Q2. How do you test with them?
"""


@pytest.fixture()
def follow_ups(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(FOLLOW_UPS, encoding="utf-8")
    doc = load_document(path)
    asks = [q for q in find_questions(doc) if q.kind == "question"]
    return doc, {(q.section_path[-1], q.label): q for q in asks}


def test_lead_in_stops_at_the_previous_ask(follow_ups):
    doc, asks = follow_ups
    q2 = asks[("3. Additional Considerations", "Q2.")]
    assert lead_in(q2, doc) == "Some members use screen readers and voice control software."
    q1 = asks[("3. Additional Considerations", "Q1.")]
    assert lead_in(q1, doc).startswith("The Credit Union retains member records")


def test_lead_in_of_a_follow_up_is_the_prose_above_the_asks_before_it(follow_ups):
    doc, asks = follow_ups
    expected = (
        "Members reach us outside business hours, and regional power failures have taken the "
        "portal down for a day. Our examiners expect tested recovery of member-facing systems "
        "within four hours."
    )
    assert lead_in(asks[("2. Service Questions", "Q2.")], doc) == expected
    assert lead_in(asks[("2. Service Questions", "Q3.")], doc) == expected
    assert lead_in(asks[("2. Service Questions", "Q1.")], doc) == ""


def test_under_a_generic_heading_only_the_question_s_own_lead_in_is_its_topic(follow_ups):
    doc, asks = follow_ups
    r = rewrite_question(asks[("3. Additional Considerations", "Q2.")], doc)
    assert r.context.paragraphs == "Some members use screen readers and voice control software."
    assert r.rewrite == (
        "How do you test with them — Some members use screen readers and voice control software."
    )
    assert all("legal hold" not in q.text for q in r.queries)


VENDOR = """# Lakeside Savings Bank — Request for Proposal: Managed Detection Services

## Section 1 — Instructions

Vendors shall answer every question below.

## Section 4 — Vendor Responses

Vendors shall respond to each of the following items in order.

Our branches connect to the core over a flat network, and a single compromised \
workstation could reach the loan servers.

Q1. Describe the controls you would recommend.

## Section 5 — Questionnaire

### 5.1 Technology

C.4.3 requires quarterly restore tests. Regarding the vendor portal our loan officers \
will use:

a. How is it backed up, and who checks it?
"""


@pytest.fixture()
def vendor(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(VENDOR, encoding="utf-8")
    doc = load_document(path)
    asks = [q for q in find_questions(doc) if q.kind == "question"]
    return {q.label: rewrite_question(q, doc) for q in asks}


def test_without_a_topical_heading_the_topical_sentences_above_are_the_topic(vendor):
    r = vendor["Q1."]
    assert is_structural("Vendor Responses")
    assert r.context.heading == "" and r.context.generic_heading
    # the procedural sentence ("respond to each of the following items") names no topic
    assert r.rewrite == (
        "Describe the controls you would recommend — Our branches connect to the core over a "
        "flat network, and a single compromised workstation could reach the loan servers."
    )


def test_a_pronoun_points_to_the_sentences_above_not_to_the_heading(vendor):
    r = vendor["5.1 a."]  # a lettered item is cited with its section
    assert r.context.points_back and r.context.heading == "Technology"
    # a number that is the sentence's subject is not a label to strip
    assert r.rewrite == (
        "How is it backed up, and who checks it — C.4.3 requires quarterly restore tests. "
        "Regarding the vendor portal our loan officers will use: (Technology)"
    )
    # each part carries the heading (the rewrite already holds the sentences)
    assert r.parts == ["How is technology backed up", "Who checks it — Technology"]


def test_procedural_sentences_name_no_topic():
    assert not names_a_topic("Offerors shall respond to each of the following items in order.")
    assert not names_a_topic("Responses are limited to two pages per item.")
    assert names_a_topic("Some members use screen readers.")
