"""The summary ``rfp-retrieval run`` prints, read in an 80-column terminal."""

from __future__ import annotations

import io
import re

from rich.console import Console

from rfp_retrieval.cli.render import component_text as _component_text
from rfp_retrieval.cli.render import print_run_summary as _print_run_summary

OUTPUT = "/home/writer/proposals/output"
OCR_ERROR = (
    "scanned-rfp.pdf has no text layer (a scanned PDF?): run OCR on it, for example "
    "`ocrmypdf scanned-rfp.pdf scanned-rfp-ocr.pdf`, and drop the result into the inbox; "
    "page 1 of 14 had 0 characters of text, page 2 had 0, page 3 had 0."
)
DOCX_ERROR = "rfp-draft.docx: the file is password-protected; save an unprotected copy"


def _reference(rank: int, title: str, relaxed: list[str]) -> dict:
    return {
        "id": f"PP-{rank:03d}",
        "title": title,
        "score": 0.7 - rank / 10,
        "components": {
            "narrative": 0.52,  # a raw cosine: shown in the brief, not summed here
            "weighted_narrative": 0.104,
            "weighted_technical": 0.183,
            "weighted_outcome": 0.29,
            "recency_bump": 0.1,
            "agency_bump": 0.0,
            "value_penalty": -0.031,
        },
        "relaxed": relaxed,
    }


OUTCOMES = [
    {
        "file": "/home/writer/proposals/inbox/franklin-dhhs-iecms-modernization-rfp.md",
        "partition": "franklin-dhhs-iecms-modernization-rfp-md",
        "status": "ok",
        "error": None,
        "scope_query": {
            "issuer": "Franklin County Department of Health and Human Services",
            "issuer_type": "local",
            "customer_types": ["state", "local"],
            "value_min": 10_000_000,
            "value_max": 30_000_000,
            "ended_after": "2021-03-01",
            "started_after": None,
            "as_of": "2026-03-01",
        },
        "references": [
            _reference(1, "Integrated Eligibility and Case Management Modernization", []),
            _reference(2, "311 CRM Replacement", []),
            _reference(3, "Child Welfare Information System Transition", ["value band"]),
        ],
        "brief": f"{OUTPUT}/franklin-dhhs-iecms-modernization-rfp-md/brief.html",
    },
    {
        "file": "/home/writer/proposals/inbox/scanned-rfp.pdf",
        "partition": "scanned-rfp-pdf",
        "status": "failed",
        "error": OCR_ERROR,
        "scope_query": None,
        "references": [],
        "brief": None,
    },
    {
        "file": "/home/writer/proposals/inbox/rfp-draft [v2].docx",
        "partition": "rfp-draft-docx",
        "status": "failed",
        "error": DOCX_ERROR,
        "scope_query": None,
        "references": [],
        "brief": None,
    },
]


def _render(width: int) -> str:
    out = Console(width=width, file=io.StringIO(), color_system=None, force_terminal=False)
    _print_run_summary(OUTCOMES, out)
    return out.file.getvalue()


