"""A real HTTP server on 127.0.0.1 speaking OpenAI's chat-completions wire format,
answering each request by the next scripted behaviour (fault injection)."""

from __future__ import annotations

import http.server
import json
import threading
import time


class FakeOpenAI:
    """`script` is consumed one behaviour per request; when empty, requests succeed.

    Behaviours: "ok", "429", "429-retry-after", "500", "503", "slow", "drop",
    "malformed", "400".
    """

    def __init__(self, script: list[str] | None = None, slow_seconds: float = 3.0) -> None:
        self.script = list(script or [])
        self.slow_seconds = slow_seconds
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake.lock:
                    fake.requests.append(body)
                    behaviour = fake.script.pop(0) if fake.script else "ok"
                fake.respond(self, behaviour, body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def respond(self, handler, behaviour: str, body: dict) -> None:
        if behaviour == "drop":
            handler.close_connection = True
            handler.connection.shutdown(2)
            return
        if behaviour == "slow":
            time.sleep(self.slow_seconds)
        status, headers, payload = 200, {}, self.completion(body)
        if behaviour in ("429", "429-retry-after", "500", "503", "400"):
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

    @staticmethod
    def completion(body: dict) -> bytes:
        text = next((p["text"] for p in body["messages"][-1]["content"]
                     if p["type"] == "text"), "")
        return json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": body["model"] + "-served",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": f"echo: {text}"}}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }).encode()
