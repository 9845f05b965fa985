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
