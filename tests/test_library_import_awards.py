"""``library import-awards``: draft library entries from the real award records of
``../shared/data/awards/`` (read in place), and the bad records reported with file and row."""

from __future__ import annotations

import csv
import errno
import json
import os
import re
import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import app
from rfp_retrieval.library import awards
from rfp_retrieval.library.ingest import load_library

SAMPLE_A = "usaspending_api_awards_sample_a.jsonl"
SAMPLE_B = "usaspending_api_awards_sample_b.jsonl"
FPDS_BASE = "fpds_atom_idv_base_records.csv"
TREASURY = "usaspending_api_treasury_contracts_fy2016.csv"
TOP100 = "usaspending_fy2016_contracts_over_1m_top100_per_psc.csv"


@pytest.fixture(scope="module")
def award_dir(shared_data: Path) -> Path:
    return shared_data / "awards"


def _flat(text: str) -> str:
    """``text`` without whitespace: Rich wraps a long path anywhere in a message."""
    return "".join(text.split())


def _draft(result: awards.AwardImport, piid: str):
    (found,) = [(e, r) for e, r in result.drafts if e.contract.number == piid]
    return found


def test_usaspending_delivery_order_under_sewp_v(award_dir):
    entry, record = _draft(awards.import_awards([award_dir / SAMPLE_A]), "15DDHQ22F00000686")
    assert entry.id == "AW-15DDHQ22F00000686"
    assert entry.role == "prime"
    assert (entry.customer.named, entry.customer.acronym, entry.customer.type) == (
        "Drug Enforcement Administration",
        "DEA",
        "federal-civilian",
    )
    # parent IDV NNG15SD06B read from generated_internal_id: a SEWP V order
    assert record.parent_idv == "NNG15SD06B"
    assert (entry.contract.vehicle_type, entry.contract.vehicle_name) == (
        "gwac-task-order",
        "SEWP V",
    )
    assert (entry.contract.value.min, entry.contract.value.max) == (1875901, 1875901)
    assert entry.contract.value.funded == 1875901  # award_amount 1875900.72
    assert (entry.contract.start_date, entry.contract.end_date) == ("2023-05-31", "2027-06-01")
    assert entry.source == f"{award_dir / SAMPLE_A} row 1"


def test_usaspending_dla_purchase_order_is_standalone_defense(award_dir):
    entry, record = _draft(awards.import_awards([award_dir / SAMPLE_A]), "SPE4A524P8929")
    assert record.parent_idv is None  # "-NONE-"
    assert (entry.customer.named, entry.customer.type) == (
        "Defense Logistics Agency",
        "federal-defense",
    )
    assert (entry.contract.vehicle_type, entry.contract.vehicle_name) == ("standalone", None)
    assert (entry.contract.value.min, entry.contract.value.max) == (13211, 13211)
    assert (entry.contract.start_date, entry.contract.end_date) == ("2024-08-19", "2026-01-01")


def test_fpds_single_award_idv_ceiling_without_obligation(award_dir):
    entry, record = _draft(awards.import_awards([award_dir / FPDS_BASE]), "36C10B18D5000")
    assert (entry.customer.named, entry.customer.acronym, entry.customer.type) == (
        "Department of Veterans Affairs",
        "VA",
        "federal-civilian",
    )
    assert record.award_type == "IDC"
    assert (entry.contract.vehicle_type, entry.contract.vehicle_name) == ("other", None)
    # total_obligated_amount 0.00 on the IDV is not the contract's size: unknown
    assert record.obligated == 0
    assert entry.contract.value.funded is None
    assert (entry.contract.value.min, entry.contract.value.max) == (9996557385, 9996557385)
    # an IDV has an effective date and a last date to order, no completion date
    assert (entry.contract.start_date, entry.contract.end_date) == ("2018-05-17", None)
    assert record.last_date_to_order == "2028-05-16"
    assert (record.naics, record.psc) == ("541512", "D318")


def test_fpds_idv_funded_and_ceiling_with_department_office(award_dir):
    entry, _ = _draft(awards.import_awards([award_dir / FPDS_BASE]), "140D0424D0001")
    assert entry.title == "IDIQ FOR IHS EHR MODERNIZATION"
    assert entry.customer.named == "Department of the Interior, DEPARTMENTAL OFFICES"
    assert entry.customer.type == "federal-civilian"
    assert (entry.contract.value.min, entry.contract.value.max) == (1000000, 2542000000)
    assert entry.contract.value.funded == 1000000


