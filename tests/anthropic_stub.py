"""A local stand-in for the Anthropic Messages API (``POST /v1/messages``, streaming).

Serves server-sent events like the real API, on 127.0.0.1 only, from a plan of steps:

- ``("ok", payload)``: a good reply whose text is ``json.dumps(payload)``; ``payload`` None
  means ``default_reply`` when set, else ``good_reply(question)``, a valid rewrite of the
  question in the request;
- ``("text", str)``: a reply with that text (malformed JSON, an echo of instructions...);
- ``("midstream", None)``: the stream starts, then an ``overloaded_error`` event arrives;
- ``("timeout", seconds)``: the server sleeps that long before answering;
- ``(status, retry_after)``: an HTTP error (``"429"``, ``"529"``, ``"401"``...) with an
  optional ``retry-after`` header.

Steps come from ``plans[question]`` (a per-question list, for pipeline runs where the order
of questions is not the test's business), then from ``script`` (in arrival order), else
``("ok", None)``. Every request is recorded with its body and headers.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "claude-haiku-4-5"
GOOD = {
    "rewrite": "Describe the vendor's approach to data migration from the legacy mainframe "
    "eligibility system",
    "parts": [],
    "paraphrases": [
        "Legacy data conversion approach for the mainframe eligibility system",
        "Cutover plan for moving mainframe case records to the new platform",
        "Methodology for transferring legacy eligibility data",
    ],
}
Step = tuple[str, object]


def question_of(body: dict) -> str:
    """The question of a request body (the ``Question:`` line of the fenced prompt)."""
    content = body["messages"][0]["content"]
    for line in content.splitlines():
        if line.startswith("Question: "):
            return line[len("Question: ") :]
    return ""


def good_reply(question: str) -> dict:
    """A reply that passes the rewrite validation: the question kept verbatim, in context."""
    core = question.rstrip("?.").strip()
    return {
        "rewrite": f"{core} for the county case management system modernization",
        "parts": [],
        "paraphrases": [
            f"{core} (vendor methodology)",
            f"Vendor methodology: {core}",
            f"Offeror approach and evidence: {core}",
        ],
    }


class StubServer(ThreadingHTTPServer):
    """The server: ``script``, ``plans`` and ``requests`` are read and changed by tests."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script: list[Step] = []
        self.plans: dict[str, list[Step]] = {}
        self.requests: list[dict] = []
        self.default_reply: dict | None = None
        self._lock = threading.Lock()

    @property
    def url(self) -> str:
        """Base URL for the SDK (``base_url``)."""
        return f"http://127.0.0.1:{self.server_address[1]}"

    def next_step(self, question: str) -> Step:
        with self._lock:
            if self.plans.get(question):
                return self.plans[question].pop(0)
            if self.script:
                return self.script.pop(0)
            return ("ok", None)


@contextmanager
def running_stub() -> Iterator[StubServer]:
    """A started ``StubServer`` on a free port, shut down on exit."""
    server = StubServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class _Handler(BaseHTTPRequestHandler):
    server: StubServer

    def log_message(self, *args) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        length = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.requests.append(
            {"path": self.path, "body": body, "headers": dict(self.headers)}
        )
        question = question_of(body) if body.get("messages") else ""
        kind, payload = self.server.next_step(question)
        if kind == "ok":
            reply = payload if payload is not None else self.server.default_reply
            reply = reply if reply is not None else good_reply(question)
            self._stream([_text_events(json.dumps(reply))])
        elif kind == "text":
            self._stream([_text_events(str(payload))])
        elif kind == "midstream":
            overloaded = {
                "type": "error",
                "error": {"type": "overloaded_error", "message": "Overloaded"},
            }
            self._stream([[_start(), ("error", overloaded)]])
        elif kind == "timeout":
            time.sleep(float(payload))
            self._stream([_text_events(json.dumps(good_reply(question)))])
        else:  # an HTTP error: kind is the status code
            status = int(kind)
            error_type = {429: "rate_limit_error", 529: "overloaded_error"}.get(
                status, "authentication_error"
            )
            data = json.dumps({"type": "error", "error": {"type": error_type, "message": "no"}})
            self.send_response(status)
            self.send_header("content-type", "application/json")
            if payload is not None:
                self.send_header("retry-after", str(payload))
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data.encode())

    def _stream(self, groups: list[list[tuple[str, dict]]]) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.end_headers()
        try:
            for events in groups:
                for name, data in events:
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


def _start() -> tuple[str, dict]:
    return (
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": "msg_test",
                "type": "message",
                "role": "assistant",
                "model": MODEL,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 412, "output_tokens": 1},
            },
        },
    )


def _text_events(text: str) -> list[tuple[str, dict]]:
    return [
        _start(),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": text},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": 96},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
