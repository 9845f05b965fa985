"""Counts in the writer-facing pages read as English (new-user trial: "Only 0 other
candidate(s) passed ...")."""

import pytest

from rfp_retrieval.cli.render import band, scope_line
from rfp_retrieval.report.review import _other_candidates
from rfp_retrieval.report.wording import NOT_STATED, counted, or_not_stated


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


def test_or_not_stated_says_not_stated_for_nothing_and_joins_a_list():
    assert or_not_stated(None) == "not stated"
    assert or_not_stated("") == "not stated"
    assert or_not_stated([]) == "not stated"
    assert or_not_stated(["federal", "state"]) == "federal, state"
    assert or_not_stated("2021-06-01") == "2021-06-01"


def test_the_run_summary_says_not_stated_for_filters_the_rfp_does_not_state():
    """Issue 15 (r2scope): "customer types: any", "value: any" and "work ended on/after: no
    recency window" read as if the RFP had said "any"; it stated nothing."""
    silent = {
        "issuer": None,
        "issuer_type": None,
        "customer_types": [],
        "value_min": None,
        "value_max": None,
        "ended_after": None,
        "started_after": None,
        "as_of": "2026-03-01",
    }
    assert scope_line("county-rfp-md", silent) == (
        "partition county-rfp-md; issuer: not stated (type unknown); customer types: not "
        "stated; value: not stated; work ended on/after: not stated"
    )
    stated = silent | {
        "customer_types": ["state", "local"],
        "value_min": 2_000_000,
        "ended_after": "2021-03-01",
    }
    line = scope_line("county-rfp-md", stated)
    assert "customer types: state, local; value: at least $2.0M; " in line
    assert line.endswith("work ended on/after: 2021-03-01")
    assert band(None, 5_000_000) == "at most $5.0M"


def test_the_brief_and_the_cli_share_one_not_stated_wording():
    from rfp_retrieval.report.brief import _fmt

    assert _fmt(None) == _fmt([]) == band(None, None) == NOT_STATED == "not stated"