def test_run_summary_fits_80_columns_and_keeps_every_value_and_failure():
    text = _render(80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    flat = " ".join(text.split())  # wrapped text read back as one line

    assert "franklin-dhhs-iecms-modernization-rfp.md" in lines[1]
    assert "partition franklin-dhhs-iecms-modernization-rfp-md;" in flat
    assert "value: $10.0M to $30.0M; work ended on/after: 2021-03-01" in flat
    for rank, score, title in [
        (1, "0.600", "Integrated Eligibility and Case Management Modernization"),
        (2, "0.500", "311 CRM Replacement"),
        (3, "0.400", "Child Welfare Information System Transition"),
    ]:
        row = next(line for line in lines if line.split()[:2] == [str(rank), f"PP-{rank:03d}"])
        assert score in row
        assert title in flat
    assert (
        "narrative +0.104, technical +0.183, outcome +0.290, recency_bump +0.100, "
        "value_penalty -0.031" in flat
    )
    assert "narrative +0.520" not in flat and "agency_bump" not in flat
    assert "missed: value band" in flat

    assert "Summary: 1 RFP(s) ok, 2 failed" in text
    summary_rows = [line.split() for line in lines if re.search(r"\s(ok|failed)\s", line)]
    assert summary_rows == [
        ["franklin-dhhs-iecms-modernization-rfp.md", "ok", "PP-001,", "PP-002,", "PP-003"],
        ["scanned-rfp.pdf", "failed", "-"],
        ["rfp-draft", "[v2].docx", "failed", "-"],
    ]
    assert f"in {OUTPUT}/:" in flat
    assert "  franklin-dhhs-iecms-modernization-rfp-md/brief.html" in lines
    assert f"scanned-rfp.pdf: {OCR_ERROR}" in flat  # whole message, not cut at 120 chars
    assert f"rfp-draft [v2].docx: {DOCX_ERROR}" in flat


def test_run_summary_follows_the_columns_variable(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    _print_run_summary(OUTCOMES)
    text = capsys.readouterr().out
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Summary: 1 RFP(s) ok, 2 failed" in text
    wide = _render(160)
    assert "  partition franklin-dhhs-iecms-modernization-rfp-md; issuer: Franklin" in wide


def test_component_text_shows_summed_components_under_short_names():
    # a raw cosine is a part of the score only when no weighted cosine is present (registry:
    # components.summed_parts): the naive mode's whole-entry cosine is its score
    assert _component_text({"narrative": 0.5, "weighted_narrative": 0.1, "whole": 0.3}) == (
        "narrative +0.100"
    )
    assert _component_text({"whole": 0.3, "agency_bump": 0.0}) == "whole +0.300"
    assert _component_text({"whole": 0.4, "weighted_whole": 0.4, "age_penalty": -0.05}) == (
        "whole +0.400, age_penalty -0.050"
    )


def test_run_summary_without_rfps_says_where_to_put_one():
    out = Console(width=80, file=io.StringIO(), color_system=None)
    _print_run_summary([], out)
    assert out.file.getvalue().splitlines() == [
        "",
        "Summary: 0 RFP(s) ok, 0 failed",
        "No RFP file given and none in the inbox: drop one there and run again.",
    ]


def test_override_file_named_after_the_file_not_the_partition_is_reported(tmp_path):
    from rfp_retrieval.retrieval.overrides import unmatched_override_files

    folder = tmp_path / "overrides"
    folder.mkdir()
    for name in ("good-md.yaml", "good.yaml", "other-rfp-docx.yml", "notes.txt", ".hidden.yaml"):
        (folder / name).write_text("replace: []\n", encoding="utf-8")
    found = unmatched_override_files(folder, ["good-md", "other-rfp-docx"])
    assert [(p.name, r.split(";")[1].split(" (")[0].strip()) for p, r in found] == [
        # good-md.yaml exists: a rename would replace a writer's file (break-it, session 12)
        (
            "good.yaml",
            "good-md.yaml already holds that RFP's overrides: move its entries there, "
            "or name it <partition-key>.yaml",
        ),
        ("other-rfp-docx.yml", "rename it to other-rfp-docx.yaml"),
    ]
    assert unmatched_override_files(tmp_path / "absent", ["good-md"]) == []

    out = Console(width=80, file=io.StringIO(), color_system=None)
    unmatched = [{"file": str(p), "reason": r} for p, r in found]
    _print_run_summary([], out, unmatched_overrides=unmatched)
    lines = out.file.getvalue().splitlines()
    assert lines[2] == "Override files not applied (2):"
    assert lines[3].startswith("  good.yaml: matches no RFP partition, so it is not applied;")
    assert all(len(line) <= 80 for line in lines)


def test_ctrl_c_stops_the_batch_and_lists_what_was_not_finished(tmp_path):
    from rich.progress import Progress

    from launch import RunOutcome
    from rfp_retrieval.cli.run import run_rfps

    calls = []

    class Launcher:
        def run_rfp(self, key, path):
            calls.append(key)
            return RunOutcome(success=False, interrupted=True)

    files = [tmp_path / f"{name}.md" for name in ("first", "second", "third")]
    for path in files:
        path.write_text("# RFP\n", encoding="utf-8")
    with Progress(disable=True) as progress:
        outcomes = run_rfps(Launcher(), [str(f) for f in files], [], progress)
    assert calls == ["first-md"]  # the batch stopped at the first Ctrl-C
    assert [(o["partition"], o["status"], o["error"]) for o in outcomes] == [
        ("first-md", "interrupted", "interrupted (Ctrl-C); run again to process it"),
        ("second-md", "interrupted", "not started: the run was interrupted"),
        ("third-md", "interrupted", "not started: the run was interrupted"),
    ]
    out = Console(width=80, file=io.StringIO(), color_system=None)
    _print_run_summary(outcomes, out)
    text = out.file.getvalue()
    assert "Summary: 0 RFP(s) ok, 0 failed, 3 interrupted" in text
    assert "first.md    interrupted   -" in text  # the table says so too (was "failed")
    assert "Interrupted (nothing half-written is kept; run again):" in text
    assert "Failed (fix the file" not in text


def test_ctrl_c_in_a_batch_starts_no_run_after_it_and_keeps_what_finished(tmp_path):
    from rich.progress import Progress

    from launch import RunOutcome
    from rfp_retrieval.cli.run import run_rfps

    class Launcher:
        store = None

        def run_batch(self, files):
            assert [key for key, _ in files] == ["later-md", "bad-md", "cut-md"]
            return {  # bad-md failed in its own run, cut-md's run was stopped by Ctrl-C
                "bad-md": RunOutcome(success=False, error="bad.md: the file has no text"),
                "cut-md": RunOutcome(success=False, interrupted=True),
                "later-md": RunOutcome(success=False, interrupted=True, started=False),
            }

        def run_rfp(self, key, path):
            raise AssertionError(f"a run was started after Ctrl-C: {key}")

    files = [tmp_path / f"{name}.md" for name in ("later", "bad", "cut")]
    for path in files:
        path.write_text("# RFP\n", encoding="utf-8")
    with Progress(disable=True) as progress:
        outcomes = run_rfps(Launcher(), [str(f) for f in files], [], progress)
        task = progress.tasks[0]
        assert (task.completed, task.description) == (1, "RFPs: interrupted (Ctrl-C)")
    assert [(o["partition"], o["status"], o["error"]) for o in outcomes] == [
        ("later-md", "interrupted", "not started: the run was interrupted"),
        ("bad-md", "failed", "bad.md: the file has no text"),
        ("cut-md", "interrupted", "interrupted (Ctrl-C); run again to process it"),
    ]


def test_a_brief_whose_rfp_file_was_deleted_is_listed_and_kept(tmp_path):
    """Break-it: an RFP deleted from the inbox kept its old brief with no word in the run."""
    import polars as pl

    from rfp_retrieval.cli.run import briefs_without_rfp, partition_sources

    inbox, out = tmp_path / "inbox", tmp_path / "out"
    for key in ("kept-md", "gone-md", "ran-md"):
        (out / key).mkdir(parents=True)
        (out / key / "brief.html").write_text("<html></html>", encoding="utf-8")
    inbox.mkdir()
    (inbox / "kept.md").write_text("# RFP\n", encoding="utf-8")

    class Store:
        def read_table(self, table, columns=None):
            if table == "response_brief":
                keys = ["kept-md", "gone-md", "ran-md"]
                paths = [str(out / k / "brief.html") for k in keys]
                return pl.DataFrame({"rfp_partition": keys, "html_path": paths})
            if table == "rfp_document":
                files = [str(inbox / n) for n in ("kept.md", "gone.md", "ran.md")]
                return pl.DataFrame(
                    {"rfp_partition": ["kept-md", "gone-md", "ran-md"], "file": files}
                )
            return None

    sources = partition_sources(Store())
    gone = briefs_without_rfp(Store(), [{"partition": "ran-md", "file": "ran.md"}], sources)
    assert gone == [
        {
            "file": str(out / "gone-md"),
            "partition": "gone-md",
            "reason": f"its RFP {inbox / 'gone.md'} is gone; the brief is of that file as it was. "
            "Put the file back (or run its new name) to refresh it, or delete the brief's folder "
            "if the RFP was withdrawn",
        }
    ]
    assert (out / "gone-md" / "brief.html").is_file()  # kept
    console = Console(width=80, file=io.StringIO(), color_system=None)
    _print_run_summary([], console, briefs_without_rfp=gone)
    lines = console.file.getvalue().splitlines()
    title = lines.index("Briefs whose RFP file is gone (1; kept as they were):")
    assert lines[title + 1].startswith("  gone-md: its RFP ")
