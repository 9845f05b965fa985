"""Why cite and check before citing: each caveat rule, the why-cite lines, plain filters."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from rfp_retrieval.report.brief import brief_html, brief_markdown
from rfp_retrieval.report.caveats import (
    Caveat,
    caveats,
    missed_constraint_caveats,
    passed_filters,
    predecessor_caveat,
    recency_caveat,
    role_caveat,
    vague_caveat,
    value_caveat,
    weak_pick_caveat,
)
from rfp_retrieval.report.chart import score_chart_svg
from rfp_retrieval.report.filters import filter_sentence
from rfp_retrieval.report.reasons import (
    best_metric,
    entry_text,
    shared_phrases,
    short_section,
    why_cite,
)
from tests.small_project import MIAMI_RFP, SAMPLE_LIBRARY

SCOPE = {
    "rfp_partition": "county-311",
    "title": "311 platform",
    "value_min": 2_000_000,
    "value_max": 10_000_000,
    "ended_after": dt.date(2021, 7, 16),
    "started_after": None,
    "require_prime": False,
    "section_headings": ["Service Request CRM", "Resident Self-Service"],
    "text_whole": "Replace the 311 contact center and the service request CRM.",
    "text_outcome": "Reduce request resolution times and raise self-service adoption.",
    "emphasized_domains": ["contact-center"],
}
ENTRY = {
    "id": "PP-1",
    "title": "County 311 Contact Center Modernization",
    "role": "prime",
    "prime_contractor": None,
    "value_min": None,
    "value_max": 4_000_000,
    "value_funded": 1_500_000,
    "start_date": dt.date(2019, 1, 1),
    "end_date": dt.date(2021, 12, 31),
    "ongoing": False,
    "domains": ["contact-center", "crm"],
    "stack_tags": ["Salesforce"],
    "technical_description": "Cloud contact center with a service request CRM.",
    "narrative": None,
    "outcome_narrative": None,
    "outcome_metrics": [
        "Delivered on schedule",
        "Cut average request resolution times by 40%",
        "Self-service adoption rose to 35% of requests",
    ],
}
RELEVANCE = [
    {
        "sentence": "References with a total contract value below $2 million will not be "
        "considered relevant.",
        "section": "311 RFP > 3. References",
    },
    {
        "sentence": "Relevant projects show implementation of government contact center "
        "platforms and CRM for service requests.",
        "section": "311 RFP > 3. References > 3.4 Relevant projects show implementation of "
        "government contact center platforms and CRM for service requests.",
    },
]
PICKS = [
    {"rank": 1, "id": "PP-7", "score": 0.6},
    {"rank": 2, "id": "PP-8", "score": 0.5},
    {"rank": 3, "id": "PP-1", "score": 0.2},
]


def test_funded_inside_the_band_with_the_ceiling_above_the_maximum_is_a_caveat():
    # "$18.2M funded of $52.0M" against "not more than $20,000,000" (no floor)
    entry = ENTRY | {"value_funded": 18_200_000, "value_max": 52_000_000}
    scope = SCOPE | {"value_min": None, "value_max": 20_000_000}
    assert value_caveat(entry, scope) == Caveat(
        "value",
        "Funded $18.2M is inside the RFP's band while the ceiling $52.0M is above its maximum "
        "of $20.0M; check which value the RFP counts (funded or ceiling).",
    )
    # both amounts inside the band, or funded above the maximum too: no caveat
    assert value_caveat(entry | {"value_max": 19_000_000}, scope) is None
    assert value_caveat(entry | {"value_funded": 21_000_000}, scope) is None


def test_sub_role_is_a_caveat_and_an_unstated_role_is_unknown():
    sub = ENTRY | {"role": "sub", "prime_contractor": "Acme Federal"}
    assert role_caveat(sub, SCOPE) == Caveat(
        "role",
        "Sub role: performed as a subcontractor to Acme Federal, not prime; say which part "
        "of the work was ours.",
    )
    assert role_caveat(sub, SCOPE | {"require_prime": True}) == Caveat(
        "role",
        "Sub role: performed as a subcontractor to Acme Federal; the RFP asks for prime work only.",
    )
    assert role_caveat(ENTRY, SCOPE) is None
    assert role_caveat(ENTRY | {"role": None}, SCOPE) == Caveat(
        "unknown", "Role unknown: the library does not say prime or sub."
    )


def test_funded_below_the_floor_with_the_ceiling_inside_the_band_is_a_caveat():
    assert value_caveat(ENTRY, SCOPE) == Caveat(
        "value",
        "Funded $1.5M is below the RFP's floor of $2.0M while the ceiling $4.0M is inside the "
        "band; check which value the RFP counts.",
    )
    # the ceiling above the band's top, or funded at the floor: no caveat
    assert value_caveat(ENTRY | {"value_max": 12_000_000}, SCOPE) is None
    assert value_caveat(ENTRY | {"value_funded": 2_000_000}, SCOPE) is None
    assert value_caveat(ENTRY, SCOPE | {"value_min": None}) is None
    # funded unknown: the filter already judged the ceiling, nothing to add
    assert value_caveat(ENTRY | {"value_funded": None}, SCOPE) is None
    no_value = ENTRY | {"value_max": None, "value_funded": None}
    assert value_caveat(no_value, SCOPE) == Caveat(
        "unknown", "Value unknown: the library states no value (floor $2.0M, ceiling $10.0M)."
    )


def test_an_end_date_within_six_months_of_the_recency_cut_off_is_a_caveat():
    assert recency_caveat(ENTRY, SCOPE) == Caveat(
        "recency",
        "Ended 2021-12-31, 168 days after the recency cut-off 2021-07-16; confirm the date the "
        "RFP counts back from.",
    )
    assert recency_caveat(ENTRY | {"end_date": dt.date(2022, 1, 16)}, SCOPE) is None
    assert recency_caveat(ENTRY | {"end_date": None, "ongoing": True}, SCOPE) is None
    assert recency_caveat(ENTRY | {"end_date": None}, SCOPE) == Caveat(
        "unknown", "End date unknown: the library states none (cut-off 2021-07-16)."
    )
    started = SCOPE | {"ended_after": None, "started_after": "2018-12-01"}
    assert recency_caveat(ENTRY, started) == Caveat(
        "recency",
        "Started 2019-01-01, 31 days after the recency cut-off 2018-12-01; confirm the date "
        "the RFP counts back from.",
    )


@pytest.mark.parametrize(
    ("narrative", "quoted"),
    [
        (
            "Scope was wide. This work was performed by Orrin Data Corp., which we acquired "
            "in 2020. Staff stayed on.",
            "This work was performed by Orrin Data Corp., which we acquired in 2020.",
        ),
        (
            "Delivered by Lumen Inc., our predecessor company.",
            "Delivered by Lumen Inc., our predecessor company.",
        ),
        (
            "Held by a predecessor firm until the merger; we took it over in 2022.",
            "Held by a predecessor firm until the merger; we took it over in 2022.",
        ),
        ("We acquired new licenses for the county.", None),
        ("Delivered by our team for the acquisition office.", None),
        ("Performed by our staff. We later acquired another firm.", None),  # two sentences
    ],
)
def test_work_a_predecessor_company_performed_is_a_caveat(narrative, quoted):
    found = predecessor_caveat({"narrative": narrative, "technical_description": None})
    if quoted is None:
        assert found is None
    else:
        assert found is not None and found.kind == "predecessor"
        assert found.text.startswith(f'Performed by another company: "{quoted}" Say so')


def test_vague_outcomes_follow_the_library_rule():
    assert vague_caveat("PP-1", {"PP-1"}) == Caveat(
        "vague",
        "Vague outcomes: no measurable metric in the library entry; ask its project manager "
        "for numbers before citing it.",
    )
    assert vague_caveat("PP-1", {"PP-2"}) is None


def test_a_weak_pick_says_why():
    assert weak_pick_caveat(PICKS[2], PICKS, 5) == Caveat(
        "weak",
        "Weak pick: score 0.200 is far below the typical 0.500 of the picks; a runner-up may "
        "fit better.",
    )
    assert weak_pick_caveat(PICKS[1], PICKS, 5) is None
    assert weak_pick_caveat(PICKS[0], PICKS, 2, relaxed=True) == Caveat(
        "weak",
        "Weak pick: only 2 entries passed the RFP's filters, so they were relaxed; check this "
        "one fits the RFP at all.",
    )
    assert weak_pick_caveat(PICKS[0], PICKS, 0, relaxed=True).text == (
        "Weak pick: no entry passed the RFP's filters, so they were relaxed; check this one "
        "fits the RFP at all."
    )
    assert weak_pick_caveat(PICKS[0], PICKS, 1).text == (
        "Weak pick: only 1 entry passed the RFP's filters; check this one fits the RFP at all."
    )
    trace = [
        {"filter": "library", "remaining": 24},
        {"filter": "customer_type", "value": ["local"], "remaining": 2},
        {"filter": "relaxed: customer types widened to local, state", "remaining": 5},
    ]
    assert passed_filters(trace) == 2
    assert passed_filters([]) is None


def test_a_missed_constraint_says_the_entrys_fact_beside_the_rfps():
    small = ENTRY | {"value_funded": 900_000, "value_max": 1_200_000}  # completed: funded counts
    assert missed_constraint_caveats({"relaxed": ["value"]}, small, SCOPE) == [
        Caveat(
            "miss",
            "Value $900K is below the RFP's floor of $2.0M: it misses the stated size; show "
            "why the work is comparable, or cite a runner-up.",
        )
    ]
    ongoing = ENTRY | {"ongoing": True, "value_min": 12_000_000, "value_max": 15_000_000}
    assert missed_constraint_caveats({"relaxed": ["value"]}, ongoing, SCOPE)[0].text == (
        "Value $12.0M–$15.0M is above the RFP's ceiling of $10.0M: it misses the stated size; "
        "show which part of the work is comparable, or cite a runner-up."
    )
    old = ENTRY | {"end_date": dt.date(2020, 7, 16)}
    assert missed_constraint_caveats({"relaxed": ["recency"]}, old, SCOPE)[0].text == (
        "Ended 2020-07-16, 365 days before the RFP's recency cut-off 2021-07-16: evaluators "
        "may not count it."
    )
    state = ENTRY | {"customer_type": "state"}
    scope = SCOPE | {"customer_types": ["local", "federal-civilian"], "industries": ["health"]}
    assert missed_constraint_caveats(
        {"relaxed": ["customer_type", "industry", "role", "vehicle_type"]},
        state | {"industry": "transportation", "role": "sub"},
        scope,
    ) == [
        Caveat("miss", "Customer type state; the RFP accepts local, federal-civilian."),
        Caveat("miss", "Industry transportation; the RFP asks for health."),
        # the sub role is role_caveat's line; a vehicle has no fact to quote
        Caveat("miss", "Misses the RFP's contract vehicle."),
    ]
    # an unknown fact is not a miss line: the filters never list it as missed
    assert missed_constraint_caveats({"relaxed": []}, ENTRY, SCOPE) == []
    assert missed_constraint_caveats({"relaxed": None}, ENTRY, SCOPE) == []


def test_caveats_come_in_a_fixed_order_and_a_missing_entry_is_unknown():
    kinds = [c.kind for c in caveats(PICKS[2], ENTRY, SCOPE, {"PP-1"}, PICKS, 5)]
    assert kinds == ["value", "recency", "vague", "weak"]
    missing_one = PICKS[2] | {"relaxed": ["recency"]}
    old = ENTRY | {"end_date": dt.date(2020, 1, 1)}
    kinds = [c.kind for c in caveats(missing_one, old, SCOPE, {"PP-1"}, PICKS, 5)]
    assert kinds == ["miss", "value", "vague", "weak"]
    assert caveats(PICKS[1], None, SCOPE, set(), PICKS, 5) == [
        Caveat("unknown", "Library entry not found: role, value and dates unknown.")
    ]


def test_why_cite_quotes_the_criterion_the_section_the_domains_and_a_metric():
    assert why_cite(ENTRY, SCOPE, RELEVANCE) == [
        "Meets the RFP's relevance criterion \"Relevant projects show implementation of "
        'government contact center platforms and CRM for service requests." (3. References): '
        "contact center, service requests.",
        'Matches the RFP\'s scope section "Service Request CRM": service request crm.',
        "Covers the domains the RFP emphasises: contact-center.",
        'Outcome to quote: "Self-service adoption rose to 35% of requests" (shares self, '
        "service, adoption, requests with the RFP's scope).",
    ]
    plain = ENTRY | {"title": "Payroll", "technical_description": None, "domains": []}
    assert why_cite(plain | {"outcome_metrics": []}, SCOPE, RELEVANCE) == []
    assert best_metric(plain | {"outcome_metrics": ["On time", "Paid 9,000 staff"]}, "") == (
        "Paid 9,000 staff",
        [],
    )
    assert short_section("Doc > 4. Evaluation") == "4. Evaluation"
    assert short_section(None) is None


def test_why_cite_on_the_sample_library_and_the_miami_rfp():
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.ingest import load_library
    from rfp_retrieval.report.reasons import relevance_criteria, rfp_scope_sections
    from rfp_retrieval.scope import read_scope

    doc = load_document(MIAMI_RFP)
    reading = read_scope(doc)
    scope = {
        "text_whole": f"{reading.narrative_text} {reading.technical_text}",
        "text_outcome": reading.outcome_text,
        "emphasized_domains": reading.emphasized_domains,
        "ended_after": reading.ended_after,
        "value_min": reading.value_min,
        "value_max": reading.value_max,
    }
    entries = entries_frame(load_library(SAMPLE_LIBRARY).entries)
    (entry,) = entries.filter(entries["id"] == "PP-053").to_dicts()
    lines = why_cite(entry, scope, relevance_criteria(doc), rfp_scope_sections(doc))
    assert lines == [
        "Meets the RFP's relevance criterion \"The county will evaluate references on "
        "relevance and on demonstrated, quantified outcomes such as service levels achieved, "
        'self-service adoption, and reductions in request resolution times." (4. Evaluation): '
        "service levels, self service.",
        "Meets the RFP's relevance criterion \"Relevant projects show implementation of 311 or "
        "government contact center platforms and CRM for service requests, with integration "
        'to departmental systems." (3. Qualifications and References): contact center.',
        'Matches the RFP\'s scope section "Cloud Contact Center Platform": contact center, '
        "service platform, omnichannel routing.",
        "Covers the domains the RFP emphasises: contact-center.",
        'Outcome to quote: "Consolidated 3 CRM instances into 1" (shares crm with the RFP\'s '
        "scope).",
    ]
    # ended 2021-08-31, six weeks after the cut-off counted back from the issue date
    assert [c.text for c in caveats({"id": "PP-053"}, entry, scope, set(), [], 5)] == [
        "Ended 2021-08-31, 46 days after the recency cut-off 2021-07-16; confirm the date the "
        "RFP counts back from."
    ]


@pytest.mark.parametrize(
    ("item", "sentence"),
    [
        (
            {
                "filter": "recency",
                "sentence": "References for work performed within the last five (5) years.",
                "reading": {
                    "months": 60,
                    "anchor": "proposal due date",
                    "anchor_date": "2026-06-01",
                    "ended_after": "2021-06-01",
                },
            },
            "ended on or after 2021-06-01 (5 years before the proposal due date 2026-06-01), "
            "or still ongoing",
        ),
        (
            {
                "filter": "recency",
                "sentence": "Systems that went live within the last seven (7) years.",
                "reading": {
                    "months": 84,
                    "anchor": "issue date",
                    "anchor_date": "2026-03-02",
                    "ended_after": "2019-03-02",
                },
            },
            "ended on or after 2019-03-02 (7 years before the issue date 2026-03-02), or still "
            "ongoing; approximation: the RFP's wording is read as the end date of the work",
        ),
        (
            {
                "filter": "recency",
                "sentence": "Contracts started since FY2021.",
                "reading": {"started_after": "2020-10-01"},
            },
            "started on or after 2020-10-01 (the date the RFP states)",
        ),
        (
            {
                "filter": "recency",
                "sentence": "within 18 months",
                "reading": {"months": 18, "unknown": "the window would start before year 1"},
            },
            "recency window unknown: the window would start before year 1",
        ),
        (
            {"filter": "value", "reading": {"min": 2_000_000, "max": None, "basis": "total"}},
            "contract value at least $2.0M",
        ),
        (
            {
                "filter": "value",
                "reading": {
                    "min": 4_000_000,
                    "max": 6_000_000,
                    "approx": 5_000_000,
                    "basis": "annual",
                },
            },
            "contract value between $4.0M and $6.0M per year; approximation: the RFP states "
            "about $5.0M per year, read as this band",
        ),
        (
            {
                "filter": "value",
                "reading": {
                    "min": 1_000_000,
                    "max": None,
                    "basis": "annual",
                    "unknown": "annual value: not compared with total contract values",
                },
            },
            "contract value at least $1.0M per year; annual value: not compared with total "
            "contract values (no value filter)",
        ),
        (
            {"filter": "value", "reading": "no value constraint"},
            "no value constraint (the RFP says any size)",
        ),
        (
            {
                "filter": "customer_types",
                "reading": {"types": ["state", "local"], "industries": []},
            },
            "customer type state or local",
        ),
        (
            {
                "filter": "customer_types",
                "reading": {"types": [], "industries": ["utilities"]},
            },
            "customer type not stated; industry utilities",
        ),
        (
            {
                "filter": "customer_types",
                "reading": {"types": ["state"], "industries": [], "or_industries": ["utilities"]},
            },
            "customer type state, or industry utilities",
        ),
        ({"filter": "customer_types", "reading": "any"}, "any customer type (the RFP says so)"),
        ({"filter": "require_prime", "reading": True}, "prime contractor only"),
        ({"filter": "references_required", "reading": 3}, "3 references required"),
        ({"filter": "issuer", "reading": "local"}, "issuer type local"),
        ({"filter": "recency", "reading": "not stated"}, "not stated in the RFP (no filter)"),
    ],
)
def test_filters_read_in_plain_english(item, sentence):
    assert filter_sentence(item) == sentence


def test_the_brief_shows_reasons_checks_and_plain_filters_without_json():
    scope = SCOPE | {
        "trace": json.dumps(
            [
                {
                    "filter": "recency",
                    "section": "3. References",
                    "sentence": "Projects that went live within the last five (5) years.",
                    "reading": {
                        "months": 60,
                        "anchor": "issue date",
                        "anchor_date": "2026-07-16",
                        "ended_after": "2021-07-16",
                    },
                },
                {"filter": "customer_types", "section": None, "sentence": None, "reading": "any"},
            ]
        )
    }
    trace = json.dumps(
        [
            {"filter": "library", "remaining": 24},
            {"filter": "customer_type", "value": ["local"], "remaining": 2},
        ]
    )
    shared = {"filter_trace": trace, "relaxation_steps": ["customer types widened to any"]}
    refs = [p | {"title": p["id"], "weighted_whole": p["score"], **shared} for p in PICKS]
    entries = {"PP-1": ENTRY}
    page = brief_html(scope, refs, {"PP-1"}, entries=entries, relevance=RELEVANCE)
    assert "{&quot;months&quot;" not in page and '{"months"' not in page
    assert (
        "<td>ended on or after 2021-07-16 (5 years before the issue date 2026-07-16), or still "
        "ongoing; approximation: the RFP&#x27;s wording is read as the end date of the work</td>"
    ) in page
    assert "<td>(no source sentence recorded)</td><td>any customer type (the RFP says so)</td>" in (
        page
    )
    assert "<tr><td>customer_type</td><td>local</td><td>2</td></tr>" in page
    assert "<tr><td>library</td><td></td><td>24</td></tr>" in page
    assert page.count('<div class="why"><b>Why cite</b>') == 1  # only PP-1 has a library row
    assert re.findall(r'<li data-kind="([a-z]+)">', page) == [
        "unknown",
        "weak",
        "unknown",
        "weak",
        "value",
        "recency",
        "vague",
        "weak",
    ]
    text = brief_markdown(scope, refs, {"PP-1"}, entries=entries, relevance=RELEVANCE)
    assert "- **Why cite:**" in text
    assert "  - Covers the domains the RFP emphasises: contact-center." in text
    assert (
        "  - Weak pick: only 2 entries passed the RFP's filters, so they were relaxed; check "
        "this one fits the RFP at all."
    ) in text.splitlines()


def test_chart_labels_segments_and_lists_only_the_parts_drawn():
    refs = [
        {"rank": 1, "id": "PP-1", "score": 0.5, "weighted_whole": 0.3, "weighted_outcome": 0.2},
        {"rank": 2, "id": "PP-2", "score": 0.28, "weighted_whole": 0.3, "age_penalty": -0.02},
    ]
    svg = score_chart_svg(refs)
    legend = re.findall(r'<rect class="legend"[^>]*></rect>\n<text [^>]*>([^<]+)</text>', svg)
    assert legend == ["whole entry", "outcome", "penalties"]
    assert re.findall(r'class="seg-label"[^>]*>([^<]+)<', svg) == ["+0.30", "+0.20", "+0.30"]
    assert "-0.020 penalties (age penalty (ended long before the RFP))" in svg


def test_notes_record_is_the_run_json_shape():
    from rfp_retrieval.report.brief import notes_by_reference, notes_record

    trace = json.dumps([{"filter": "library", "remaining": 24}])
    refs = [{**PICKS[2], "rank": 1, "filter_trace": trace}]
    record = notes_record(notes_by_reference(refs, SCOPE, set(), {"PP-1": ENTRY}, RELEVANCE, None))
    assert list(record) == ["PP-1"]
    assert record["PP-1"]["why_cite"][2] == "Covers the domains the RFP emphasises: contact-center."
    assert record["PP-1"]["check_before_citing"] == [
        {
            "kind": "value",
            "text": "Funded $1.5M is below the RFP's floor of $2.0M while the ceiling $4.0M is "
            "inside the band; check which value the RFP counts.",
        },
        {
            "kind": "recency",
            "text": "Ended 2021-12-31, 168 days after the recency cut-off 2021-07-16; confirm "
            "the date the RFP counts back from.",
        },
    ]


def test_unknown_customer_type_and_missing_facets_are_shown_as_such():
    # issue 18 defects 4 and 6: the brief says unknown / missing, never a miss
    scope = SCOPE | {"customer_types": ["local", "state"], "value_min": None, "ended_after": None}
    entry = ENTRY | {"customer_type": None, "value_funded": None, "value_max": None}
    ref = {"id": "PP-1", "score": 0.8, "missing_facets": ["outcome"]}
    found = caveats(ref, entry, scope, set(), [ref], 5)
    assert found == [
        Caveat("unknown", "Value unknown: the library states no value (ceiling $10.0M)."),
        Caveat(
            "unknown",
            "Customer type unknown: the library does not say; the RFP accepts local, state.",
        ),
        Caveat(
            "missing",
            "Missing in the library entry: outcomes; ranked on its other parts. Write it up "
            "before citing this reference.",
        ),
    ]
    assert (
        caveats(
            ref | {"missing_facets": []}, ENTRY | {"customer_type": "local"}, scope, set(), [ref], 5
        )
        == []
    )


def test_only_picks_that_miss_a_constraint_are_weak_when_few_entries_passed():
    """One entry passed the filters, two were let in by relaxing them: only those two are weak."""
    passing = {"rank": 1, "id": "PP-7", "score": 0.6, "relaxed": []}
    let_in = {"rank": 2, "id": "PP-8", "score": 0.5, "relaxed": ["customer_type"]}
    picks = [passing, let_in, {"rank": 3, "id": "PP-1", "score": 0.45, "relaxed": ["value"]}]
    assert weak_pick_caveat(passing, picks, 1, relaxed=True) == Caveat(
        "few",
        "Passed every filter: the only entry that did; the other picks were let in by "
        "relaxing them.",
    )
    assert weak_pick_caveat(let_in, picks, 1, relaxed=True) == Caveat(
        "weak",
        "Weak pick: only 1 entry passed the RFP's filters, so they were relaxed; check this "
        "one fits the RFP at all.",
    )
    two = weak_pick_caveat(passing, picks[:2], 2)  # no relaxation: the library had two
    assert two == Caveat("few", "Passed every filter: one of only 2 entries that did.")
    low = passing | {"score": 0.1}  # a passing pick far below the others is still weak
    assert weak_pick_caveat(low, [low, *picks[1:]], 1, relaxed=True).text.startswith(
        "Weak pick: score 0.100 is far below the typical 0.450 of the picks"
    )
    found = caveats(passing, None, SCOPE, set(), picks, 1, relaxed=True)
    assert [c.kind for c in found] == ["unknown", "few"]


def test_why_cite_ignores_buyer_background_number_words_and_common_single_words():
    """New-user trial: "Matches the RFP's scope section 'About Northwind Mutual': million
    policyholders" and "(shares mean, time with the RFP's scope)" are no reasons."""
    entry = {
        "title": "Customer identity platform for an insurer",
        "technical_description": "Serves 2 million policyholders with single sign-on.",
        "outcome_metrics": ["Cut mean time to resolve by 40%"],
        "domains": [],
    }
    scope = {
        "text_whole": "Reduce the mean handling time of claims calls.",
        "text_outcome": "",
        "emphasized_domains": [],
    }
    sections = [
        ("About Northwind Mutual", "We serve 1.2 million policyholders in 14 states."),
        ("2. Identity Services", "Provide single sign-on for agents and policyholders."),
    ]
    assert why_cite(entry, scope, (), sections) == [
        'Matches the RFP\'s scope section "2. Identity Services": single sign.',
        'Outcome to quote: "Cut mean time to resolve by 40%".',
    ]
    only_background = sections[:1]
    assert why_cite(entry | {"outcome_metrics": []}, scope, (), only_background) == []


# issue 18 new-user trial: "why cite" scope reasons were word pairs no writer would quote
# ("management case", "system using", "subject matter, matter expert", "federal re, re
# review", "week sprint", "two weeks" from an "RFP Process" section)
WORK_SECTION = (
    "Case Management",
    "Case Management. The contractor shall modernize the benefits case management system "
    "using cloud services. The work covers records management, case intake and federal "
    "re-review of denied claims. Subject matter experts shall deliver in two-week sprints.",
)
TRIAL_ENTRY = {
    "title": "Benefits Case Management Modernization",
    "technical_description": "Rebuilt the case management system using a cloud platform. "
    "Records management, case intake and federal re-review workflows. Subject matter experts "
    "ran two-week sprints.",
    "narrative": "Answered questions for the first two weeks of each release.",
    "domains": ["case-management"],
    "stack_tags": [],
    "outcome_metrics": [],
}


def test_reason_phrases_are_topics_of_the_work_not_word_pairs():
    assert shared_phrases(WORK_SECTION[1], entry_text(TRIAL_ENTRY)) == [
        "case management",
        "benefits case management system",
        "records management",
        "case intake",
    ]


def test_a_procurement_section_gives_no_scope_reason():
    process = (
        "5. RFP Process",
        "The agency will answer questions on the case management system for the first two "
        "weeks after release.",
    )
    scope = {"emphasized_domains": []}
    assert why_cite(TRIAL_ENTRY, scope, [], [process]) == []
    assert why_cite(TRIAL_ENTRY, scope, [], [process, WORK_SECTION]) == [
        'Matches the RFP\'s scope section "Case Management": case management, benefits case '
        "management system, records management, case intake."
    ]
    # a work heading keeping a process word is still work
    work = ("Claims Process Improvement", "Improve the case management system.")
    assert why_cite(TRIAL_ENTRY, scope, [], [work]) == [
        'Matches the RFP\'s scope section "Claims Process Improvement": case management system.'
    ]


def test_a_two_amount_value_across_the_rfps_ceiling_or_floor_is_a_caveat():
    # "$12.7M (our share) of $34M ceiling" is read as 12.7M..34M; the filter passes it for
    # "not more than $15 million" because the range overlaps
    share = ENTRY | {"value_min": 12_700_000, "value_max": 34_000_000, "value_funded": None}
    assert value_caveat(share, {"value_min": None, "value_max": 15_000_000}) == Caveat(
        "value",
        "Value $12.7M–$34.0M runs past the RFP's ceiling of $15.0M: only the lower amount is "
        "within it; check which amount the RFP counts (our share or the whole contract).",
    )
    assert value_caveat(share, {"value_min": 20_000_000, "value_max": None}) == Caveat(
        "value",
        "Value $12.7M–$34.0M starts below the RFP's floor of $20.0M: only the upper amount "
        "reaches it; check which amount the RFP counts (our share or the whole contract).",
    )
    # the whole range inside the band, or one amount: no caveat
    assert value_caveat(share, {"value_min": 10_000_000, "value_max": 40_000_000}) is None
    one = share | {"value_min": 34_000_000}
    assert value_caveat(one, {"value_min": None, "value_max": 15_000_000}) is None


def test_the_brief_says_an_annual_value_is_stated_but_not_a_filter():
    annual = {
        "filter": "value",
        "section": "311 RFP > 3. References",
        "sentence": "Each reference must have an annual value of $1 million or more.",
        "reading": {
            "min": 1_000_000,
            "max": None,
            "approx": None,
            "basis": "annual",
            "unknown": "annual value: not compared with total contract values",
        },
    }
    scope = SCOPE | {"value_min": None, "value_max": None, "trace": json.dumps([annual])}
    text = brief_markdown(scope, [], set()).splitlines()
    assert (
        "- **Value at least (USD):** no filter (annual value stated: not compared with total "
        "values)"
    ) in text
    assert "- **Value at most (USD):** not stated" in text
    assert (
        "| value | contract value at least $1.0M per year; annual value: not compared with "
        "total contract values (no value filter) | 311 RFP \\> 3. References | Each reference "
        "must have an annual value of $1 million or more. |"
    ) in text


@pytest.mark.parametrize(
    ("heading", "procurement"),
    [
        ("5. RFP Process", True),
        ("Submission of Proposals", True),
        ("Questions and Answers", True),
        ("Schedule of Events", True),
        ("Evaluation Criteria", True),
        ("Procurement Process", True),
        ("6. Questions for Vendors", True),
        ("APPENDIX B. VENDOR QUESTIONNAIRE", True),
        ("Attachment 3 - Pricing", True),
        ("Appendix C Data Migration Plan", False),
        ("Vendor Questionnaire", True),
        # work headings that keep a process word
        ("Questionnaire Processing Platform", False),
        ("Claim Submission Service", False),
        ("Program Evaluation Support", False),
        ("Procurement System Modernization", False),
        ("Claims Process Improvement", False),
    ],
)
def test_procurement_headings_give_no_scope_reason(heading, procurement):
    section = (heading, "Modernize the case management system.")
    lines = why_cite(TRIAL_ENTRY, {"emphasized_domains": []}, [], [section])
    assert lines == (
        []
        if procurement
        else [f'Matches the RFP\'s scope section "{heading}": case management system.']
    )


def test_a_compound_word_is_not_cut_and_a_task_order_is_no_topic():
    assert shared_phrases(
        "Near real-time fee reporting under each task order.",
        "Built near real-time fee reporting; delivered under a task order.",
    ) == ["near real time fee reporting"]


def test_a_work_requirement_without_the_word_relevant_is_a_criterion_met_on_an_acronym(
    tmp_path,
):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.report.reasons import relevance_criteria

    path = tmp_path / "crm_rfp.md"
    path.write_text(
        "# Request for Proposals: Resident Request System\n\nIssue date: 2026-08-03\n\n"
        "## 2. Scope of Work\n\nReplace the request intake platform.\n\n"
        "## 4. References\n\nProvide three (3) references from public agencies for whom you "
        "have implemented a 311 or customer service CRM.\n",
        encoding="utf-8",
    )
    relevance = relevance_criteria(load_document(path))
    assert [r["sentence"] for r in relevance] == [
        "Provide three (3) references from public agencies for whom you have implemented a 311 "
        "or customer service CRM."
    ]
    lines = why_cite(ENTRY, SCOPE | {"section_headings": []}, relevance, [])
    assert lines[0] == (
        "Meets the RFP's relevance criterion \"Provide three (3) references from public "
        'agencies for whom you have implemented a 311 or customer service CRM." (4. References)'
        ": CRM."
    )
    # the procurement's own abbreviations are no match
    lines = why_cite(
        ENTRY | {"technical_description": "Issued an RFP for the SOW."},
        SCOPE,
        [{"sentence": "References for whom you implemented the RFP SOW.", "section": None}],
        [],
    )
    assert not [line for line in lines if line.startswith("Meets the RFP's relevance")]


def test_fillers_are_weak_when_fewer_entries_passed_than_the_rfp_asks_references_for():
    """The RFP asks for five; three entries passed the filters, two were let in by relaxing
    the value band: those two are weak picks, the three that passed are not."""
    picks = [
        {"rank": k + 1, "id": f"PP-{k + 1}", "score": 0.6 - 0.02 * k, "relaxed": []}
        for k in range(3)
    ] + [
        {"rank": k + 1, "id": f"PP-{k + 1}", "score": 0.5, "relaxed": ["value"]}
        for k in range(3, 5)
    ]
    scope = SCOPE | {"references_required": 5}
    filler = caveats(picks[4], None, scope, set(), picks, 3, relaxed=True)
    assert filler[-1] == Caveat(
        "weak",
        "Weak pick: only 3 entries passed the RFP's filters, so they were relaxed; check this "
        "one fits the RFP at all.",
    )
    passing = caveats(picks[0], None, scope, set(), picks, 3, relaxed=True)
    assert passing[-1] == Caveat(
        "few",
        "Passed every filter: one of only 3 entries that did; the other picks were let in by "
        "relaxing them.",
    )
    # the RFP states no count: three are wanted, three passed, nothing to say
    assert weak_pick_caveat(picks[4], picks[:3] + picks[4:], 3, relaxed=True) is None


def test_contradictory_value_statements_are_a_warning_at_the_top_of_the_brief(tmp_path):
    from rfp_retrieval.documents.extract import load_document
    from rfp_retrieval.scope import read_scope

    path = tmp_path / "rfp.md"
    path.write_text(
        "# Request for Proposals: Permit Portal\n\nIssue date: 2026-09-01\n\n"
        "## 3. Past Performance\n\n3.1 Each reference must have a total value of at least "
        "$10 million.\n\n3.2 References must be for contracts of not more than $5 million.\n",
        encoding="utf-8",
    )
    reading = read_scope(load_document(path))
    scope = SCOPE | {"trace": json.dumps(reading.trace), "value_min": reading.value_min}
    refs = [p | {"title": p["id"], "weighted_whole": p["score"]} for p in PICKS]
    page = brief_html(scope, refs, set())
    (warning,) = re.findall(r'<div class="warn"><b>Check the RFP:</b> ([^<]+)</div>', page)
    assert warning.startswith(
        "value: the RFP&#x27;s value statements contradict each other: &#x27;at least $10 "
        "million&#x27;"
    )
    assert "the first is applied, the other is not" in warning
    markdown = brief_markdown(scope, refs, set())
    assert "**Check the RFP:** value: the RFP's value statements contradict" in markdown


def test_a_rule_on_the_set_no_pick_meets_is_a_check_and_an_unknown_fact_is_unknown():
    from rfp_retrieval.report.caveats import set_checks

    sentence = "At least one reference must be a county government."
    trace = [{"filter": "customer_types_in_set", "reading": ["local"], "sentence": sentence}]
    picks = [{"id": "PP-7"}, {"id": "PP-8"}, {"id": "PP-1"}]
    entries = {
        "PP-7": {"customer_type": "federal-civilian", "role": "sub"},
        "PP-8": {"customer_type": "state", "role": "sub"},
        "PP-1": {"customer_type": "federal-civilian", "role": "sub"},
    }
    assert set_checks(trace, picks, entries) == [
        f'The RFP asks for at least one local reference ("{sentence}"); none of the picks is '
        "(PP-7 federal-civilian, PP-8 state, PP-1 federal-civilian). Swap one for a local entry."
    ]
    county = {"customer_type": "local", "customer_named": "Travis County", "role": "sub"}
    assert set_checks(trace, picks, entries | {"PP-8": county}) == []
    # "a county government": a city is local too, but not a county; its name decides
    city = {"customer_type": "local", "customer_named": "City of Austin", "role": "sub"}
    assert set_checks(trace, picks, entries | {"PP-8": city}) == [
        f'The RFP asks for at least one county reference ("{sentence}"); no pick\'s customer is '
        "named one (PP-8 City of Austin: local). Check, or swap one for a county entry."
    ]
    any_local = [dict(trace[0], sentence="At least one reference must be for a local agency.")]
    assert set_checks(any_local, picks, entries | {"PP-8": city}) == []
    unknown = entries | {"PP-1": {"customer_type": None}}
    assert set_checks(trace, picks, unknown) == [
        f'The RFP asks for at least one local reference ("{sentence}"); no pick is known to be: '
        "the library does not state customer type for PP-1. Check them."
    ]
    prime = [{"filter": "prime_in_set", "reading": "at least one", "sentence": "At least one "
              "of the three must be as prime."}]  # fmt: skip
    assert set_checks(prime, picks, entries)[0].endswith(
        "none of the picks is (PP-7 sub, PP-8 sub, PP-1 sub). Swap one for a prime entry."
    )
    assert set_checks(trace, picks, None) == [] and set_checks(trace, [], entries) == []
    assert filter_sentence(trace[0]) == (
        "at least one reference for a local customer (a rule on the set of references, not a "
        "filter on each): the brief checks the picks"
    )


def test_a_pick_with_no_topical_reason_is_flagged_and_a_vague_outcome_is_not_quoted():
    from rfp_retrieval.report.brief import reference_notes
    from rfp_retrieval.report.caveats import no_match_caveat

    outcome = 'Outcome to quote: "Cut average request resolution times by 40%".'
    flagged = no_match_caveat([outcome])
    assert flagged is not None and flagged.kind == "weak"
    assert flagged.text.startswith("No stated match: it meets none of the RFP's relevance")
    assert no_match_caveat(['Matches the RFP\'s scope section "CRM": service request.']) is None
    assert no_match_caveat([]) is not None
    # the same entry, off topic for a payroll RFP: only its score put it here
    payroll = SCOPE | {
        "section_headings": ["Payroll Processing"],
        "text_whole": "Replace the payroll system for 8,000 employees.",
        "text_outcome": "Pay every employee on time.",
        "emphasized_domains": ["payroll"],
    }
    ref = PICKS[0] | {"id": "PP-1"}
    why, checks = reference_notes(ref, payroll, PICKS, 5, entries={"PP-1": ENTRY})
    assert not any(line.startswith(("Meets", "Matches", "Covers")) for line in why)
    assert "weak" in [c.kind for c in checks]
    # on topic: no flag; an entry whose outcomes are vague gets no outcome to quote
    why, checks = reference_notes(ref, SCOPE, PICKS, 5, entries={"PP-1": ENTRY})
    assert any(line.startswith("Matches the RFP's scope section") for line in why)
    assert any(line.startswith("Outcome to quote:") for line in why)
    assert not any(c.text.startswith("No stated match") for c in checks)
    why, _ = reference_notes(ref, SCOPE, PICKS, 5, vague_ids={"PP-1"}, entries={"PP-1": ENTRY})
    assert not any(line.startswith("Outcome to quote:") for line in why)
    assert why[-1] == (
        "Outcome as written (no measurable result: get numbers before quoting): "
        '"Self-service adoption rose to 35% of requests" (shares self, service, adoption, '
        "requests with the RFP's scope)."
    )


def test_tokens_are_remembered_per_text_and_per_word_with_the_same_values():
    from rfp_retrieval.report import reasons
    from rfp_retrieval.rewrite.terms import index_tokens

    text = "Parallel payroll testing; parallel payroll cutover for 12 counties"
    reasons._tokens.cache_clear()
    reasons._word_stem.cache_clear()
    first = reasons._tokens(text)
    assert first == (
        ("parallel", "Parallel"),
        ("payrol", "payroll"),
        ("test", "testing"),
        ("", ","),
        ("parallel", "parallel"),
        ("payrol", "payroll"),
        ("cutov", "cutover"),
        ("", "for"),
        ("", "12"),
        ("counti", "counties"),
        ("", ","),
    )
    assert reasons._tokens(text) is first  # the second reader of this text gets it back
    assert reasons._tokens.cache_info().hits == 1
    assert reasons._word_stem.cache_info().hits == 1  # "payroll" again ("Parallel" differs)
    assert all(reasons._word_stem(w) == tuple(index_tokens(w)) for _, w in first)


def test_a_scope_unit_that_is_the_document_itself_is_not_quoted_as_a_section():
    notice = SCOPE | {"title": "Water Data Platform"}
    units = [("SOURCES SOUGHT NOTICE", "Replace the 311 contact center and its CRM.")]
    assert "Matches the RFP's scope as a whole: contact center." in why_cite(
        ENTRY, notice, [], units
    )
    titled = [("Water Data Platform", "Replace the 311 contact center and its CRM.")]
    assert "Matches the RFP's scope as a whole: contact center." in why_cite(
        ENTRY, notice, [], titled
    )
    section = [("Service Request CRM", "Replace the 311 contact center and its CRM.")]
    assert 'Matches the RFP\'s scope section "Service Request CRM": contact center.' in why_cite(
        ENTRY, notice, [], section
    )
