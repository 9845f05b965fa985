"""The review page's logic and HTTP layer on a toy store (no model, no Dagster): the replace
form, runners-up, bad input that changes nothing, and the re-run showing the override."""

from __future__ import annotations

import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import polars as pl
import pytest

from rfp_retrieval.report.brief import brief_html
from rfp_retrieval.report.review import Rerun, ReviewSite, review_server
from rfp_retrieval.retrieval.overrides import apply_overrides, load_overrides, override_path
from rfp_retrieval.retrieval.past_performance import rank_references
from rfp_retrieval.retrieval.references import references_frame
from tests.test_overrides import (
    FACET,
    KNOWN,
    REJECTED_ROWS,
    _entries,
    _facet_frame,
    _scope,
    _scope_query_frame,
    _vectors,
)

KEY = "rfp-a"


class ToyStore:
    """The tables the review page reads, kept in memory; ``rerun`` plays ``rfp_job``."""

    def __init__(self, folder):
        self.folder = folder
        self.tables = {
            "scope_query": _scope_query_frame(),
            "pp_entries": _entries(),
            "pp_facet_embeddings": _facet_frame(),
            "rfp_document": pl.DataFrame({"rfp_partition": [KEY], "file": ["rfp-a.md"]}),
            "pp_rejected_entries": REJECTED_ROWS,
        }
        self.runs = 0
        self.rerun(KEY, folder / "rfp-a.md")

    def read_table(self, table, columns=None):
        frame = self.tables.get(table)
        return None if frame is None else frame.select(columns or frame.columns)

    def read_partition(self, table, key):
        frame = self.tables.get(table)
        return None if frame is None else frame.filter(pl.col("rfp_partition") == key)

    def rerun(self, key, rfp_file):
        """Rank, apply the override file, write the brief (as the pipeline's assets do)."""
        self.runs += 1
        entries, vectors, scope = _entries(), _vectors(), _scope()
        result = rank_references(entries, vectors, scope, FACET)
        overrides = load_overrides(override_path(self.folder / "overrides", key), KNOWN)
        frame = apply_overrides(
            references_frame(key, result), overrides, result, entries, vectors, scope, FACET
        )
        self.tables["pp_references"] = frame
        html = self.folder / "brief.html"
        row = self.tables["scope_query"].row(0, named=True)
        html.write_text(brief_html(row, frame.to_dicts()), encoding="utf-8")
        self.tables["response_brief"] = pl.DataFrame(
            {"rfp_partition": [key], "html_path": [str(html)]}
        )
        return Rerun(True)


@pytest.fixture
def site(tmp_path):
    store = ToyStore(tmp_path)
    return ReviewSite(store, tmp_path / "overrides", "facet", store.rerun, user="dana")


def _form(site, **fields):
    return {"token": site.token, "replace": "PP-2", "by": "Dana", "reason": "Fits.", **fields}


def test_the_page_offers_the_runners_up_of_the_ranking(site):
    page = site.review_page(KEY)
    assert re.findall(r'class="review-ref" data-id="([^"]+)"', page) == ["PP-1", "PP-2", "PP-3"]
    # PP-4 is the next candidate; PP-5 (commercial) fails the customer-type filter, and is
    # offered after it with what it misses (the filters leave fewer than RUNNERS_UP)
    runners = re.findall(r'<option value="(PP-\d)">PP-\d: Title PP-\d \(score', page)
    assert runners == ["PP-4", "PP-5"] * 3  # one select per pick
    assert site.state(KEY)["runners_up"] == [
        ("PP-4", "Title PP-4", pytest.approx(0.6), []),
        ("PP-5", "Title PP-5", pytest.approx(0.5), ["customer type"]),
    ]
    assert "PP-5: Title PP-5 (score 0.500; misses customer type)</option>" in page
    assert "Only 1 other candidate passed this RFP" in page
    assert 'value="dana"' in page and 'list="entries"' in page