def test_treasury_legacy_order_under_sewp_v(award_dir):
    entry, record = _draft(awards.import_awards([award_dir / TREASURY]), "TIRSE16K00067")
    assert record.row == 3
    assert (entry.customer.named, entry.customer.acronym, entry.customer.type) == (
        "Internal Revenue Service",
        "IRS",
        "federal-civilian",
    )
    assert record.agency_codes == ("2000", "2050")
    assert record.parent_idv == "NNG15SD76B"
    assert (entry.contract.vehicle_type, entry.contract.vehicle_name) == (
        "gwac-task-order",
        "SEWP V",
    )
    assert (entry.contract.value.min, entry.contract.value.max) == (4538, 4538)  # 4537.8500
    assert (entry.contract.start_date, entry.contract.end_date) == ("2016-09-08", "2016-10-31")
    assert (record.award_type, record.psc, record.naics) == ("DELIVERY ORDER", "7035", "541519")


def test_treasury_modification_amounts_and_short_order_piids(award_dir):
    result = awards.import_awards([award_dir / TREASURY])
    # a BPA call numbered 0003 under TCC15HQB0007, modification 6: its -145 USD is a change
    entry, record = _draft(result, "TCC15HQB0007 / 0003")
    assert entry.id == "AW-TCC15HQB0007-0003"
    assert (record.piid, record.mod_number) == ("0003", "6")
    assert (record.obligated, record.ceiling) == (None, None)
    assert (entry.contract.value.min, entry.contract.value.max) == (None, None)
    assert (entry.contract.vehicle_type, entry.customer.type) == ("bpa-call", "federal-civilian")
    assert all(e.contract.value.min is None or e.contract.value.min >= 0 for e, _ in result.drafts)


