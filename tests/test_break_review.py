"""Hostile input to the review server (break-it pass): a silent connection, an oversized or
malformed form, an override of an entry outside the RFP's customer types."""

from __future__ import annotations

import socket
import threading
import time
import urllib.parse

import pytest

from rfp_retrieval.report.review import MAX_FORM_BYTES, ReviewSite, review_server
from rfp_retrieval.retrieval.overrides import (
    OverrideError,
    load_overrides,
    override_line,
    override_path,
)
from tests.test_overrides import KNOWN
from tests.test_review_site import KEY, ToyStore, _form


@pytest.fixture
def served(tmp_path):
    store = ToyStore(tmp_path)
    site = ReviewSite(store, tmp_path / "overrides", "facet", store.rerun, user="dana")
    server = review_server(site, 0, timeout=0.5)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _exchange(port: int, request: bytes, wait: float = 10.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(request)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def _post(key: str, body: bytes, length: str | None = None) -> bytes:
    size = str(len(body)) if length is None else length
    head = f"POST /review/{key} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {size}\r\n"
    return head.encode() + b"Content-Type: application/x-www-form-urlencoded\r\n\r\n" + body


def test_a_silent_connection_does_not_hold_the_server(served):
    _site, port = served
    idle = socket.create_connection(("127.0.0.1", port))  # a browser's unused preconnect
    try:
        time.sleep(0.1)
        start = time.monotonic()
        answer = _exchange(port, b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        waited = time.monotonic() - start
    finally:
        idle.close()
    assert answer.startswith(b"HTTP/1.0 200")
    assert b'<a href="/review/rfp-a">RFP A</a>' in answer
    assert waited < 5  # dropped after the 0.5 s timeout, not held until the client leaves


def test_an_oversized_form_is_refused_whole(served, tmp_path):
    site, port = served
    form = _form(site, with_id="PP-4", reason="Long. " * (MAX_FORM_BYTES // 5))
    answer = _exchange(port, _post(KEY, urllib.parse.urlencode(form).encode()))
    assert answer.startswith(b"HTTP/1.0 413")
    assert b"over the 100000 accepted; shorten the reason" in answer
    assert not override_path(tmp_path / "overrides", KEY).exists()
    assert site.store.runs == 1


@pytest.mark.parametrize("length", ["-1", "abc"])
def test_a_form_without_a_usable_length_changes_nothing(served, tmp_path, length):
    site, port = served
    body = urllib.parse.urlencode(_form(site, with_id="PP-4")).encode()
    answer = _exchange(port, _post(KEY, body, length))
    assert answer.startswith(b"HTTP/1.0 400")
    assert b"did not say how long the form is" in answer
    assert not override_path(tmp_path / "overrides", KEY).exists()
    again = _exchange(port, b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
    assert again.startswith(b"HTTP/1.0 200")


def test_a_form_cut_short_changes_nothing(served, tmp_path):
    site, port = served
    body = urllib.parse.urlencode(_form(site, with_id="PP-4")).encode()
    answer = _exchange(port, _post(KEY, body[:20], str(len(body))))
    assert answer.startswith(b"HTTP/1.0 408")
    assert b"arrived incomplete" in answer
    assert not override_path(tmp_path / "overrides", KEY).exists()
    assert site.store.runs == 1


def test_a_writer_may_cite_an_entry_of_an_excluded_customer_type(served, tmp_path):
    site, _port = served
    # PP-5 is commercial; the RFP asks for federal-civilian (no relaxation admits it).
    ok, text = site.submit(KEY, _form(site, with_id="PP-5", reason="The CO asked for it."))
    assert ok, text
    (only,) = load_overrides(override_path(tmp_path / "overrides", KEY), KNOWN)
    assert (only.replace_id, only.with_id) == ("PP-2", "PP-5")
    row = next(r for r in site.store.tables["pp_references"].to_dicts() if r["id"] == "PP-5")
    assert (row["rank"], row["relaxed"]) == (2, ["customer_type"])


GOOD = {"replace": "PP-2", "with": "PP-4", "by": "Dana", "at": "2026-06-10", "reason": "Fits."}


def _override_text(**fields: str) -> str:
    merged = {**GOOD, **fields}
    lines = "".join(f"    {k}: {v}\n" for k, v in merged.items() if v is not None)
    return "overrides:\n  - " + lines.lstrip()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _override_text().replace("overrides:", "overides:"),
            "expected a list under 'overrides:', found 'overides'; fix the spelling",
        ),
        (
            _override_text() + "    with: PP-5\n",
            "a field is given twice in one override ('with' again on line 7)",
        ),
        (
            _override_text(**{"with": None, "wiht": "PP-4"}),
            "override 1 lacks with (it has 'wiht': a misspelling?)",
        ),
        (_override_text(reason="[a, b]"), "'reason' must be text, got ['a', 'b'] (list)"),
        (_override_text(by="{name: Dana}"), "'by' must be text, got {'name': 'Dana'} (dict)"),
        (_override_text(by="yes"), "'by' must be text, got True (bool)"),
        (_override_text(reason="'  '"), "override 1 lacks reason"),
    ],
    ids=["key-typo", "field-twice", "field-typo", "list", "mapping", "yes-no", "blank"],
)
def test_a_hand_edited_override_file_names_its_mistake(tmp_path, text, message):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OverrideError) as error:
        load_overrides(path, KNOWN)
    assert message in str(error.value)
    assert str(path) in str(error.value)


def test_numeric_ids_and_a_spaced_date_time_still_read(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(_override_text(at="2026-06-10 14:30"), encoding="utf-8")
    (only,) = load_overrides(path, KNOWN)
    assert (only.replace_id, only.with_id, only.at) == ("PP-2", "PP-4", "2026-06-10T14:30:00")
    path.write_text(_override_text(replace="112", **{"with": "45"}), encoding="utf-8")
    (numeric,) = load_overrides(path, {"112", "45"})
    assert (numeric.replace_id, numeric.with_id) == ("112", "45")


@pytest.mark.parametrize(
    ("at", "words"),
    [
        ("2026-06-10", "2026-06-10"),
        ("2026-06-10T14:30:00", "2026-06-10 14:30"),
        ("2026-06-10T14:30:15", "2026-06-10 14:30:15"),
        ("2026-06-10T14:30:00+00:00", "2026-06-10 14:30 UTC"),
        ("2026-06-10T09:30:00-05:00", "2026-06-10 09:30 UTC-05:00"),
    ],
)
def test_the_override_line_says_when_as_written(at, words):
    mark = {"by": "Dana", "at": at, "reason": "Fits.", "replaced": {"id": "PP-2", "score": 0.8}}
    assert override_line(mark) == f"Chosen by Dana on {words} in place of PP-2 (score 0.800): Fits."


def test_a_utc_date_time_from_yaml_reads_and_shows_in_utc(tmp_path):
    path = tmp_path / "rfp-a.yaml"
    path.write_text(_override_text(at="2026-06-10T14:30:00Z"), encoding="utf-8")
    (only,) = load_overrides(path, KNOWN)
    assert only.at == "2026-06-10T14:30:00+00:00"
    mark = {"by": only.by, "at": only.at, "reason": only.reason, "replaced": {"id": "PP-2"}}
    assert "on 2026-06-10 14:30 UTC in place of PP-2:" in override_line(mark)


def test_a_broken_override_file_is_said_on_the_page(served, tmp_path):
    site, _port = served
    path = override_path(tmp_path / "overrides", KEY)
    path.parent.mkdir()
    path.write_text(_override_text(**{"with": "PP-99"}), encoding="utf-8")
    page = site.review_page(KEY)
    assert "The override file cannot be read, so the picks below are the last run" in page
    assert "override 1 names PP-99, which the library does not hold" in page
    ok, text = site.submit(KEY, _form(site, with_id="PP-4"))
    assert not ok and "PP-99" in text
    assert site.store.runs == 1
    path.write_text(_override_text(), encoding="utf-8")
    assert "cannot be read" not in site.review_page(KEY)


def test_a_run_holding_the_store_gives_a_busy_page_naming_it_not_a_500(served, tmp_path):
    """Break-it: while a `run` wrote the DuckDB store, the page answered 500 with DuckDB's
    raw lock message."""
    import subprocess
    import sys

    import duckdb

    site, port = served
    db = tmp_path / "store.duckdb"
    hold = "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True)"
    holder = subprocess.Popen(
        [sys.executable, "-c", hold + "; time.sleep(60)", str(db)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        site.index_page = lambda: duckdb.connect(str(db), read_only=True)  # the store's read
        reply = _exchange(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").decode()
    finally:
        holder.kill()
        holder.wait()
    assert reply.startswith("HTTP/1.0 503")
    assert (
        f"A run (process {holder.pid}) is writing the store right now, so this page cannot "
        "read it; nothing was changed. Reload this page when the run ends."
    ) in reply
    assert "Conflicting lock" not in reply
