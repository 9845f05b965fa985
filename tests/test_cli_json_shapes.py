"""Golden tests of the CLI's fixed JSON shapes (``rfp_retrieval/cli/shapes.py``): real runs on
small fixtures, checked key by key and type by type against the declared shapes."""

from __future__ import annotations

import json
import os
import shutil
import types
from pathlib import Path
from typing import Any, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from typer.testing import CliRunner

from rfp_retrieval.cli import shapes
from rfp_retrieval.cli.app import app
from tests.conftest import REPO
from tests.small_project import MIAMI_RFP, project_config, small_answers, small_library


def ours(environ) -> dict[str, str]:
    """The variables the CLI could set: DAGSTER_HOME and RFP_RETRIEVAL_* (libraries such as
    torch set their own on import)."""
    return {k: v for k, v in environ.items() if k == "DAGSTER_HOME" or k.startswith("RFP_")}


def problems(value: Any, shape: Any, path: str = "$") -> list[str]:
    """Where ``value`` (parsed JSON) departs from ``shape`` (a TypedDict or a type hint):
    missing or extra keys, wrong types. Empty when it conforms."""
    if shape is Any:
        return []
    origin, args = get_origin(shape), get_args(shape)
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {value!r}"]
        hints = get_type_hints(shape)
        found = [] if set(value) == set(hints) else [f"{path}: keys {sorted(value)}"]
        return found + [
            p for k, t in hints.items() if k in value for p in problems(value[k], t, f"{path}.{k}")
        ]
    if origin in (Union, types.UnionType):
        if any(not problems(value, option, path) for option in args):
            return []
        return [f"{path}: {value!r} is not {shape}"]
    if shape is type(None):
        return [] if value is None else [f"{path}: expected null, got {value!r}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: expected a list, got {value!r}"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {value!r}"]
        return [p for k, v in value.items() for p in problems(v, args[1], f"{path}.{k}")]
    if shape is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif shape is float:
        ok = isinstance(value, float)
    else:
        ok = isinstance(value, shape)
    return [] if ok else [f"{path}: expected {shape.__name__}, got {value!r}"]


def _json(result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_checker_names_missing_keys_and_wrong_types():
    good = {"file": "a.md", "reason": "empty"}
    assert problems(good, shapes.FileReason) == []
    assert problems({"file": "a.md"}, shapes.FileReason) == ["$: keys ['file']"]
    assert problems({"file": 1, "reason": "x"}, shapes.FileReason) == [
        "$.file: expected str, got 1"
    ]


def test_parse_json_has_the_parse_shape():
    payload = _json(CliRunner().invoke(app, ["parse", str(MIAMI_RFP), "--json"]))
    assert problems(payload, shapes.ParsePayload) == []
    assert payload["sections"] and payload["questions"]
    assert payload["issuer"]["name"]


def test_library_json_has_the_library_shape(tmp_path):
    folder = small_library(tmp_path / "library", rows=6)
    payload = _json(CliRunner().invoke(app, ["library", "--library", str(folder), "--json"]))
    assert problems(payload, shapes.LibraryPayload) == []
    assert len(payload["entries"]) == 6
    assert set(payload["entries"][0]) == {
        "id",
        "title",
        "narrative",
        "customer",
        "contract",
        "technical",
        "outcomes",
        "source",
        "defects",
        "role",
        "prime_contractor",
    }


@pytest.mark.slow
def test_eval_past_performance_json_has_the_eval_shape(tmp_path):
    golden = tmp_path / "golden.jsonl"
    lines = (REPO / "sample" / "golden" / "golden.jsonl").read_text().splitlines()[:2]
    rows = [json.loads(line) for line in lines]
    for row in rows:
        shutil.copy(REPO / "sample" / "golden" / row["rfp_file"], tmp_path / row["rfp_file"])
    golden.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    args = ["eval", "past-performance", "--golden", str(golden), "--mode", "all", "--json"]
    payload = _json(CliRunner().invoke(app, [*args, "--library", str(REPO / "sample" / "library")]))
    assert problems(payload, shapes.EvalPastPerformancePayload) == []
    assert list(payload["modes"]) == ["naive", "facet", "facet+bumps", "default"]
    assert len(payload["modes"]["default"]["per_scope"]) == 2


@pytest.mark.slow
def test_eval_answers_json_has_the_answers_shape(tmp_path, shared_data):
    rows = [
        json.loads(line)
        for line in (shared_data / "answers_qrels_dev.jsonl").read_text().splitlines()[:3]
    ]
    for row in rows:
        row["doc"] = str(shared_data / row["doc"])
    qrels = tmp_path / "qrels.jsonl"
    qrels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    answers = small_answers(tmp_path / "answers")
    args = ["eval", "answers", "--qrels", str(qrels), "--answers", str(answers), "--json"]
    payload = _json(CliRunner().invoke(app, args))
    assert problems(payload, shapes.EvalAnswersPayload) == []
    assert list(payload["runs"]) == ["on", "off"]
    assert len(payload["runs"]["on"]["per_question"]) == 3


@pytest.mark.slow
def test_run_json_has_the_run_shape_and_leaves_the_environment_alone(tmp_path, monkeypatch):
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("RFP_RETRIEVAL_CONFIG", raising=False)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy(MIAMI_RFP, inbox / MIAMI_RFP.name)
    (inbox / "empty.pdf").write_bytes(b"")
    small_library(tmp_path / "library", rows=24)
    small_answers(tmp_path / "answers", topics=("api",))
    config = project_config(tmp_path)
    before = ours(os.environ)
    result = CliRunner().invoke(app, ["run", "--config", str(config), "--json"])
    assert ours(os.environ) == before
    assert result.exit_code == 1, result.output  # empty.pdf failed; the Miami RFP ran
    payload = json.loads(result.stdout)
    assert problems(payload, shapes.RunPayload) == []
    ok, failed = sorted(payload["rfps"], key=lambda item: item["status"] != "ok")
    assert (ok["status"], failed["status"]) == ("ok", "failed")
    assert len(ok["references"]) == 3
    assert Path(ok["brief"]).is_relative_to(tmp_path / "out")
    # --config keeps the run history beside the config file
    assert (tmp_path / "var" / "dagster_home" / "dagster.yaml").is_file()


def test_the_run_scope_query_says_prime_only_industries_and_the_reference_count():
    row = {
        "issuer": "Pinellas County", "issuer_type": "local", "customer_types": ["local"],
        "value_min": 750_000, "value_max": None, "ended_after": "2023-10-30",
        "started_after": None, "require_prime": True, "as_of": "2026-10-30",
        "industries": ["utilities"], "references_required": 3, "title": "311 RFQ",
    }  # fmt: skip
    sq = shapes.run_scope_query(row)
    assert problems(sq, shapes.RunScopeQuery) == []
    assert (sq["require_prime"], sq["industries"], sq["references_required"]) == (
        True,
        ["utilities"],
        3,
    )
    assert "title" not in sq  # the filters only
