"""A canary HTTP server for the security tests: a real server on 127.0.0.1 that
records every request it gets, so that a test can show that rendering or reading an
untrusted source asked nothing of the network."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def canary_server(body: bytes = b"CANARY") -> Iterator[tuple[int, list[str]]]:
    """(its port, the paths asked of it so far); every request is answered `body`."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()
