"""The response brief: content, score parts, escaping, and questions degrade gracefully."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl

from rfp_retrieval.report.brief import (
    brief_html,
    brief_markdown,
    question_views,
    reference_facts,
    score_parts,
)

SCOPE = {
    "rfp_partition": "miami-dade-311-rfp-md",
    "title": "311 Contact Center <script>alert(1)</script>",
    "issuer": "Miami-Dade County, Information Technology Department",
    "issuer_type": "local",
    "customer_types": ["local"],
    "industries": [],
    "value_min": 2_000_000,
    "value_max": None,
    "ended_after": dt.date(2021, 7, 16),
    "started_after": None,
    "require_prime": False,
    "references_required": 3,
    "as_of": dt.date(2026, 7, 16),
    "as_of_source": "issue date stated in the RFP",
    "model": "all-MiniLM-L6-v2",
    "trace": json.dumps(
        [
            {
                "filter": "value",
                "section": "3. Qualifications and References > 3.2",
                "sentence": "References with a total contract value below $2 million ...",
                "reading": {"min": 2000000, "max": None},
            }
        ]
    ),
}
TRACE = json.dumps(
    [
        {"filter": "library", "remaining": 24},
        {"filter": "customer_type", "value": ["local"], "remaining": 2},
        {"filter": "relax customer_type", "value": ["local", "state"], "remaining": 5},
    ]
)


def _ref(rank: int, pp_id: str, **components: float) -> dict:
    return {
        "rfp_partition": "miami-dade-311-rfp-md",
        "rank": rank,
        "id": pp_id,
        "title": f"Title of {pp_id}",
        "score": round(sum(components.values()), 6),
        **components,
        "relaxed": ["customer_type"] if rank == 3 else [],
        "mode": "default",
        "candidate_count": 5,
        "relaxation_steps": ["customer types widened to local, state"],
        "filter_trace": TRACE,
        "reason": None,
    }


REFERENCES = [
    _ref(2, "PP-176", weighted_whole=0.2, weighted_outcome=0.1, recency_bump=0.05),
    _ref(1, "PP-175", weighted_whole=0.3, weighted_outcome=0.2, agency_bump=0.08),
    _ref(3, "PP-100", weighted_whole=0.25, age_penalty=-0.02, vague_penalty=-0.03),
]


def test_score_parts_split_positive_components_from_penalties():
    positives, penalties = score_parts(REFERENCES[2] | {"whole": 0.83})
    assert positives == [("weighted_whole", "whole entry", 0.25)]
    assert penalties == [
        ("age_penalty", "age penalty (ended long before the RFP)", -0.02),
        ("vague_penalty", "vague outcomes", -0.03),
    ]


def test_naive_mode_charts_the_whole_entry_cosine():
    assert score_parts({"whole": 0.61}) == ([("whole", "whole-entry cosine (naive)", 0.61)], [])


def test_html_brief_escapes_rfp_text_and_lists_references_in_rank_order():
    page = brief_html(SCOPE, REFERENCES, vague_ids={"PP-100"})
    assert "<script>" not in page
    assert "311 Contact Center &lt;script&gt;alert(1)&lt;/script&gt;" in page
    order = [page.index(f'data-id="{i}"') for i in ("PP-175", "PP-176", "PP-100")]
    assert order == sorted(order)
    assert page.count('class="part"') == 7
    assert page.count('class="penalty"') == 2
    assert "Misses a stated constraint:</b> customer type" in page
    assert page.count("Vague outcomes:") == 1
    assert "customers types" not in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_markdown_brief_names_relaxation_trace_and_as_of_source():
    text = brief_markdown(SCOPE, REFERENCES, vague_ids={"PP-100"})
    lines = text.splitlines()
    assert lines[0] == r"# Response brief: 311 Contact Center \<script\>alert(1)\</script\>"
    assert "- **As-of date:** 2026-07-16 (issue date stated in the RFP)" in lines
    assert (
        "Ranking mode default; 2 candidate(s) passed every hard filter, 3 let in by relaxation."
        in lines
    )
    assert "5 candidate(s) passed" not in text
    assert (
        "**Constraints relaxed** (fewer than three passed every hard filter): "
        "customer types widened to local, state" in lines
    )
    assert "### 1. PP-175: Title of PP-175 (score 0.580)" in lines
    assert "- Components: whole entry +0.300; outcome +0.200; same agency bump +0.080" in lines
    assert "- **Misses:** customer type" in lines  # the writer's words (filters.label)
    assert r"| relax customer\_type | local, state | 5 |" in lines
    assert "## Questions" not in text


def test_candidate_count_without_relaxation_says_all_passed_the_hard_filters():
    unrelaxed = [
        r
        | {
            "relaxed": [],
            "relaxation_steps": [],
            "candidate_count": 2,
            "filter_trace": json.dumps(json.loads(TRACE)[:2]),
        }
        for r in REFERENCES
    ]
    lines = brief_markdown(SCOPE, unrelaxed).splitlines()
    assert "Ranking mode default; 2 candidate(s) passed the hard filters." in lines
    assert not any("let in by relaxation" in line for line in lines)
    page = brief_html(SCOPE, REFERENCES)
    assert "2 candidate(s) passed every hard filter, 3 let in by relaxation.</p>" in page


def test_questions_merge_rewrites_and_passages_and_flag_needs_sme():
    rewritten = pl.DataFrame(
        {
            "rfp_partition": ["p", "p"],
            "question_id": ["q1", "q2"],
            "label": ["3.1", "3.2"],
            "original": ["Describe your approach.", "Provide uptime SLAs."],
            "section_path": [["3. Approach"], ["3. Approach"]],
            "skipped": [False, True],
            "rewrite": ["Describe your 311 CRM migration approach.", None],
            "queries": [
                json.dumps([{"role": "original", "text": "Describe your approach."}]),
                "[]",
            ],
        }
    )
    answers = pl.DataFrame(
        {
            "question_id": ["q1", "q1", "q2"],
            "status": ["answered", "answered", "needs SME"],
            "confidence": [0.71, 0.71, 0.2],
            "rank": [2, 1, None],
            "block_id": ["crm-2", "crm-1", None],
            "title": ["CRM two", "CRM one", None],
            "score": [0.4, 0.5, None],
        }
    )
    views = question_views(rewritten, answers)
    assert [(v["label"], v["needs_sme"]) for v in views] == [("3.1", False), ("3.2", True)]
    assert [p["block_id"] for p in views[0]["passages"]] == ["crm-1", "crm-2"]
    assert views[0]["queries"] == ["Describe your approach."]
    text = brief_markdown(SCOPE, REFERENCES, questions=views)
    assert "2 question(s), 1 need an SME." in text
    assert "### 3.2 **needs SME**" in text
    assert question_views(None, None) is None
    assert question_views(rewritten.select(["question_id", "original"]), None)[0]["label"] is None


def test_each_reference_shows_the_facts_a_writer_checks_before_citing_it():
    entries = pl.DataFrame(
        [
            {
                "id": "PP-175",
                "customer_named": "Ohio Department of Medicaid",
                "customer_acronym": "ODM",
                "customer_type": "state",
                "role": "prime",
                "prime_contractor": None,
                "value_min": 14_800_000,
                "value_max": 21_000_000,
                "value_funded": 14_800_000,
                "start_date": dt.date(2021, 3, 1),
                "end_date": None,
                "ongoing": True,
            },
            {
                "id": "PP-176",
                "customer_named": None,
                "customer_acronym": "FNS",
                "customer_type": "federal-civilian",
                "role": "sub",
                "prime_contractor": "Tessaline Government Services",
                "value_min": None,
                "value_max": None,
                "value_funded": None,
                "start_date": dt.date(2019, 10, 1),
                "end_date": dt.date(2024, 9, 30),
                "ongoing": False,
            },
            {
                "id": "PP-100",
                "customer_named": "Fairfax County",
                "customer_acronym": None,
                "customer_type": "local",
                "role": "prime",
                "prime_contractor": None,
                "value_min": 850_000,
                "value_max": 2_000_000,
                "value_funded": None,
                "start_date": None,
                "end_date": dt.date(2020, 6, 30),
                "ongoing": False,
            },
        ]
    )
    facts = reference_facts(entries, ["PP-175", "PP-176", "PP-100", "PP-999"])
    assert facts == {
        "PP-175": "Ohio Department of Medicaid (ODM) (state); prime; $14.8M funded of $21.0M; "
        "2021-03-01 to ongoing",
        "PP-176": "FNS (federal-civilian); sub to Tessaline Government Services; value not "
        "stated; 2019-10-01 to 2024-09-30",
        "PP-100": "Fairfax County (local); prime; $850K–$2.0M; start not stated to 2020-06-30",
    }
    page = brief_html(SCOPE, REFERENCES, facts=facts)
    assert '<p class="facts">Ohio Department of Medicaid (ODM) (state); prime;' in page
    assert page.index("PP-175") < page.index("$14.8M funded of $21.0M")
    text = brief_markdown(SCOPE, REFERENCES, facts=facts)
    assert "- Facts: FNS (federal-civilian); sub to Tessaline Government Services" in text


def test_asset_preview_shows_the_summed_components_of_the_references():
    from assets.previews import reference_preview_columns, references_preview
    from rfp_retrieval.retrieval.records import RankedReference, RankingResult
    from rfp_retrieval.retrieval.references import references_frame

    naive = RankedReference(1, "PP-1", "Naive pick", 0.61, {"whole": 0.61})
    default = RankedReference(
        1,
        "PP-2",
        "Default pick",
        0.4,
        {"whole": 0.6, "weighted_whole": 0.156, "recency_bump": 0.05, "value_penalty": -0.22},
    )
    frame = references_frame("p", RankingResult([naive], 9, [], [], "naive"))
    assert reference_preview_columns(frame) == ["rank", "id", "title", "score", "whole", "relaxed"]
    frame = references_frame("p", RankingResult([default], 9, [], [], "default"))
    assert reference_preview_columns(frame)[4:] == [
        "weighted_whole",
        "recency_bump",
        "value_penalty",
        "relaxed",
    ]
    assert "| whole entry |" in references_preview(frame)  # labels, as the brief


def test_filter_trace_says_a_soft_constraint_is_scored_not_filtered():
    trace = json.dumps(
        [
            {"filter": "library", "remaining": 82},
            {
                "filter": "value",
                "value": [3000000, 15000000],
                "remaining": 82,
                "soft_penalty": 0.16,
            },
            {"filter": "customer_type", "value": ["commercial"], "remaining": 31},
        ]
    )
    refs = [r | {"filter_trace": trace} for r in REFERENCES]
    lines = brief_markdown(SCOPE, refs).splitlines()
    assert "| value | $3.0M to $15.0M | 82 (scored, not filtered) |" in lines
    assert "| customer\\_type | commercial | 31 |" in lines
    page = brief_html(SCOPE, refs)
    assert "<td>82 (scored, not filtered)</td>" in page
    assert "<td>31</td>" in page


def test_every_positive_part_a_mode_sums_has_a_bar_in_the_chart():
    # a summed bonus without a bar would leave the chart short of the score (lexical_match)
    from rfp_retrieval.report.chart import BAR_COLOURS
    from rfp_retrieval.retrieval.components import COMPONENT, SUMMED_COMPONENTS

    positive = {n for n in SUMMED_COMPONENTS if COMPONENT[n].kind != "penalty"}
    assert positive - {"whole"} <= set(BAR_COLOURS)
    assert "lexical_match" in BAR_COLOURS


def test_the_heading_and_relaxation_say_the_rfps_count_and_the_bar_says_before_penalties():
    two = brief_markdown(SCOPE | {"references_required": 2}, REFERENCES[:2]).splitlines()
    assert "## The two references" in two
    assert (
        "**Constraints relaxed** (fewer than two passed every hard filter): "
        "customer types widened to local, state" in two
    )
    five = brief_html(SCOPE | {"references_required": 5}, REFERENCES)
    assert '<h2 id="references">The three references</h2>' in five  # three picks shown
    assert "(fewer than five references passed every hard filter)" in five
    # PP-100's bar: +0.250 of parts, -0.050 of penalties, score 0.200
    assert ">+0.250 before penalties</text>" in five
    assert ">+0.500 before penalties</text>" not in five  # PP-175 has no penalty
    assert ">+0.580</text>" in five
