"""A real HTTP server on 127.0.0.1 speaking the providers' wire formats — OpenAI chat
completions, Anthropic messages, Gemini generateContent — answering each request
by the next scripted behaviour (fault injection)."""

from __future__ import annotations

import contextlib
import http.server
import json
import socket
import threading
import time
from collections.abc import Callable


class _Server(http.server.ThreadingHTTPServer):
    """A threading HTTP server whose listen queue holds many connections opened at once (the
    default 5 drops the rest's SYN, which the client resends only after 1 s, then 3 s)."""

    request_queue_size = 256


#: The thinking levels Gemini 3 takes (generationConfig.thinkingConfig.thinkingLevel).
GEMINI_THINKING_LEVELS = ("MINIMAL", "LOW", "MEDIUM", "HIGH")


def gemini_thinking(body: dict) -> dict | None:
    """The thinking setting of a Gemini request, its fields by their JSON names (Gemini
    reads a field by its JSON or its proto name: the SDK sends thinking_level)."""
    config = body.get("generationConfig", {})
    thinking = config.get("thinkingConfig", config.get("thinking_config"))
    if thinking is None:
        return None
    return {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): v
            for k, v in thinking.items()}


def _gemini_thinking_ok(body: dict) -> bool:
    """Whether Gemini would take the request's thinking setting: a budget or a known
    level, never both."""
    thinking = gemini_thinking(body) or {}
    level = thinking.get("thinkingLevel")
    return not ("thinkingBudget" in thinking and level is not None) and \
        (level is None or level in GEMINI_THINKING_LEVELS)