def test_customer_type_follows_agencies_csv(award_dir):
    with (award_dir / "agencies.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 90
    wrong = [
        (r["department_name"], r["subagency_name"], r["type"])
        for r in rows
        if awards.customer_type(
            r["subagency_name"], r["department_name"], (r["department_id"], r["subagency_id"])
        )
        != r["type"]
    ]
    assert wrong == []
    # by name alone (USAspending gives only the sub-agency)
    assert awards.customer_type("Department of the Navy", None) == "federal-defense"
    assert awards.customer_type("U.S. Coast Guard", None) == "federal-civilian"
    assert awards.customer_type("Departmental Offices", None) is None


def test_vehicle_stems_name_the_vehicles_of_vehicles_csv(award_dir):
    with (award_dir / "vehicles.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    checked = 0
    for row in rows:
        stem = row["piid_stem_or_example"].split(" ")[0].split(",")[0]
        if not stem or "." in stem:
            continue
        name = row["short_name"] or row["name"]
        known = awards.vehicle_of_piid(stem)
        assert known is not None, stem
        assert known[1] == row["type"], stem
        if row["short_name"]:
            assert known[0] == name, stem
        checked += 1
    assert checked == 32  # 39 rows: 4 without a stem, 3 with a pattern ("47Q...")
    assert awards.vehicle_of_piid("GS-35F-0119Y") == ("IT Schedule 70", "gsa-schedule")
    assert awards.vehicle_of_piid("GS07F0597T") == ("GSA MAS", "gsa-schedule")
    assert awards.vehicle_of_piid("75F40122A00001") is None


def test_duplicate_piids_are_reported_not_dropped(award_dir):
    result = awards.import_awards([award_dir / SAMPLE_A, award_dir / SAMPLE_B])
    assert len(result.drafts) == 237
    assert len(result.duplicates) == 8
    assert result.rejected == []
    assert len(result.drafts) + len(result.duplicates) == 245  # every line accounted for
    first = result.duplicates[0]
    assert (first.piid, first.row, first.kept_row) == ("75N98019F00835", 42, 39)
    assert first.file == first.kept_file == str(award_dir / SAMPLE_A)


def test_a_file_without_piids_is_rejected_whole(award_dir):
    result = awards.import_awards([award_dir / TOP100])
    assert result.drafts == []
    (rejected,) = result.rejected
    assert (rejected.file, rejected.row) == (str(award_dir / TOP100), 1)
    assert "no PIID column" in rejected.reason


def test_drafts_load_back_and_pass_the_library_checks(award_dir, tmp_path):
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.quality import validate_entries

    result = awards.import_awards([award_dir / SAMPLE_A, award_dir / SAMPLE_B])
    written = awards.write_drafts(result, tmp_path / "drafts")
    assert len(written) == 237 and all(w.written for w in written)
    loaded = load_library(tmp_path / "drafts")
    assert loaded.rejected == [] and loaded.superseded == []
    assert len(loaded.entries) == 237
    drafts = {e.id: e for e, _ in result.drafts}
    for entry in loaded.entries:
        assert awards.needs_write_up(entry), entry.id
        assert entry.defects == [], entry.id
        assert entry.updated_by == awards.IMPORTER
        draft = drafts[entry.id]
        assert entry.customer == draft.customer
        assert entry.contract == draft.contract
        assert (entry.title, entry.role) == (draft.title, draft.role)
    outcomes = {o.expectation: o for o in validate_entries(entries_frame(loaded.entries))}
    failed = {name for name, o in outcomes.items() if not o.success}
    # the two records whose award amount is 0.0 (USAspending) are flagged, kept, as $0 values
    assert failed == {"value positive"}, {name: outcomes[name].failing_ids[:5] for name in failed}
    assert outcomes["value positive"].failing_ids == ["AW-05GA0A21K0089", "AW-47QMCA24F0LXJ"]
    # the write-up fields are what is left to do
    assert all(e.outcomes.vague and not e.outcomes.metrics for e in loaded.entries)
    assert all(not e.technical.stack_tags and not e.technical.domains for e in loaded.entries)


def test_fpds_and_treasury_drafts_fail_only_on_facts_the_records_lack(award_dir, tmp_path):
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.quality import _failing_ids

    result = awards.import_awards([award_dir / FPDS_BASE, award_dir / TREASURY])
    awards.write_drafts(result, tmp_path / "drafts")
    loaded = load_library(tmp_path / "drafts")
    assert loaded.rejected == []
    assert len(loaded.entries) == len(result.drafts)
    frame = entries_frame(loaded.entries)
    no_end = {e.id for e, r in result.drafts if r.end_date is None}
    assert set(_failing_ids(frame, "end date present or ongoing")) == no_end
    for check in ("known customer type", "known vehicle type"):
        assert _failing_ids(frame, check) == [], check
    # the one record whose obligations exceed its ceiling (real FPDS data) is flagged
    assert _failing_ids(frame, "value min <= max") == ["AW-V797P99PPV0001"]
    entry = next(e for e in loaded.entries if e.id == "AW-V797P99PPV0001")
    assert (entry.contract.value.min, entry.contract.value.max) == (7923930, 7792393)
    assert entry.defects == ["min-above-max", "missing-end-date"]
    assert set(_failing_ids(frame, "start date present")) == {
        e.id for e, r in result.drafts if r.start_date is None
    }


def test_bad_records_are_reported_with_file_and_row(tmp_path):
    export = tmp_path / "awards.csv"
    export.write_text(
        "piid,department_name,department_id,obligated_amount,base_and_all_options_value,"
        "effective_date,current_completion_date,contract_action_type\n"
        "W91QUZ22F0210,DEPT OF THE ARMY,9700,100.00,200.00,2022-02-01,2023-01-31,"
        "DELIVERY ORDER\n"
        "W91QUZ22F0211,DEPT OF THE ARMY,9700,about a million,,2022-02-01,,DELIVERY ORDER\n"
        ",DEPT OF THE ARMY,9700,5.00,,2022-02-01,,DELIVERY ORDER\n"
        "W91QUZ22F0212,DEPT OF THE ARMY,9700,5.00,,2022-02-30,,DELIVERY ORDER\n",
        encoding="utf-8",
    )
    lines = tmp_path / "awards.jsonl"
    lines.write_text(
        json.dumps({"award_id": "X1", "awarding_sub_agency": "Department of the Navy"})
        + "\n{not json\n",
        encoding="utf-8",
    )
    result = awards.import_awards([export, lines, tmp_path / "missing.csv"])
    assert [e.id for e, _ in result.drafts] == ["AW-W91QUZ22F0210", "AW-X1"]
    good = result.drafts[0][0]
    assert good.customer.type == "federal-defense"
    assert (good.contract.value.min, good.contract.value.max) == (100, 200)
    assert [(r.file, r.row, r.reason) for r in result.rejected] == [
        (
            str(export),
            3,
            f"{export} row 3: obligated amount 'about a million' is not a dollar amount",
        ),
        (str(export), 4, f"{export} row 4: no PIID (award_id / piid is empty)"),
        (
            str(export),
            5,
            f"{export} row 5: start date '2022-02-30' is not a date: day is out of range for month",
        ),
        (
            str(lines),
            2,
            f"{lines} row 2: line is not JSON (Expecting property name enclosed in double quotes)",
        ),
        (str(tmp_path / "missing.csv"), None, f"{tmp_path / 'missing.csv'}: no such file"),
    ]
    assert result.rejected[0].raw["piid"] == "W91QUZ22F0211"


def test_api_json_results_and_the_write_up_marker(award_dir, tmp_path):
    first = json.loads((award_dir / SAMPLE_A).read_text(encoding="utf-8").splitlines()[0])
    api = tmp_path / "spending_by_award.json"
    api.write_text(json.dumps({"results": [first, "oops"]}), encoding="utf-8")
    result = awards.import_awards([api])
    assert [e.id for e, _ in result.drafts] == ["AW-15DDHQ22F00000686"]
    assert [(r.row, r.reason) for r in result.rejected] == [
        (2, f"{api} row 2: not a JSON object of field: value")
    ]
    awards.write_drafts(result, tmp_path / "lib")
    path = tmp_path / "lib" / "AW-15DDHQ22F00000686.md"
    (entry,) = load_library(tmp_path / "lib").entries
    assert awards.needs_write_up(entry)
    assert entry.narrative.startswith("Needs write-up\n\nDraft made by")
    # a writer adds a Summary but leaves the marker: still a draft; removes it: done
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("## Needs write-up", "## Summary\n\nWe ran it.\n\n## Needs write-up")
    )
    assert awards.needs_write_up(load_library(tmp_path / "lib").entries[0])
    start = text.index("## Needs write-up")
    path.write_text(text[:start] + text[text.index("## Award record") :], encoding="utf-8")
    assert not awards.needs_write_up(load_library(tmp_path / "lib").entries[0])


def test_cli_import_awards_and_library_both_forms(award_dir, tmp_path):
    out = tmp_path / "drafts"
    runner = CliRunner()
    res = runner.invoke(
        app, ["library", "import-awards", str(award_dir / SAMPLE_A), "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert len(payload["drafts"]) == 99 and payload["rejected"] == []
    assert [d["piid"] for d in payload["duplicates"]] == ["75N98019F00835"]
    assert payload["drafts"][0] == {
        "id": "AW-15DDHQ22F00000686",
        "file": str(out / "AW-15DDHQ22F00000686.md"),
        "written": True,
        "source": f"{award_dir / SAMPLE_A} row 1",
        "defects": [],
    }
    # a second import keeps the files (a writer may have started on them)
    again = json.loads(
        runner.invoke(
            app,
            ["library", "import-awards", str(award_dir / SAMPLE_A), "--out", str(out), "--json"],
        ).stdout
    )
    assert not any(d["written"] for d in again["drafts"])
    # the existing command is unchanged: `library --library DIR --json`
    res = runner.invoke(app, ["library", "--library", str(out), "--json"])
    assert res.exit_code == 0, res.output
    listed = json.loads(res.stdout)
    assert set(listed) == {"entries", "rejected", "superseded"}
    assert len(listed["entries"]) == 99 and listed["rejected"] == []
    entry = next(e for e in listed["entries"] if e["id"] == "AW-15DDHQ22F00000686")
    assert entry["contract"]["vehicle_name"] == "SEWP V"
    assert entry["source"] == "AW-15DDHQ22F00000686.md"
    # nothing importable: exit 1 with the reason
    res = runner.invoke(
        app, ["library", "import-awards", str(award_dir / TOP100), "--out", str(tmp_path / "x")]
    )
    assert res.exit_code == 1
    assert "no PIID column" in res.output


def test_column_names_match_whatever_their_case_and_unread_columns_are_said(tmp_path):
    """Break-it: an export headed PIID, Agency, Obligated gave a draft with every field empty
    and no word about the two columns (names were matched case-sensitively)."""
    export = tmp_path / "awards.csv"
    export.write_text(
        "PIID,Agency,Obligated,Award-ID note,Contracting Officer\n"
        'AB12,Department of Energy,"$1,250,000",x,Pat\n',
        encoding="utf-8",
    )
    result = awards.import_awards([export])
    [(entry, record)] = result.drafts
    assert (record.piid, record.sub_agency, record.obligated) == (
        "AB12",
        "Department of Energy",
        1_250_000,
    )
    assert result.unread_columns == {str(export): ["Award-ID note", "Contracting Officer"]}
    out = CliRunner().invoke(
        app, ["library", "import-awards", str(export), "--out", str(tmp_path / "drafts")]
    )
    assert out.exit_code == 0
    assert f"columns not read in {export}: Award-ID note, Contracting Officer" in " ".join(
        out.output.split()
    )


def test_implausible_award_amounts_leave_the_value_unknown_with_a_defect(tmp_path):
    """Break-it: an award amount of 1e29 stopped the whole import with a decimal traceback;
    1e309 (a JSON float overflow) and "inf" rejected the record, 5e11 was drafted as a
    $500 billion contract. Rule: ``money.PLAUSIBLE_VALUE_LIMIT_USD``, the library's own."""
    lines = tmp_path / "awards.jsonl"
    base = {"awarding_sub_agency": "Department of Energy", "start_date": "2020-01-01"}
    records = [
        (1e29, None),
        ("inf", None),
        (None, None),  # written as the JSON number 1e309 below: Python reads it as infinity
        (5e11, 2_000_000),
        (5_000_000, 9_000_000),
    ]
    text = []
    for k, (obligated, ceiling) in enumerate(records):
        row = dict(base, award_id=f"DE00000{k}", award_amount=obligated)
        if ceiling is not None:
            row["total_base_and_all_options_value"] = ceiling
        text.append(json.dumps(row).replace("null", "1e309"))
    lines.write_text("\n".join(text) + "\n", encoding="utf-8")
    result = awards.import_awards([lines])
    assert result.rejected == []
    got = {e.id: (e.contract.value.min, e.contract.value.max, e.defects) for e, _ in result.drafts}
    assert got == {
        "AW-DE000000": (None, None, ["implausible-value (obligated amount 1e+29)"]),
        "AW-DE000001": (None, None, ["implausible-value (obligated amount inf)"]),
        "AW-DE000002": (None, None, ["implausible-value (obligated amount inf)"]),
        # one implausible amount makes the whole value unknown (as money.checked_value)
        "AW-DE000003": (None, None, ["implausible-value (obligated amount 500000000000.0)"]),
        "AW-DE000004": (5_000_000, 9_000_000, []),
    }
    out = tmp_path / "drafts"
    res = CliRunner().invoke(app, ["library", "import-awards", str(lines), "--out", str(out)])
    assert res.exit_code == 0, res.output
    said = _flat(res.output)
    assert _flat(f"AW-DE000000 ({lines} row 1): implausible-value (obligated amount 1e+29)") in said
    body = (out / "AW-DE000000.md").read_text(encoding="utf-8")
    assert (
        "- Obligated (USD): unknown (the record says 1e+29, above $100,000,000,000: check the "
        "award and write the value)" in body
    )
    (entry,) = [e for e in load_library(out).entries if e.id == "AW-DE000000"]
    assert (entry.contract.value.min, entry.contract.value.max) == (None, None)
    res = CliRunner().invoke(
        app, ["library", "import-awards", str(lines), "--out", str(out), "--json"]
    )
    flagged = {d["id"]: d["defects"] for d in json.loads(res.stdout)["drafts"] if d["defects"]}
    assert flagged["AW-DE000003"] == ["implausible-value (obligated amount 500000000000.0)"]
    assert len(flagged) == 4


def test_piids_that_lose_characters_in_an_id_never_share_a_draft(tmp_path):
    """Break-it: ``AB/12``, ``AB 12`` and ``AB12`` all became ``AW-AB12``: the second and third
    were reported as duplicate PIIDs and never drafted; a 200-character PIID gave a file name
    longer than most file systems allow."""
    long_piid = "X" * 200
    export = tmp_path / "awards.csv"
    export.write_text(
        "piid,obligated_amount\nAB12,1\nAB/12,2\nAB 12,3\nÅB12,4\n///,5\n"
        f"{long_piid},6\n{long_piid}Y,7\nAB12,8\n",
        encoding="utf-8",
    )
    result = awards.import_awards([export])
    ids = [e.id for e, _ in result.drafts]
    assert ids[0] == "AW-AB12"  # a PIID an id holds as is keeps its plain id
    assert len(set(ids)) == len(ids) == 7
    assert [(d.piid, d.row, d.kept_row) for d in result.duplicates] == [("AB12", 9, 2)]
    suffixed = ids[1:]
    assert all(re.fullmatch(r"AW-(?:[A-Za-z0-9._-]+-)?[0-9a-f]{8}", i) for i in suffixed), ids
    assert [i.rsplit("-", 1)[0] for i in suffixed] == [
        "AW-AB12",
        "AW-AB12",
        "AW-B12",
        "AW",
        "AW-" + "X" * 80,
        "AW-" + "X" * 80,
    ]
    assert awards.draft_id("AB/12") == ids[1]  # stable: the same PIID, the same file
    awards.write_drafts(result, tmp_path / "drafts")
    loaded = load_library(tmp_path / "drafts")
    assert loaded.rejected == []
    assert sorted(e.contract.number for e in loaded.entries) == sorted(
        ["AB12", "AB/12", "AB 12", "ÅB12", "///", long_piid, long_piid + "Y"]
    )


def test_an_unwritable_drafts_folder_is_named_with_exit_2_and_no_traceback(
    award_dir, tmp_path, monkeypatch
):
    """Break-it: ``--out`` naming a file, a folder under a file or a read-only folder (or a
    disk filling up mid-way) ended the import with a traceback."""
    export = award_dir / SAMPLE_A
    runner = CliRunner()
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    for out, said in (
        (a_file, f"{a_file}: is a file, not a folder; pass --out a folder for the draft"),
        (a_file / "drafts", f"{a_file / 'drafts'}: cannot create the drafts folder (Not a"),
    ):
        res = runner.invoke(app, ["library", "import-awards", str(export), "--out", str(out)])
        assert res.exit_code == 2, res.output
        assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)
        assert _flat(said) in _flat(res.output)
    if os.geteuid() != 0:  # root writes a read-only folder anyway
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o555)
        try:
            res = runner.invoke(
                app, ["library", "import-awards", str(export), "--out", str(locked)]
            )
        finally:
            locked.chmod(0o755)
        assert res.exit_code == 2
        assert _flat(f"{locked}: cannot write the draft") in _flat(res.output)
    # the disk fills up at the third draft: two whole drafts, no partial file, exit 2
    real_write = Path.write_text
    calls = []

    def filling(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 3:
            real_write(self, "half a dra", encoding="utf-8")
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", filling)
    out = tmp_path / "drafts"
    res = runner.invoke(app, ["library", "import-awards", str(export), "--out", str(out)])
    monkeypatch.undo()
    assert res.exit_code == 2
    assert _flat(
        f"{out}: cannot write the draft AW-SPE7M024V3029.md (No space left on device); 2 of 99 "
        "drafts were written before it; pass --out a folder you can write"
    ) in _flat(res.output)
    assert sorted(p.name for p in out.iterdir()) == [
        "AW-15DDHQ22F00000686.md",
        "AW-SPE4A524P8929.md",
    ]
    assert len(load_library(out).entries) == 2


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("2020-09-30T00:00:00Z", "2020-09-30"),
        ("2021-09-30T00:00:00-04:00", "2021-09-30"),
        ("2021-09-30 13:45:00+0000", "2021-09-30"),
        ("2020-09-30 00:00:00", "2020-09-30"),
    ],
)
def test_an_iso_date_time_with_its_utc_offset_reads_as_its_date(written, iso):
    """Break-it: an API export's ``2020-09-30T00:00:00Z`` rejected the whole record."""
    assert awards.award_date(written, "start date") == iso


