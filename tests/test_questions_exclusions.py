"""An exclusion lead-in and its list items are not asks (documents/questions.py)."""

from __future__ import annotations

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions

RFP = """# Request for Proposal: Records Digitization

## 3 Scope of Work

### 3.1 Services Required

The vendor shall scan and index the county's paper case files.

Describe your quality-control process for scanned images.

The vendor will not be required to:

- Provide hosting of the data
- Migrate records from the legacy system

The vendor is not responsible for providing the county's network equipment.

The following are out of scope:

1. Describe your approach to microfilm conversion.

### 3.2 Questions

Please describe your staffing plan for the project.

3.2.1 The contractor will not be required to:

a. Provide on-site training for county staff.

Provide three (3) samples of indexed files.

The vendor's test environment must mirror production, except that it need not hold live data.

If an item is not required to be scanned, the vendor shall return it within 10 days.
"""


def test_exclusions_and_their_items_are_not_asks(tmp_path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    texts = [q.text for q in find_questions(load_document(path))]
    assert texts == [
        "The vendor shall scan and index the county's paper case files.",
        "Describe your quality-control process for scanned images.",
        "Please describe your staffing plan for the project.",
        "Provide three (3) samples of indexed files.",
        "The vendor's test environment must mirror production, except that it need not hold "
        "live data.",
        "If an item is not required to be scanned, the vendor shall return it within 10 days.",
    ]
