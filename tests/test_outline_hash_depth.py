"""A Markdown heading whose numbering is not read takes the level its ``#`` depth has among
the numbered headings (break-it: ``## Sec 6.01`` without its dot became level 1 and took the
following ``## Sec. 6.02`` sections as its children)."""

from __future__ import annotations

from rfp_retrieval.documents.extract import load_document


def test_an_unread_number_keeps_the_level_of_its_hash_depth(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposal\n\n"
        "## Sec. 6.00 Debriefings\n\nText.\n\n"
        "## Sec 6.01 Informal Debriefing\n\nInformal text.\n\n"
        "## Sec. 6.02 Formal Debriefing\n\nFormal text.\n\n"
        "## Sec. 6.03 Protests\n\nProtest text.\n"
    )
    doc = load_document(rfp)
    assert [(s.key, s.level, s.parent) for s in doc.sections] == [
        ("request-for-proposal", 0, None),
        ("Sec. 6.00", 2, "request-for-proposal"),
        ("Sec 6.01", 2, "request-for-proposal"),
        ("Sec. 6.02", 2, "request-for-proposal"),
        ("Sec. 6.03", 2, "request-for-proposal"),
    ]


def test_unnumbered_headings_keep_hash_levels_when_numbered_depths_disagree(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposal\n\n"
        "## 1. Scope\n\nScope text.\n\n"
        "## 2.1 Hosting\n\nHosting text.\n\n"
        "## Background\n\nBackground text.\n\n"
        "### Staffing\n\nStaffing text.\n"
    )
    doc = load_document(rfp)
    assert [(s.key, s.level, s.parent) for s in doc.sections] == [
        ("request-for-proposal", 0, None),
        ("1", 1, "request-for-proposal"),
        ("2.1", 2, "1"),
        ("background", 1, "request-for-proposal"),
        ("staffing", 2, "background"),
    ]


def test_front_matter_before_the_first_section_stays_at_level_one(tmp_path):
    rfp = tmp_path / "rfp.md"
    rfp.write_text(
        "# Request for Proposal\n\n## Issued By\n\nProcurement Office.\n\n"
        "# Section 1 Instructions\n\n## Sec. 1.01 Purpose\n\nPurpose text.\n\n"
        "## Sec. 1.02 Budget\n\nBudget text.\n\n## Sec 1.03 Deadline\n\nDeadline text.\n"
    )
    doc = load_document(rfp)
    assert [(s.key, s.level, s.parent) for s in doc.sections] == [
        ("request-for-proposal", 0, None),
        ("issued-by", 1, "request-for-proposal"),
        ("Section 1", 1, "request-for-proposal"),
        ("Sec. 1.01", 2, "Section 1"),
        ("Sec. 1.02", 2, "Section 1"),
        ("Sec 1.03", 2, "Section 1"),
    ]
