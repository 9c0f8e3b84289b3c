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
        return json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": body["model"] + "-served",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": self.reply(text)}
                         | ({"reasoning_content": self.thinking(text)} if self.thinking
                            else {})}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }).encode()


if __name__ == "__main__":  # serve until killed (bench/): python -m tests.fake_providers [FILE]
    import sys
    from pathlib import Path

    canned = Path(sys.argv[1]).read_text(encoding="utf-8") if len(sys.argv) > 1 else None
    with FakeServer(reply=(lambda prompt: canned) if canned else
                    (lambda prompt: f"echo: {prompt}")) as fake:
        print(fake.base_url, flush=True)
        fake.thread.join()
