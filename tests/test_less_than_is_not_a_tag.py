"""Break-it: "<" and ">" written as signs in a service level ("latency < 200 ms and uptime >
99.9%", "&lt; 4 hours") were cut out with everything between them as if an HTML tag, and an
autolink (``<contracting@agency.gov>``) lost its address. Only a real tag is removed
(``documents.text.HTML_TAG``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.documents.text import strip_inline_markdown


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (
            "The Offeror shall keep latency < 200 ms and uptime > 99.9% at all sites.",
            "The Offeror shall keep latency < 200 ms and uptime > 99.9% at all sites.",
        ),
        (
            "Answer in <30 seconds (target >95% answered).",
            "Answer in <30 seconds (target >95% answered).",
        ),
        ("Restore in &lt; 4 hours, uptime &gt; 99.9%.", "Restore in < 4 hours, uptime > 99.9%."),
        (
            "Submit to <contracting@agency.gov> by noon.",
            "Submit to contracting@agency.gov by noon.",
        ),
        ("See <https://sam.gov/opp/123> for forms.", "See https://sam.gov/opp/123 for forms."),
        # real tags still go
        ('Describe <span class="x">your</span> plan.<br/>', "Describe your plan."),
        ("Describe <!-- note --> staffing <b>now</b>.", "Describe staffing now ."),
    ],
)
def test_signs_stay_and_tags_go(written, read):
    assert strip_inline_markdown(written) == read


def test_service_levels_with_signs_are_read_whole_from_markdown(tmp_path: Path):
    path = tmp_path / "rfp.md"
    path.write_text(
        "# RFP\n\n## 1. Scope\n\n"
        "The Offeror shall keep latency < 200 ms and uptime > 99.9% at all sites.\n\n"
        "| No. | Question |\n|---|---|\n"
        "| 1.1 | Describe how you keep response &lt; 4 hours and availability &gt; 99.9%. |\n",
        encoding="utf-8",
    )
    asks = [q.text for q in find_questions(load_document(path))]
    assert asks == [
        "The Offeror shall keep latency < 200 ms and uptime > 99.9% at all sites.",
        "Describe how you keep response < 4 hours and availability > 99.9%.",
    ]


def test_bidi_controls_in_an_rfp_line_are_removed(tmp_path: Path):
    """Break-it: an ask holding U+202E was shown reversed in the brief and the matrix."""
    path = tmp_path / "rfp.md"
    path.write_text(
        "# RFP\n\n## 1. Scope\n\n"
        "The Offeror shall \u202eebircsed\u202c its \u2066staffing\u2069 plan.\n",
        encoding="utf-8",
    )
    asks = [q.text for q in find_questions(load_document(path))]
    assert asks == ["The Offeror shall ebircsed its staffing plan."]
