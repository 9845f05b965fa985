"""The review page: a writer swaps a past-performance reference and sees the updated brief.

``rfp-retrieval review`` serves, on 127.0.0.1 only (standard library ``http.server``, one
request at a time so two re-runs never overlap):

- ``/``: the RFP partitions that have a brief;
- ``/review/<partition-key>``: per chosen reference, a "replace" form offering the runners-up
  (the ranking's next candidates, ``RUNNERS_UP`` of them, scored as usual) or any entry id
  typed in, a reason and the writer's name (default: the OS user); below it the brief;
- ``/brief/<partition-key>``: the brief itself (``brief.html`` as the pipeline wrote it).

A submitted form is checked and written by ``retrieval.overrides.set_override`` (the override
file ``<overrides_dir>/<partition-key>.yaml``), then the partition is re-materialized by the
``rematerialize`` callable the command passes in (``launch.Launcher.run_rfp``: the same
Dagster machinery as ``rfp-retrieval run``), and the page shows the brief with the override
marked. Bad input (an unknown entry id, an empty reason, an RFP that was not run) shows a
message and changes nothing; a failed re-run puts the previous override file back.

This module never imports Dagster: the store (``read_table`` / ``read_partition``) and the
re-run are handed in.
"""

from __future__ import annotations

import getpass
import html
import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from rfp_retrieval.library.cells import library_id
from rfp_retrieval.report.wording import counted
from rfp_retrieval.retrieval.overrides import (
    OverrideError,
    load_overrides,
    override_line,
    override_marks,
    override_path,
    rejected_id_reasons,
    set_override,
)

RUNNERS_UP = 5
"""How many runners-up the replace control offers (beyond them, type an entry id)."""

HOST = "127.0.0.1"
LOCAL_NAMES = ("127.0.0.1", "localhost")
"""Host headers the server answers (any other name reached it through a foreign page)."""

REQUEST_TIMEOUT = 5.0
"""Seconds a connection may stay silent before the server drops it: the server answers one
request at a time, so a browser's unused speculative connection (or a client that stops
mid-form) would otherwise hold every other request back (CPython bpo-31639)."""

MAX_FORM_BYTES = 100_000
"""Largest replace form accepted (a reason is a sentence or two); a bigger one is refused
whole instead of being cut short."""


@dataclass
class Rerun:
    """What ``rematerialize`` reports: ``success`` and, on failure, the ``message``."""

    success: bool
    message: str = ""