def test_a_swap_writes_the_file_reruns_and_marks_the_brief(site, tmp_path):
    ok, text = site.submit(KEY, _form(site, with_id="PP-5", reason="The claims work."))
    assert ok, text
    assert text.startswith("PP-5 now replaces PP-2")
    (only,) = load_overrides(tmp_path / "overrides" / "rfp-a.yaml", KNOWN)
    assert (only.replace_id, only.with_id, only.by) == ("PP-2", "PP-5", "Dana")
    assert site.store.runs == 2
    brief = site.brief_path(KEY).read_text(encoding="utf-8")
    assert '<div class="override" data-replaced="PP-2">' in brief
    page = site.review_page(KEY)
    assert re.findall(r'class="review-ref" data-id="([^"]+)"', page) == ["PP-1", "PP-5", "PP-3"]
    assert "in place of PP-2 (score 0.800): The claims work." in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"with_id": "PP-99"}, "PP-99 is not an entry id of the library"),
        ({"with_choice": "PP-4", "reason": " "}, "give a reason"),
        ({"with_id": "PP-4", "token": "old"}, "from an earlier review session"),
    ],
)
def test_bad_input_changes_nothing(site, tmp_path, fields, message):
    ok, text = site.submit(KEY, _form(site, **fields))
    assert not ok and message in text
    assert not (tmp_path / "overrides").exists()
    assert site.store.runs == 1


def test_a_missing_rfp_and_a_failed_rerun_change_nothing(site, tmp_path):
    ok, text = site.submit("nope", _form(site, with_id="PP-4"))
    assert not ok and "No RFP partition 'nope' has been run" in text
    site.rematerialize = lambda key, path: Rerun(False, "step pp_references failed")
    ok, text = site.submit(KEY, _form(site, with_id="PP-4"))
    assert not ok and "step pp_references failed" in text
    assert not override_path(tmp_path / "overrides", KEY).exists()

    def crash(key, path):
        raise RuntimeError("store locked")

    site.rematerialize = crash
    with pytest.raises(RuntimeError):
        site.submit(KEY, _form(site, with_id="PP-4"))
    assert not override_path(tmp_path / "overrides", KEY).exists()


def test_the_server_answers_on_localhost(site):
    server = review_server(site, 0)
    host, port = server.server_address[:2]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://{host}:{port}"
    try:
        assert host == "127.0.0.1"
        index = urllib.request.urlopen(f"{base}/").read().decode()
        assert '<a href="/review/rfp-a">RFP A</a>' in index
        brief = urllib.request.urlopen(f"{base}/brief/rfp-a").read().decode()
        assert 'data-id="PP-1"' in brief
        data = urllib.parse.urlencode(_form(site, with_id="PP-99")).encode()
        with pytest.raises(urllib.error.HTTPError) as bad:
            urllib.request.urlopen(f"{base}/review/rfp-a", data=data)
        assert bad.value.code == 400
        assert "PP-99 is not an entry id" in bad.value.read().decode()
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{base}/review/nope")
        assert missing.value.code == 404
        foreign = urllib.request.Request(f"{base}/", headers={"Host": f"evil.example:{port}"})
        with pytest.raises(urllib.error.HTTPError) as rebound:
            urllib.request.urlopen(foreign)
        assert rebound.value.code == 403
    finally:
        server.shutdown()
        server.server_close()


def test_a_rejected_library_row_is_named_on_the_page_and_in_the_refusal(site, tmp_path):
    """issue 15: the page said "not an entry id of the library" (and, for a hand-written
    override file, "does not hold") for an id whose library row was rejected."""
    ok, text = site.submit(KEY, _form(site, with_id="PP-951"))
    assert not ok
    assert text == (
        "Nothing changed: PP-951 is rejected by the library: past_performance_matrix.csv row "
        "152: no title: give the entry a title; fix the library row or pick another entry"
    )
    assert not (tmp_path / "overrides").exists() and site.store.runs == 1
    path = override_path(tmp_path / "overrides", KEY)
    path.parent.mkdir()
    path.write_text(
        "overrides:\n  - replace: PP-2\n    with: PP-951\n    by: Dana\n    at: 2026-06-10\n"
        "    reason: Fits.\n",
        encoding="utf-8",
    )
    page = site.review_page(KEY)
    assert "PP-951, rejected: past_performance_matrix.csv row 152: no title" in page
    assert "does not hold" not in page