def test_a_date_time_with_something_else_after_it_is_still_refused():
    with pytest.raises(ValueError, match="start date '2020-09-30T00:00:00 EST' is not a date"):
        awards.award_date("2020-09-30T00:00:00 EST", "start date")


def test_an_excel_export_reads_and_a_folder_zip_or_xls_says_what_to_pass(tmp_path):
    """Break-it: an award export saved from Excel as .xlsx was "cannot be read as CSV/JSONL:
    'utf-8' codec can't decode byte"; a folder or the ZIP USAspending downloads come in was
    "no such file" or a decode error."""
    import datetime as dt

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["PIID", "Obligated Amount", "Effective Date", "Current Completion Date"])
    sheet.append(["DE0001", 1250000.0, dt.datetime(2021, 3, 1), dt.datetime(2023, 2, 28)])
    sheet.append([None, None, None, None])
    sheet.append(["DE0002", "about a million", None, None])
    sheet.append(["DE0003", 5, None, None, "stray"])
    workbook = tmp_path / "awards.xlsx"
    book.save(workbook)
    folder = tmp_path / "exports"
    folder.mkdir()
    download = tmp_path / "download.zip"
    with zipfile.ZipFile(download, "w") as archive:
        archive.writestr("awards.csv", "piid\nX1\n")
    old = tmp_path / "awards.xls"
    old.write_bytes(b"\xd0\xcf\x11\xe0 an old workbook")
    broken = tmp_path / "broken.xlsx"
    broken.write_text("not a workbook", encoding="utf-8")
    result = awards.import_awards([workbook, folder, download, old, broken])
    [(entry, record)] = result.drafts
    assert (entry.id, record.obligated, record.start_date, record.end_date, record.row) == (
        "AW-DE0001",
        1_250_000,
        "2021-03-01",
        "2023-02-28",
        2,
    )
    assert [(r.row, r.reason) for r in result.rejected] == [
        (4, f"{workbook} row 4: obligated amount 'about a million' is not a dollar amount"),
        (5, f"{workbook} row 5: 1 more cells than the header has columns"),
        (None, f"{folder}: is a folder; pass the export files in it (e.g. {folder / '*.csv'})"),
        (
            1,
            f"{download} row 1: a ZIP archive (as USAspending downloads come): unzip it and "
            "import the CSV files in it; nothing in the file was imported",
        ),
        (
            1,
            f"{old} row 1: an old Excel .xls workbook: save it as CSV (or .xlsx) and import "
            "that; nothing in the file was imported",
        ),
        (
            1,
            f"{broken} row 1: cannot be read as an Excel workbook (BadZipFile: File is not a "
            "zip file); save it from Excel again as .xlsx or CSV",
        ),
    ]


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_a_semicolon_tab_or_bar_separated_export_reads_like_the_csv(tmp_path, sep):
    """Break-it: a CSV saved by Excel in a comma-decimal locale (semicolons) or a TSV export
    was rejected whole as "no PIID column": its header read as one column."""
    export = tmp_path / "awards.csv"
    rows = [
        ["piid", "department_name", "obligated_amount", "effective_date"],
        ["W91QUZ22F0210", "DEPT OF THE ARMY, THE", "100.00", "2022-02-01"],
    ]
    export.write_text("\n".join(sep.join(r) for r in rows) + "\n", encoding="utf-8")
    result = awards.import_awards([export])
    assert result.rejected == []
    [(entry, record)] = result.drafts
    assert (record.piid, record.department, record.obligated, record.start_date) == (
        "W91QUZ22F0210",
        "DEPT OF THE ARMY, THE",
        100,
        "2022-02-01",
    )