class FakeServer:
    """`script` is consumed one behaviour per request; when empty, requests succeed.

    Behaviours: "ok", "429", "429-retry-after", "500", "503", "529", "slow", "drop",
    "malformed", "400". A successful answer is `reply(prompt)`, by default "echo: PROMPT".
    Gemini's answers report `thoughts` thinking tokens apart from the answer's 7 (Gemini's
    usage); a Gemini thinking setting it would refuse — a budget and a level together, or
    a level it does not know — is answered 400, as Gemini answers it. With `thinking`,
    each answer also carries the model's thinking `thinking(prompt)` in the provider's own
    field: OpenAI-compatible `reasoning_content`, an Anthropic `thinking` block, a Gemini
    part marked `thought`.
    """

    def __init__(self, script: list[str] | None = None, slow_seconds: float = 3.0,
                 reply: Callable[[str], str] = lambda prompt: f"echo: {prompt}",
                 thoughts: int = 0, thinking: Callable[[str], str] | None = None) -> None:
        self.script = list(script or [])
        self.reply = reply
        self.thoughts = thoughts
        self.thinking = thinking
        self.on_body: Callable[[dict], None] = lambda body: None  # seen before `reply`
        self.slow_seconds = slow_seconds
        self.requests: list[dict] = []
        self.wire: list[tuple[dict[str, str], bytes]] = []  # each request's headers and body
        self.lock = threading.Lock()
        self.connections: list[socket.socket] = []  # for `kill`
        self.in_flight = self.peak_in_flight = 0
        self.dead = False  # set by `kill`
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self):
                super().setup()  # answer at once: no Nagle wait between headers and body
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with fake.lock:
                    fake.connections.append(self.connection)

            def do_POST(self):
                data = self.rfile.read(int(self.headers["Content-Length"]))
                body = json.loads(data)
                if fake.dead:  # between `kill` and the end of its accept loop
                    fake.respond(self, "drop", b"")
                    return
                with fake.lock:
                    fake.requests.append(body)
                    fake.wire.append((dict(self.headers.items()), data))
                    fake.in_flight += 1
                    fake.peak_in_flight = max(fake.peak_in_flight, fake.in_flight)
                    behaviour = fake.script.pop(0) if fake.script else "ok"
                    if ":generateContent" in self.path and not _gemini_thinking_ok(body):
                        behaviour = "400"
                    fake.on_body(body)
                    payload = fake.answer(body, self.path)
                try:
                    fake.respond(self, behaviour, payload)
                finally:
                    with fake.lock:
                        fake.in_flight -= 1

            def log_message(self, *args):
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (with /v1)."""
        return self.url + "/v1"

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def kill(self) -> None:
        """Go down as a crashed server does: no new connection is accepted (they are
        refused) and every open one is cut, answers in flight included."""
        self.dead = True
        with self.lock:
            for connection in self.connections:
                with contextlib.suppress(OSError):  # already closed by its handler
                    connection.shutdown(socket.SHUT_RDWR)
        self.server.shutdown()
        self.server.server_close()

    def respond(self, handler, behaviour: str, payload: bytes) -> None:
        if behaviour == "drop":
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        if behaviour == "slow":
            time.sleep(self.slow_seconds)
        status, headers = 200, {}
        if behaviour in ("429", "429-retry-after", "500", "503", "529", "400"):
            status = int(behaviour[:3])
            payload = json.dumps({"error": {"message": f"injected {behaviour}",
                                            "type": "injected", "code": None}}).encode()
            if behaviour == "429-retry-after":
                headers["Retry-After"] = "0"
        elif behaviour == "malformed":
            payload = b'{"id": "x", "choices": [ this is not json'
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(payload)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(payload)

    def answer(self, body: dict, path: str) -> bytes:
        """The success reply to the prompt, in the wire format of the endpoint called."""
        if path.endswith("/messages"):  # Anthropic
            text = next(p["text"] for p in body["messages"][-1]["content"] if p["type"] == "text")
            return json.dumps({
                "id": "msg_1", "type": "message", "role": "assistant",
                "model": body["model"] + "-served", "stop_reason": "end_turn",
                "content": ([{"type": "thinking", "thinking": self.thinking(text),
                              "signature": "sig"}] if self.thinking else [])
                + [{"type": "text", "text": self.reply(text)}],
                "usage": {"input_tokens": 11, "output_tokens": 7}}).encode()
        if ":generateContent" in path:  # Gemini
            parts = body["contents"][-1]["parts"]
            text = next(p["text"] for p in parts if "text" in p)
            return json.dumps({
                "candidates": [{"content": {"role": "model", "parts": (
                    [{"text": self.thinking(text), "thought": True}] if self.thinking else [])
                    + [{"text": self.reply(text)}]},
                                "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 11, "candidatesTokenCount": 7,
                                  "thoughtsTokenCount": self.thoughts,
                                  "totalTokenCount": 18 + self.thoughts},
                "modelVersion": path.split("/models/")[1].split(":")[0] + "-served"}).encode()
        content = body["messages"][-1]["content"]  # a string, or a list of parts
        text = content if isinstance(content, str) else next(
            (p["text"] for p in content if p["type"] == "text"), "")
        # an answer longer (in words) than max_tokens is cut there, as a model's is
        words, limit = self.reply(text).split(" "), body.get("max_tokens") or 1 << 30
        answer, finish = (" ".join(words[:limit]), "length") if len(words) > limit \
            else (self.reply(text), "stop")
        return json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": body["model"] + "-served",
            "choices": [{"index": 0, "finish_reason": finish,
                         "message": {"role": "assistant", "content": answer}
                         | ({"reasoning_content": self.thinking(text)} if self.thinking
                            else {})}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }).encode()




class FakeBatches:
    """A real HTTP server on 127.0.0.1 speaking the providers' batch APIs: OpenAI's
    (``POST /v1/files`` multipart with purpose "batch", ``POST /v1/batches``, ``GET
    /v1/batches/ID``, ``GET /v1/files/ID/content``) and Anthropic's Message Batches
    (``POST /v1/messages/batches``, ``GET /v1/messages/batches/ID`` and its
    ``/results``) and Gemini's batch mode (``POST /v1beta/models/M:batchGenerateContent``
    with inlined requests, ``GET /v1beta/batches/ID`` with inlined responses). Each line
    of a batch is answered as `FakeServer` answers the same request online (so batch and
    online answers agree).

    Faults: `hold` keeps every batch in progress until `release()` (`created` is set when
    a batch is made, `polled` when a client looks at one: a test acts while one waits);
    `expire_after` N: a batch answers its first N lines and then expires, the others
    marked expired as each provider writes them; `failing` prompts: their lines fail
    (OpenAI: HTTP 400 in the error file; Anthropic: an "errored" result; Gemini: an
    inlined error; a Gemini job that expires keeps the first N answers); `dropping`
    prompts: their lines have no result at all (partial results)."""

    def __init__(self, hold: bool = False, expire_after: int | None = None,
                 failing: tuple[str, ...] = (), dropping: tuple[str, ...] = (),
                 reply: Callable[[str], str] = lambda prompt: f"echo: {prompt}") -> None:
        self.reply, self.thinking, self.thoughts = reply, None, 0
        self.hold, self.expire_after = hold, expire_after
        self.failing, self.dropping = failing, dropping
        self.files: dict[str, bytes] = {}
        self.batches: dict[str, dict] = {}
        self.submitted: list[list[tuple[str, dict]]] = []  # (custom id, body) per batch
        self.created = threading.Event()
        self.polled = threading.Event()  # a client looked at a batch
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                data = self.rfile.read(int(self.headers["Content-Length"]))
                with fake.lock:
                    if self.path == "/v1/files":
                        payload = fake.upload(self.headers["Content-Type"], data)
                    elif self.path == "/v1/batches":
                        payload = fake.create_openai(json.loads(data))
                    elif self.path == "/v1/messages/batches":
                        payload = fake.create_anthropic(json.loads(data))
                    elif self.path.endswith(":batchGenerateContent"):
                        payload = fake.create_gemini(self.path, json.loads(data))
                    else:
                        return self._send(404, {"error": {"message": "no such route"}})
                self._send(200, payload)

            def do_GET(self):
                parts = self.path.strip("/").split("/")
                with fake.lock:
                    if parts[-1] == "content" and parts[1] == "files":
                        content = fake.files.get(parts[2])
                        if content is not None:
                            return self._send(200, content, "application/octet-stream")
                    elif parts[-1] == "results" and parts[1] == "messages":
                        content = fake.files.get(f"results-{parts[3]}")
                        if content is not None:
                            return self._send(200, content, "application/binary")
                    elif parts[-2] == "batches" and (
                            parts[-1] in fake.batches or f"batches/{parts[-1]}" in fake.batches):
                        batch = fake.batches.get(parts[-1]) or fake.batches[
                            f"batches/{parts[-1]}"]
                        fake.polled.set()
                        return self._send(200, fake.state(batch))
                self._send(404, {"error": {"message": "not found"}})

            def _send(self, status, payload, kind="application/json"):
                body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    base_url = FakeServer.base_url
    url = FakeServer.url
    __enter__ = FakeServer.__enter__
    __exit__ = FakeServer.__exit__

    def release(self) -> None:
        with self.lock:
            self.hold = False

    def upload(self, content_type: str, data: bytes) -> dict:
        """Store the multipart upload's file; its FileObject."""
        from email.parser import BytesParser

        message = BytesParser().parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + data)
        fields = {part.get_param("name", header="content-disposition"): part.get_payload(
            decode=True) for part in message.get_payload()}
        assert fields["purpose"] == b"batch", fields["purpose"]
        ident = f"file-{len(self.files) + 1}"
        self.files[ident] = fields["file"]
        return {"id": ident, "object": "file", "bytes": len(fields["file"]), "created_at": 0,
                "filename": "batch.jsonl", "purpose": "batch", "status": "processed"}

    def _create(self, kind: str, lines: list[tuple[str, dict]], **extra: str) -> dict:
        ident = {"openai": "batch_", "anthropic": "msgbatch_", "gemini": "batches/"}[kind] \
            + str(len(self.batches) + 1)
        self.batches[ident] = {"id": ident, "kind": kind, "lines": lines, "done": False,
                               **extra}
        self.submitted.append(lines)
        self.created.set()
        return self.state(self.batches[ident])

    def create_openai(self, body: dict) -> dict:
        rows = [json.loads(line) for line in self.files[body["input_file_id"]].splitlines()]
        assert all(r["url"] == body["endpoint"] == "/v1/chat/completions" for r in rows)
        return self._create("openai", [(r["custom_id"], r["body"]) for r in rows],
                            input_file_id=body["input_file_id"])

    def create_anthropic(self, body: dict) -> dict:
        return self._create("anthropic", [(r["custom_id"], r["params"])
                                          for r in body["requests"]])

    def create_gemini(self, path: str, body: dict) -> dict:
        model = path.split("/models/")[1].split(":")[0]
        rows = body["batch"]["inputConfig"]["requests"]["requests"]
        return self._create("gemini", [(r["metadata"]["key"], r["request"]) for r in rows],
                            model=model)

    def outcomes(self, batch: dict) -> list[tuple[str, str, dict | None]]:
        """(custom id, "ok" | "failed" | "expired", the online answer) per line with a
        result."""
        out = []
        for k, (custom_id, body) in enumerate(batch["lines"]):
            content = body["contents"][-1]["parts"] if batch["kind"] == "gemini" \
                else body["messages"][-1]["content"]
            prompt = next(p["text"] for p in content if "text" in p)
            if prompt in self.dropping:
                continue
            if self.expire_after is not None and k >= self.expire_after:
                out.append((custom_id, "expired", None))
            elif prompt in self.failing:
                out.append((custom_id, "failed", None))
            else:
                path = {"anthropic": "/v1/messages", "openai": "/chat/completions"}.get(
                    batch["kind"], f"/v1beta/models/{batch.get('model')}:generateContent")
                out.append((custom_id, "ok", json.loads(FakeServer.answer(self, body, path))))
        return out

    def _file(self, ident: str, rows: list[dict]) -> str:
        self.files[ident] = "".join(json.dumps(r) + "\n" for r in rows).encode()
        return ident

    def finish(self, batch: dict) -> None:
        """Answer a batch's lines into its result files."""
        batch["done"] = True
        outcomes = self.outcomes(batch)
        if batch["kind"] == "gemini":
            batch["inlined"] = [{"metadata": {"key": c}} | (
                {"response": m} if kind == "ok" else
                {"error": {"code": 400, "message": "injected 400"}})
                for c, kind, m in outcomes if kind != "expired"]
            return
        if batch["kind"] == "anthropic":
            results = {"ok": lambda m: {"type": "succeeded", "message": m},
                       "failed": lambda m: {"type": "errored", "error": {
                           "type": "error", "error": {"type": "invalid_request_error",
                                                      "message": "injected 400"}}},
                       "expired": lambda m: {"type": "expired"}}
            self._file(f"results-{batch['id']}", [
                {"custom_id": c, "result": results[kind](m)} for c, kind, m in outcomes])
            return
        output = [{"id": f"batch_req_{k}", "custom_id": c, "error": None,
                   "response": {"status_code": 200, "request_id": "r", "body": m}}
                  for k, (c, kind, m) in enumerate(outcomes) if kind == "ok"]
        errors = [{"id": f"batch_req_{k}", "custom_id": c,
                   "response": {"status_code": 400, "request_id": "r", "body": {"error": {
                       "message": "injected 400", "type": "invalid_request_error"}}},
                   "error": None} if kind == "failed" else
                  {"id": f"batch_req_{k}", "custom_id": c, "response": None, "error": {
                      "code": "batch_expired", "message": "This request could not be "
                      "executed before the completion window expired."}}
                  for k, (c, kind, _) in enumerate(outcomes) if kind != "ok"]
        for name, rows in (("output_file_id", output), ("error_file_id", errors)):
            if rows:
                batch[name] = self._file(f"file-{len(self.files) + 1}", rows)

    def state(self, batch: dict) -> dict:
        """The provider's batch object (finished at the first look once not held)."""
        if not batch["done"] and not self.hold:
            self.finish(batch)
        n, ended = len(batch["lines"]), batch["done"]
        if batch["kind"] == "gemini":
            state = ("BATCH_STATE_RUNNING" if not ended else "BATCH_STATE_EXPIRED"
                     if self.expire_after is not None else "BATCH_STATE_SUCCEEDED")
            output = {"output": {"inlinedResponses": {"inlinedResponses": batch["inlined"]}}
                      } if ended else {}
            return {"name": batch["id"], "done": ended, "metadata": {
                "@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                         "GenerateContentBatch", "name": batch["id"],
                "model": f"models/{batch['model']}", "state": state} | output}
        if batch["kind"] == "anthropic":
            return {"id": batch["id"], "type": "message_batch",
                    "processing_status": "ended" if ended else "in_progress",
                    "request_counts": {"processing": 0 if ended else n, "succeeded": 0,
                                       "errored": 0, "canceled": 0, "expired": 0},
                    "created_at": "2026-01-01T00:00:00Z",
                    "expires_at": "2026-01-02T00:00:00Z", "ended_at": None,
                    "cancel_initiated_at": None, "archived_at": None,
                    "results_url": f"{self.url}/v1/messages/batches/{batch['id']}/results"
                    if ended else None}
        status = ("in_progress" if not ended else
                  "expired" if self.expire_after is not None else "completed")
        return {"id": batch["id"], "object": "batch", "endpoint": "/v1/chat/completions",
                "errors": None, "input_file_id": batch["input_file_id"],
                "completion_window": "24h", "status": status,
                "output_file_id": batch.get("output_file_id"),
                "error_file_id": batch.get("error_file_id"), "created_at": 0,
                "request_counts": {"total": n, "completed": 0, "failed": 0}}

if __name__ == "__main__":  # serve until killed (bench/): python -m tests.fake_providers [FILE]
    import sys
    from pathlib import Path

    canned = Path(sys.argv[1]).read_text(encoding="utf-8") if len(sys.argv) > 1 else None
    with FakeServer(reply=(lambda prompt: canned) if canned else
                    (lambda prompt: f"echo: {prompt}")) as fake:
        print(fake.base_url, flush=True)
        fake.thread.join()
