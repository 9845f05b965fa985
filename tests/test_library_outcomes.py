"""Outcome metrics, narrative and the vague-outcome flag."""

from __future__ import annotations

from rfp_retrieval.library.outcomes import (
    is_vague,
    parse_outcomes_cell,
    parse_results_section,
    split_sentences,
)
from rfp_retrieval.library.records import Outcomes


def test_semicolon_metrics_split_only_before_a_new_metric() -> None:
    cell = (
        "Cut bid list time from 6 weeks to 9 days; 99.95% availability; Zero high or critical "
        "findings at ATO; moderate ATO granted in 11 weeks\n\nBidders use one data set."
    )
    assert parse_outcomes_cell(cell) == Outcomes(
        metrics=[
            "Cut bid list time from 6 weeks to 9 days",
            "99.95% availability",
            "Zero high or critical findings at ATO; moderate ATO granted in 11 weeks",
        ],
        narrative="Bidders use one data set.",
        vague=False,
    )


def test_bullet_metrics_keep_internal_semicolons() -> None:
    cell = "• Rebuilt 43 interfaces; 38 in production\n- Reduced backlog 71%\n\nDone on time."
    assert parse_outcomes_cell(cell).metrics == [
        "Rebuilt 43 interfaces; 38 in production",
        "Reduced backlog 71%",
    ]


def test_outcome_without_a_number_is_vague() -> None:
    assert is_vague(["Improved user satisfaction", "Delivered on time"]) is True
    assert is_vague(["Improved user satisfaction", "Trained 1,200 clerks"]) is False
    assert is_vague(["Latency from hours to minutes"]) is False
    assert is_vague([]) is True


def test_results_section_with_key_results_list() -> None:
    section = (
        "\nTeams onboard faster.\n\nKey results:\n\n"
        "- Onboarded 410 applications\n- Orphaned accounts reduced 91%\n"
    )
    assert parse_results_section(section) == Outcomes(
        metrics=["Onboarded 410 applications", "Orphaned accounts reduced 91%"],
        narrative="Teams onboard faster.",
        vague=False,
    )


def test_results_section_without_list_splits_sentences_into_narrative_and_metrics() -> None:
    section = "Planners act earlier. Forecast accuracy improved 18%. Model adopted by 3 teams.\n"
    assert parse_results_section(section) == Outcomes(
        metrics=["Forecast accuracy improved 18%", "Model adopted by 3 teams"],
        narrative="Planners act earlier.",
        vague=False,
    )


def test_sentence_split_ignores_initials_and_abbreviations() -> None:
    assert split_sentences(
        "Served the U.S. Army at 6 a.m. daily. Cut cost e.g. Licenses. Done."
    ) == [
        "Served the U.S. Army at 6 a.m. daily.",
        "Cut cost e.g. Licenses.",
        "Done.",
    ]


def test_a_prose_result_is_measurable_not_vague() -> None:
    # issue 18 defect 5: a cell that is one prose sentence has no metric list
    cell = "Reduced case processing time by 30% across the regional offices."
    assert parse_outcomes_cell(cell) == Outcomes(metrics=[], narrative=cell, vague=False)
    assert parse_results_section("Reduced case processing time by 30%.\n").vague is False
    # prose without a measure stays vague; a year dates a result, it does not measure one
    assert parse_outcomes_cell("The customer was satisfied with our work in 2019.").vague
    assert is_vague(["Delivered on time in FY2024"]) is True
    # with a metric list, the narrative is context and does not count
    assert is_vague(["Delivered on schedule"], "Extended for two option years.") is True
