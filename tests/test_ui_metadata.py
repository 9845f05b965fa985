"""The ``pp_references`` metadata table in the Dagster UI matches the brief (issue 15, UI):
each summed component under its label with the signed contribution the brief shows, raw
cosines only under a "cosine" header, and no column for a component the mode does not use."""

from __future__ import annotations

from assets.previews import references_preview
from rfp_retrieval.report.brief import score_parts
from rfp_retrieval.retrieval.records import RankedReference, RankingResult
from rfp_retrieval.retrieval.references import references_frame

DEFAULT_PICKS = [
    RankedReference(
        1,
        "PP-2",
        "Default pick",
        0.269,
        {
            "whole": 0.403,
            "section_max": 0.512,
            "weighted_whole": 0.113,
            "weighted_section_max": 0.128,
            "recency_bump": 0.05,
            "value_penalty": -0.022,
        },
    ),
    RankedReference(
        2,
        "PP-7",
        "Runner-up",
        0.2,
        {"whole": 0.35, "section_max": 0.4, "weighted_whole": 0.1, "weighted_section_max": 0.1},
    ),
]


def test_the_default_mode_table_shows_signed_parts_by_label_and_cosines_apart():
    frame = references_frame("p", RankingResult(DEFAULT_PICKS, 9, [], [], "default"))
    lines = references_preview(frame).splitlines()
    assert lines[0] == (
        "| rank | id | title | score | whole entry | best scope section | recency bump "
        "| outside the value band | whole cosine | section_max cosine | relaxed |"
    )
    assert lines[2] == (
        "| 1 | PP-2 | Default pick | 0.269 | +0.113 | +0.128 | +0.050 | -0.022 | 0.403 | 0.512 |  |"
    )
    assert lines[3] == "| 2 | PP-7 | Runner-up | 0.200 | +0.100 | +0.100 |  |  | 0.350 | 0.400 |  |"
    # the same contributions the brief lists for the pick
    positives, penalties = score_parts(frame.row(0, named=True))
    assert [(label, f"{v:+.3f}") for _, label, v in positives + penalties] == [
        ("whole entry", "+0.113"),
        ("best scope section", "+0.128"),
        ("recency bump", "+0.050"),
        ("outside the value band", "-0.022"),
    ]
    # components the default mode does not compute have no (empty) column
    assert "narrative" not in lines[0] and "technical" not in lines[0]


def test_the_naive_mode_table_sums_the_whole_entry_cosine():
    naive = RankedReference(1, "PP-1", "Naive pick", 0.61, {"whole": 0.61})
    frame = references_frame("p", RankingResult([naive], 9, [], [], "naive"))
    lines = references_preview(frame).splitlines()
    assert lines[0] == "| rank | id | title | score | whole-entry cosine (naive) | relaxed |"
    assert lines[2] == "| 1 | PP-1 | Naive pick | 0.610 | +0.610 |  |"