@pytest.mark.parametrize(
    ("written", "amount"),
    [
        ("1,250,000.50", 1_250_001),
        ("$1,250,000", 1_250_000),
        ("$ 1,250,000 ", 1_250_000),
        ("-1,000", -1000),
        ("999", 999),
    ],
)
def test_thousands_commas_read(written, amount):
    assert awards.award_amount(written, "obligated amount") == amount


@pytest.mark.parametrize("written", ["1250000,50", "1.250.000,50", "12,5", "1,25,000"])
def test_a_comma_that_groups_no_thousands_is_refused_not_read_100_times_larger(written):
    """Break-it: a semicolon export from a comma-decimal locale wrote 1250000,50; the commas
    were dropped and the contract read as $125,000,050."""
    with pytest.raises(ValueError, match="has a comma that is not a thousands separator"):
        awards.award_amount(written, "obligated amount")


def test_a_piid_in_lower_case_is_the_same_award():
    """Break-it: ``ab12`` and ``AB12`` gave AW-ab12.md and AW-AB12.md, one file on a
    case-insensitive disk (the second import said it was "kept as it was")."""
    assert awards.draft_id("ab12") == awards.draft_id("AB12") == "AW-AB12"
    assert awards.draft_id("ab/12") == awards.draft_id("AB/12")
    assert awards.draft_id("ab/12") != awards.draft_id("AB12")
