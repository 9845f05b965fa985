"""The writer's words for a missed constraint (session 12: the brief printed
``ongoing_performed``, ``customer_type``)."""

from __future__ import annotations

from rfp_retrieval.retrieval.filters import CONSTRAINTS, constraint_labels


def test_every_constraint_has_a_label_and_misses_read_in_words():
    assert all(c.label and "_" not in c.label for c in CONSTRAINTS)
    assert constraint_labels(["customer_type", "ongoing_performed", "started_by"]) == [
        "customer type",
        "time performed (ongoing work)",
        "started before the RFP",
    ]
    assert constraint_labels(["value_band"]) == ["value band"]  # not a constraint name


def test_the_brief_says_the_ongoing_minimum_is_a_filter_now():
    """Since the minimum performed period became a filter (h18rank), the brief no longer asks
    the writer to check an ongoing pick's start date by hand."""
    from rfp_retrieval.report.filters import filter_sentence

    item = {
        "filter": "ongoing_min_months",
        "reading": {"months": 12, "started_by": "2025-10-28"},
    }
    assert filter_sentence(item) == (
        "work still in progress counts once 1 year performed (started by 2025-10-28); ongoing "
        "work started later is left out unless too few entries qualify; completed work is not "
        "affected"
    )
