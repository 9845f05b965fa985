"""Markdown with HTML in it, and signs that are not HTML. Break-it: "<" and ">" written as
signs in a service level ("latency < 200 ms and uptime > 99.9%", "&lt; 4 hours") were cut out
with everything between them as if an HTML tag, and an autolink (``<contracting@agency.gov>``)
lost its address. Only a real tag is removed (``documents.text.HTML_TAG``)."""

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


def test_html_headings_in_markdown_open_sections(tmp_path: Path):
    """Break-it: ``<h2>2. Instructions to Offerors</h2>`` in a Markdown RFP (pasted from a web
    page) was left out of the outline, so its asks sat under the section before."""
    path = tmp_path / "rfp.md"
    path.write_text(
        "# RFP\n\n## 1. Scope\n\nThe contractor shall host the platform.\n\n"
        "<h2>2. Instructions to Offerors</h2>\n\n"
        "<p>The Offeror shall describe its migration approach.</p>\n\n"
        '<h3 id="limits">2.1 Page <em>Limits</em></h3>\n\n'
        "Proposals shall not exceed 20 pages.\n\n<H2>3. Evaluation</H2>\n\n"
        "Proposals will be evaluated on technical approach.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [(s.number, s.heading, s.level) for s in doc.sections if s.number] == [
        ("1.", "Scope", 1),  # outline levels, as the Markdown "##" heading beside them
        ("2.", "Instructions to Offerors", 1),
        ("2.1", "Page Limits", 2),
        ("3.", "Evaluation", 1),
    ]
    sections = {q.text: q.section_path[-1] for q in find_questions(doc)}
    assert sections["The Offeror shall describe its migration approach."] == (
        "2. Instructions to Offerors"
    )
    assert sections["Proposals shall not exceed 20 pages."] == "2.1 Page Limits"


def test_yaml_front_matter_is_plain_text_not_a_heading(tmp_path: Path):
    """Break-it: a Markdown RFP starting with YAML front matter (``---`` / ``date: ...`` /
    ``---``) got its last field as a setext heading in the outline."""
    import datetime as dt

    path = tmp_path / "rfp.md"
    path.write_text(
        '---\ntitle: "RFP 99 Help Desk"\nsolicitation: 70RTAC-26-R-0001\nissue date: '
        "2026-03-01\n---\n\n# RFP 99 Help Desk\n\n## 1. Scope\n\n"
        "The Offeror shall describe its help desk approach.\n",
        encoding="utf-8",
    )
    doc = load_document(path)
    assert [s.heading for s in doc.sections] == ["RFP 99 Help Desk", "Scope"]
    lines = [line for line in doc.text.splitlines() if line.strip()]
    assert lines[:3] == [
        'title: "RFP 99 Help Desk"',
        "solicitation: 70RTAC-26-R-0001",
        "issue date: 2026-03-01",
    ]
    assert doc.issue_date == dt.date(2026, 3, 1)


@pytest.mark.parametrize(
    "start",
    [
        "---\n\nThe Offeror shall describe its approach.\n\n---\n",  # rules, not front matter
        "---\njust a sentence, not YAML: [unclosed\n---\n",
    ],
)
def test_a_rule_at_the_top_is_left_as_markdown(tmp_path: Path, start):
    path = tmp_path / "rfp.md"
    path.write_text(start + "\n# RFP\n\n## 1. Scope\n\nDescribe your plan.\n", encoding="utf-8")
    doc = load_document(path)
    assert "Describe your plan." in [q.text for q in find_questions(doc)]
