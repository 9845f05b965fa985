"""Counts in the writer-facing pages read as English (new-user trial: "Only 0 other
candidate(s) passed ...")."""

import pytest

from rfp_retrieval.report.review import _other_candidates
from rfp_retrieval.report.wording import counted


@pytest.mark.parametrize(
    ("n", "text"), [(0, "no candidate"), (1, "1 candidate"), (4, "4 candidates")]
)
def test_counted(n, text):
    assert counted(n, "candidate") == text


def test_counted_takes_an_irregular_plural_and_refuses_a_negative_count():
    assert counted(2, "entry", "entries") == "2 entries"
    with pytest.raises(ValueError, match="negative: -1"):
        counted(-1, "entry")


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "No other candidate"), (1, "Only 1 other candidate"), (3, "Only 3 other candidates")],
)
def test_the_review_page_names_the_runners_up_count_in_words(n, text):
    assert _other_candidates(n) == text