def os_user() -> str:
    """The OS login name, the default "who" of an override ('' when unknown)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return ""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


@dataclass
class ReviewSite:
    """The review pages of one project.

    ``store``: a partition store (``read_table(table, columns)``, ``read_partition(table,
    key)``, polars frames or None); ``overrides_dir`` the settings' folder;
    ``ranking_mode`` the pipeline's (``RankingConfig.mode``); ``rematerialize(key, rfp_file)``
    re-runs one RFP partition and returns an object with ``success`` and ``message``
    (``Rerun`` or ``launch.RunOutcome``).
    """

    store: Any
    overrides_dir: Path
    ranking_mode: str
    rematerialize: Callable[[str, Path], Any]
    user: str = field(default_factory=os_user)
    token: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    flash: dict[str, tuple[str, str]] = field(default_factory=dict)

    # --- reading the store ----------------------------------------------------------------

    def rfps(self) -> list[tuple[str, str]]:
        """``(partition key, title)`` of every RFP with a brief, by key."""
        briefs = self.store.read_table("response_brief", ["rfp_partition"])
        if briefs is None or briefs.is_empty():
            return []
        scopes = self.store.read_table("scope_query", ["rfp_partition", "title"])
        titles = dict(scopes.iter_rows()) if scopes is not None else {}
        keys = sorted(set(briefs["rfp_partition"].to_list()))
        return [(k, titles.get(k) or k) for k in keys]

    def brief_path(self, key: str) -> Path | None:
        """The partition's ``brief.html`` (None when it has none on disk)."""
        brief = self.store.read_partition("response_brief", key)
        if brief is None or brief.is_empty():
            return None
        path = Path(brief["html_path"][0])
        return path if path.is_file() else None

    def state(self, key: str) -> dict[str, Any] | None:
        """What the review page of ``key`` shows; None when the RFP has not been run.

        ``{"title", "rfp_file", "rows" (pp_references dicts), "picks" (chosen rows in rank
        order), "runners_up" ([(id, title, score, misses)]: ``runners_up``), "known_ids",
        "rejected"
        (``overrides.rejected_id_reasons`` of ``pp_rejected_entries``: an id of a rejected
        library row is named with its row and reason, not "not held"), "library" ([(id,
        title)] for the typed-id suggestions), "marks" (``override_marks``)}``.
        """
        scope = self.store.read_partition("scope_query", key)
        refs = self.store.read_partition("pp_references", key)
        document = self.store.read_partition("rfp_document", key)
        if scope is None or scope.is_empty() or refs is None or document is None:
            return None
        entries = self.store.read_table("pp_entries")
        rows = refs.to_dicts()
        picks = sorted((r for r in rows if (r.get("rank") or 0) > 0), key=lambda r: r["rank"])
        known = set(entries["id"].to_list()) if entries is not None else set()
        library = (
            sorted(zip(entries["id"].to_list(), entries["title"].to_list(), strict=True))
            if entries is not None
            else []
        )
        return {
            "title": scope["title"][0] or key,
            "rfp_file": Path(document["file"][0]),
            "rows": rows,
            "picks": picks,
            "runners_up": self.runners_up(scope.row(0, named=True), entries, picks),
            "known_ids": known,
            "rejected": rejected_id_reasons(self.store.read_table("pp_rejected_entries")),
            "library": library,
            "marks": override_marks(rows),
        }

    def runners_up(
        self, scope_row: Mapping[str, Any], entries: Any, picks: list[dict[str, Any]]
    ) -> list[tuple[str, str, float, list[str]]]:
        """``RUNNERS_UP`` entries a writer could cite instead, best first, current picks left
        out: ``(id, title, score, misses)``. First the next candidates of the partition's own
        ranking (scores as ``past_performance.rank_references`` gives them, ``misses`` the
        constraints relaxation bent for them); when the filters leave fewer, the entries that
        rank best with the RFP's filters lifted, each scored as an override would be
        (``overrides.score_entry``) with the constraints it misses in the writer's words
        (trial: an RFP whose filters let three entries through offered no alternative at
        all). [] when the library or its vectors are not stored."""
        from rfp_retrieval.retrieval.config import RankingConfig, references_to_offer
        from rfp_retrieval.retrieval.filters import constraint_labels
        from rfp_retrieval.retrieval.overrides import score_entry
        from rfp_retrieval.retrieval.past_performance import rank_references
        from rfp_retrieval.retrieval.prepared import PreparedLibrary
        from rfp_retrieval.retrieval.records import EntryVectors, ScopeFilters
        from rfp_retrieval.retrieval.scope_query import scope_query_from_row

        stored = self.store.read_table("pp_facet_embeddings")
        if entries is None or entries.is_empty() or stored is None:
            return []
        # the partition's own ranking: as many picks as the RFP asks for (assets.retrieval)
        config = RankingConfig(
            mode=self.ranking_mode,
            top_k=references_to_offer(scope_row.get("references_required")),
        )
        chosen = {p["id"] for p in picks}
        vectors = EntryVectors.from_frame(stored)
        scope = scope_query_from_row(dict(scope_row))
        depth = config.top_k + len(chosen) + RUNNERS_UP
        prepared = PreparedLibrary(entries, vectors)
        try:
            result = rank_references(entries, vectors, scope, config, prepared, depth=depth)
            offered = [
                (r.id, r.title or "", float(r.score), constraint_labels(r.relaxed))
                for r in result.references
                if r.id not in chosen
            ][:RUNNERS_UP]
            if len(offered) < RUNNERS_UP:
                seen = chosen | {o[0] for o in offered}
                unfiltered = replace(scope, filters=ScopeFilters())
                for r in rank_references(
                    entries, vectors, unfiltered, config, prepared, depth=depth
                ).references:
                    if len(offered) == RUNNERS_UP:
                        break
                    if r.id in seen:
                        continue
                    try:
                        ref = score_entry(entries, vectors, scope, config, r.id, prepared)
                    except ValueError:  # passes no relaxation of the remaining filters
                        continue
                    offered.append(
                        (ref.id, ref.title or "", float(ref.score), constraint_labels(ref.relaxed))
                    )
        finally:
            prepared.close()
        return offered

    def override_file_problem(
        self, key: str, known_ids: set[str], rejected: Mapping[str, str] | None = None
    ) -> str | None:
        """Why ``key``'s override file cannot be applied (a hand edit broke it), in words for
        the top of the page (``rejected`` as in ``state``); None when it reads. The picks
        shown are then the last run's, without the file's overrides, and a replace is
        refused until the file is fixed."""
        try:
            load_overrides(override_path(self.overrides_dir, key), known_ids, rejected)
        except OverrideError as exc:
            return (
                f"The override file cannot be read, so the picks below are the last run's and "
                f"its overrides are not applied: {exc}"
            )
        return None

    # --- acting ---------------------------------------------------------------------------

    def submit(self, key: str, form: Mapping[str, str]) -> tuple[bool, str]:
        """Apply one replace form of ``key``'s page: ``(True, what changed)`` after the
        re-run, or ``(False, why not)`` with nothing changed. ``form`` holds ``token``,
        ``replace``, ``with_id`` (typed; read in the library's spelling by ``library_id``, so
        ``pp-4`` is ``PP-4``) or ``with_choice`` (a runner-up), ``by``, ``reason``.
        """
        if form.get("token") != self.token:
            return False, "This form is from an earlier review session; reload the page."
        state = self.state(key)
        if state is None:
            return False, f"No RFP partition {key!r} has been run; run it first."
        typed = (form.get("with_id") or "").strip() or (form.get("with_choice") or "").strip()
        with_id = library_id(typed, state["known_ids"])
        replace_id = (form.get("replace") or "").strip()
        path = override_path(self.overrides_dir, key)
        before = path.read_bytes() if path.is_file() else None
        picks = [p["id"] for p in state["picks"]]
        try:
            set_override(
                path,
                picks,
                replace_id,
                with_id,
                form.get("by") or "",
                form.get("reason") or "",
                state["known_ids"],
                rejected=state["rejected"],
            )
        except OverrideError as exc:
            return False, f"Nothing changed: {exc}"

        def put_back() -> None:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(before)

        try:
            outcome = self.rematerialize(key, state["rfp_file"])
        except BaseException:  # an error or Ctrl-C in the re-run: the file as it was
            put_back()
            raise
        if not outcome.success:
            put_back()
            return False, (
                f"Nothing changed: the re-run of {key} failed ({outcome.message}); the "
                "override file was put back as it was."
            )
        return True, f"{with_id} now replaces {replace_id}; the brief below is the re-run one."

    # --- pages ----------------------------------------------------------------------------

    def index_page(self) -> str:
        """The list of RFPs with a brief."""
        items = "".join(
            f'<li><a href="/review/{quote(k)}">{_e(title)}</a> <span class="muted">{_e(k)}'
            "</span></li>"
            for k, title in self.rfps()
        )
        body = (
            f"<ul>{items}</ul>"
            if items
            else ("<p>No RFP has a brief yet: run <code>rfp-retrieval run</code> first.</p>")
        )
        return _page("Review: RFPs", f"<h1>RFPs to review</h1>{body}")

    def review_page(self, key: str, message: tuple[str, str] | None = None) -> str | None:
        """The review page of ``key`` (None when it was not run). ``message``: ``(kind,
        text)`` shown on top, kind ``ok`` or ``error``."""
        state = self.state(key)
        if state is None:
            return None
        h = [
            f"<h1>Review: {_e(state['title'])}</h1>",
            '<p><a href="/">All RFPs</a> · '
            f'<a href="/brief/{quote(key)}">The brief alone</a> · partition {_e(key)}</p>',
        ]
        if message:
            h.append(f'<p class="message {_e(message[0])}" role="status">{_e(message[1])}</p>')
        problem = self.override_file_problem(key, state["known_ids"], state["rejected"])
        if problem:
            h.append(f'<p class="message error" role="alert">{_e(problem)}</p>')
        options = "".join(
            f'<option value="{_e(i)}">{_e(i)}: {_e(t)} (score {s:.3f}'
            f"{'; misses ' + _e(', '.join(m)) if m else ''})</option>"
            for i, t, s, m in state["runners_up"]
        )
        h.append(
            '<datalist id="entries">'
            + "".join(f'<option value="{_e(i)}">{_e(t)}</option>' for i, t in state["library"])
            + "</datalist>"
        )
        compliant = sum(1 for *_, m in state["runners_up"] if not m)
        if compliant < RUNNERS_UP:
            h.append(
                f'<p class="muted">{_e(_other_candidates(compliant))} passed this RFP\'s '
                "filters (relaxed as in the brief); the others offered say what they miss. "
                "Type any library entry id to cite another.</p>"
            )
        for pick in state["picks"]:
            pid = str(pick["id"])
            mark = state["marks"].get(pid)
            h.append(f'<div class="review-ref" data-id="{_e(pid)}">')
            h.append(
                f"<h3>{_e(pick['rank'])}. {_e(pid)}: {_e(pick.get('title'))} "
                f'<span class="muted">score {float(pick.get("score") or 0):.3f}</span></h3>'
            )
            if mark:
                h.append(f'<p class="override">Writer override. {_e(override_line(mark))}</p>')
            h.append(
                f'<form method="post" action="/review/{quote(key)}" class="replace">'
                f'<input type="hidden" name="token" value="{_e(self.token)}">'
                f'<input type="hidden" name="replace" value="{_e(pid)}">'
                '<label>Replace with <select name="with_choice"><option value="">'
                f"(a runner-up)</option>{options}</select></label> "
                '<label>or entry id <input name="with_id" list="entries" size="10"></label><br>'
                '<label>Reason <input name="reason" size="70"></label> '
                f'<label>By <input name="by" value="{_e(self.user)}" size="16"></label> '
                '<button type="submit">Replace</button></form></div>'
            )
        if not state["picks"]:
            h.append("<p>No reference was picked for this RFP: nothing to replace.</p>")
        h.append(f'<iframe class="brief" title="brief" src="/brief/{quote(key)}"></iframe>')
        return _page(f"Review: {state['title']}", "\n".join(h))


CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;
color:#1d232b}.muted{color:#66707c}.review-ref{border:1px solid #dde2e8;border-radius:6px;
padding:6px 14px;margin:10px 0}.message{padding:6px 10px}.ok{background:#eef6ee;
border-left:4px solid #59a14f}.error{background:#fdecec;border-left:4px solid #e15759}
.override{background:#eef2fb;border-left:4px solid #4e79a7;padding:4px 10px}
iframe.brief{width:100%;height:1400px;border:1px solid #dde2e8;margin-top:16px}
form.replace label{margin-right:8px}
"""


_DUCKDB_LOCK = re.compile(r"Could not set lock on file|Conflicting lock is held", re.IGNORECASE)
_LOCK_PID = re.compile(r"\(PID (\d+)\)")


def store_busy_message(exc: BaseException) -> str | None:
    """What the page says when ``exc`` is DuckDB refusing the store because another process
    (a ``run``) writes it: who holds it (the PID DuckDB names) and that nothing changed; None
    for any other error."""
    text = str(exc)
    if not _DUCKDB_LOCK.search(text):
        return None
    pid = _LOCK_PID.search(text)
    who = f"A run (process {pid.group(1)})" if pid else "A run"
    return (
        f"{who} is writing the store right now, so this page cannot read it; nothing was "
        "changed. Reload this page when the run ends."
    )


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>{body}</body></html>\n"
    )


def handler_for(site: ReviewSite, timeout: float = REQUEST_TIMEOUT) -> type[BaseHTTPRequestHandler]:
    """A request handler class serving ``site`` (GET pages, POST a replace form); a
    connection silent for ``timeout`` seconds is dropped."""

    class Handler(BaseHTTPRequestHandler):
        def setup(self) -> None:
            self.timeout = timeout  # StreamRequestHandler applies it to the socket
            super().setup()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            return  # the terminal shows the URL only

        def log_error(self, format: str, *args: Any) -> None:  # noqa: A002
            return  # a dropped silent connection is not the writer's concern

        def _send(self, status: int, text: str, kind: str = "text/html") -> None:
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", f"{kind}; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def _missing(self, key: str) -> None:
            self._send(
                HTTPStatus.NOT_FOUND,
                _page(
                    "Not found",
                    f'<p class="message error">No RFP partition {_e(key)!s} has a brief; run '
                    'it first (<code>rfp-retrieval run</code>). <a href="/">All RFPs</a></p>',
                ),
            )

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._guarded(self._get)

        def do_POST(self) -> None:  # noqa: N802
            self._guarded(self._post)

        def _guarded(self, serve: Callable[[], None]) -> None:
            """Serve; an unexpected error (say, the store is locked by a run in another
            process) becomes a page with its message instead of a dropped connection."""
            host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
            if host not in LOCAL_NAMES:  # a page elsewhere reaching us by DNS rebinding
                return self._send(HTTPStatus.FORBIDDEN, _page("Forbidden", "<p>Local only.</p>"))
            try:
                serve()
            except Exception as exc:  # noqa: BLE001 (shown to the writer, server keeps going)
                busy = store_busy_message(exc)
                if busy is not None:  # break-it: a run's lock gave a 500 with DuckDB's text
                    page = _page("Store busy", f'<p class="message error">{_e(busy)}</p>')
                    return self._send(HTTPStatus.SERVICE_UNAVAILABLE, page)
                text = f"{type(exc).__name__}: {exc}"
                page = _page(
                    "Error",
                    f'<p class="message error">Could not read the project: {_e(text)}. '
                    'Reload when the run in progress is done. <a href="/">All RFPs</a></p>',
                )
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, page)

        def _get(self) -> None:
            path = urlsplit(self.path).path
            if path == "/":
                return self._send(HTTPStatus.OK, site.index_page())
            if path.startswith("/brief/"):
                key = unquote(path[len("/brief/") :])
                brief = site.brief_path(key)
                if brief is None:
                    return self._missing(key)
                return self._send(HTTPStatus.OK, brief.read_text(encoding="utf-8"))
            if path.startswith("/review/"):
                key = unquote(path[len("/review/") :])
                page = site.review_page(key, site.flash.pop(key, None))
                return self._missing(key) if page is None else self._send(HTTPStatus.OK, page)
            return self._missing(path)

        def _drain(self, length: int) -> None:
            try:
                while length > 0:
                    chunk = self.rfile.read(min(length, 65536))
                    if not chunk:
                        return
                    length -= len(chunk)
            except TimeoutError:
                return

        def _post(self) -> None:
            path = urlsplit(self.path).path
            if not path.startswith("/review/"):
                return self._missing(path)
            key = unquote(path[len("/review/") :])
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if length < 0 or length > MAX_FORM_BYTES:
                self.close_connection = True
                too_big = length > MAX_FORM_BYTES
                if too_big:  # read it off first, so the browser shows the page, not a reset
                    self._drain(min(length, 100 * MAX_FORM_BYTES))
                text = (
                    f"Nothing changed: the form is {length} bytes, over the "
                    f"{MAX_FORM_BYTES} accepted; shorten the reason and send it again."
                    if too_big
                    else "Nothing changed: the request did not say how long the form is."
                )
                page = _page("Not accepted", f'<p class="message error">{_e(text)}</p>')
                status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE if too_big else HTTPStatus.BAD_REQUEST
                return self._send(status, page)
            try:
                raw = self.rfile.read(length).decode("utf-8", "replace")
            except TimeoutError:  # fewer bytes than announced: the client stopped sending
                self.close_connection = True
                return self._send(
                    HTTPStatus.REQUEST_TIMEOUT,
                    _page(
                        "Timed out",
                        '<p class="message error">Nothing changed: the form '
                        "arrived incomplete; send it again.</p>",
                    ),
                )
            form = {k: v[0] for k, v in parse_qs(raw, keep_blank_values=True).items()}
            ok, text = site.submit(key, form)
            if ok:
                site.flash[key] = ("ok", text)
                self.send_response(HTTPStatus.SEE_OTHER)
                self.send_header("Location", f"/review/{quote(key)}")
                self.send_header("Content-Length", "0")
                return self.end_headers()
            page = site.review_page(key, ("error", text))
            if page is None:
                page = _page("Not found", f'<p class="message error">{_e(text)}</p>')
                return self._send(HTTPStatus.NOT_FOUND, page)
            return self._send(HTTPStatus.BAD_REQUEST, page)

    return Handler


def review_server(
    site: ReviewSite, port: int = 8765, timeout: float = REQUEST_TIMEOUT
) -> HTTPServer:
    """An ``HTTPServer`` for ``site`` bound to 127.0.0.1:``port`` (0: any free port; read
    ``server.server_address``), dropping a connection silent for ``timeout`` seconds. Call
    ``serve_forever()`` on it.

    Raises:
        OSError: the port is taken.
    """
    return HTTPServer((HOST, port), handler_for(site, timeout))


def _other_candidates(n: int) -> str:
    """ "No other candidate" / "Only 1 other candidate" / "Only 3 other candidates"."""
    phrase = counted(n, "other candidate")
    return "No other candidate" if n == 0 else f"Only {phrase}"
