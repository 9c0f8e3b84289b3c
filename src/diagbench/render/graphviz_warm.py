"""Graphviz kept warm: what `dot -T<fmt>` writes and says, the same bytes and messages,
from one layout for PNG and SVG, without starting `dot` for each diagram.

A worker is a `render.process` library worker (`python -m diagbench.render.graphviz_warm`,
an empty jail that is its working folder, a minimal environment, an address-space limit,
a time-out on every answer) that calls libgvc and libcgraph (EPL) through ctypes as
`dot` does: a context with the plugins of Graphviz's `config6a` and `dot`'s own
arguments read (`gvParseArgs`: the layout `dot`, SERVER_NAME and GV_FILE_PATH — here its
jail — so that `image` and `shapefile` attributes read no file), the source read as
`dot` reads its standard input (`agread`, named "<stdin>", lines counted from 1), laid
out by `gvLayoutJobs` with `dot` as the layout unless the graph names another, then
rendered in each format asked (`gvRenderData`), everything Graphviz writes on stderr
kept as that format's messages, and its error count as `dot`'s exit status. Each
drawing thread has one (`draw`). It draws only what it is sure to draw as `dot` does — a
source of one graph, laid out and rendered without a failure; anything else (a second
graph in the source, a layout or render that fails, a worker that cannot start or ends
on a source) is left to `dot` itself (`draw` answers None).
"""

from __future__ import annotations

import ctypes
import io
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diagbench.render.process import (
    LibraryWorker,
    frame,
    read_frame_from,
    serve,
    thread_worker,
)

#: The address space a worker may use.
MEMORY_BYTES = 2 * 1024**3
#: The libraries a worker loads (cgraph, then gvc).
LIBRARIES = ("libcgraph.so.6", "libgvc.so.6")
_DRAWN, _LEFT = b"drawn", b"left"


@dataclass(frozen=True)
class DotOutput:
    """What `dot -T<fmt>` writes (`data`), says on stderr (`stderr`) and exits with."""

    data: bytes
    stderr: str
    returncode: int


class GraphvizWorker(LibraryWorker):
    """One warm Graphviz process (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__("diagbench.render.graphviz_warm", "graphviz", MEMORY_BYTES,
                         {"SERVER_NAME": "diagbench",
                          "DIAGBENCH_GRAPHVIZ_LIBRARIES": " ".join(LIBRARIES)})

    def draw(self, source: bytes, formats: tuple[str, ...],
             timeout: float) -> dict[str, DotOutput] | None:
        """`dot -T<fmt>`'s output of `source` for each of `formats` (one layout), or None
        when it is left to `dot`; subprocess.TimeoutExpired past `timeout` seconds."""
        answer = self.ask([" ".join(formats).encode(), source], 1 + 3 * len(formats),
                          timeout)
        if answer is None or answer[0] != _DRAWN:
            return None
        return {fmt: DotOutput(answer[1 + 3 * n], answer[2 + 3 * n].decode("utf-8", "replace"),
                               int(answer[3 + 3 * n]))
                for n, fmt in enumerate(formats)}


_THREAD = threading.local()


def draw(source: bytes, formats: tuple[str, ...],
         timeout: float) -> dict[str, DotOutput] | None:
    """`dot`'s output of `source` in each of `formats` by this thread's worker (started
    with its first diagram, ended with the thread), or None when it is left to `dot`;
    subprocess.TimeoutExpired past `timeout` seconds."""
    return thread_worker(_THREAD, "worker", GraphvizWorker).draw(source, formats, timeout)


# --- the worker's side (its own process) ----------------------------------------------------


class _Graphviz:
    """libcgraph and libgvc with the signatures used here, a context set up as `dot`
    sets up its own, and what Graphviz writes on stderr (kept in a memory file)."""

    def __init__(self) -> None:
        cgraph, gvc = (ctypes.CDLL(name) for name in
                       os.environ["DIAGBENCH_GRAPHVIZ_LIBRARIES"].split())
        libc = ctypes.CDLL(None)
        pointer, text = ctypes.c_void_p, ctypes.c_char_p
        signatures: list[tuple[Any, Any, list[Any]]] = [
            (libc.fmemopen, pointer, [ctypes.c_char_p, ctypes.c_size_t, text]),
            (libc.fclose, ctypes.c_int, [pointer]),
            (cgraph.agsetfile, None, [text]),
            (cgraph.agread, pointer, [pointer, pointer]),
            (cgraph.agclose, ctypes.c_int, [pointer]),
            (cgraph.agreseterrors, ctypes.c_int, []),
            (gvc.gvContext, pointer, []),
            (gvc.gvParseArgs, ctypes.c_int, [pointer, ctypes.c_int, ctypes.POINTER(text)]),
            (gvc.gvjobs_delete, None, [pointer]),
            (gvc.gvlayout_select, ctypes.c_int, [pointer, text]),
            (gvc.gvLayoutJobs, ctypes.c_int, [pointer, pointer]),
            (gvc.gvRenderData, ctypes.c_int,
             [pointer, pointer, text, ctypes.POINTER(pointer), ctypes.POINTER(ctypes.c_uint)]),
            (gvc.gvFreeRenderData, None, [pointer]),
            (gvc.gvFreeLayout, ctypes.c_int, [pointer, pointer]),
        ]
        for function, result, arguments in signatures:
            function.restype, function.argtypes = result, arguments
        self.libc, self.cgraph, self.gvc = libc, cgraph, gvc
        self.messages = os.memfd_create("graphviz-stderr")
        os.dup2(self.messages, 2)
        # dot's own start: its arguments read (no -T: the default job is dropped)
        os.environ["GV_FILE_PATH"] = os.getcwd()  # the jail: empty
        self.context = gvc.gvContext()
        self._names = (text * 2)(b"dot", None)
        if gvc.gvParseArgs(self.context, 1, self._names):
            raise RuntimeError("Graphviz refused dot's arguments")
        gvc.gvjobs_delete(self.context)
        self.said()

    def said(self) -> str:
        """What Graphviz wrote on stderr since the last call."""
        os.lseek(2, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(2, 1 << 16):
            chunks.append(chunk)
        os.ftruncate(2, 0)
        os.lseek(2, 0, os.SEEK_SET)
        return b"".join(chunks).decode("utf-8", "replace")

    def draw(self, source: bytes, formats: list[str]) -> list[bytes]:
        """The answer to one request (see `main`)."""
        cgraph = self.cgraph
        self.said()
        stream = self.libc.fmemopen(source, len(source), b"r")
        if not stream:
            return _left(formats)
        try:
            cgraph.agsetfile(_STDIN)
            graph = cgraph.agread(stream, None)
            read = self.said()
            if not graph:  # nothing drawn: what dot says of it
                errors = cgraph.agreseterrors()
                return [_DRAWN] + [part for _ in formats
                                   for part in (b"", read.encode(), b"%d" % errors)]
            try:
                more = cgraph.agread(stream, None)
                if more:
                    cgraph.agclose(more)
                if more or self.said():  # a second graph, or more text after the first
                    return _left(formats)
                return self._drawn(graph, read, formats)
            finally:
                cgraph.agclose(graph)
        finally:
            self.libc.fclose(stream)
            cgraph.agreseterrors()

    def _drawn(self, graph: int, read: str, formats: list[str]) -> list[bytes]:
        """`graph` laid out once and rendered in each of `formats`."""
        cgraph, gvc = self.cgraph, self.gvc
        gvc.gvlayout_select(self.context, b"dot")  # a graph's own `layout` may change it
        failed = gvc.gvLayoutJobs(self.context, graph)
        laid_out = read + self.said()
        errors = cgraph.agreseterrors()
        try:
            if failed:
                return _left(formats)
            answer = [_DRAWN]
            for fmt in formats:
                data, size = ctypes.c_void_p(), ctypes.c_uint()
                if gvc.gvRenderData(self.context, graph, fmt.encode(), ctypes.byref(data),
                                    ctypes.byref(size)):
                    gvc.gvFreeRenderData(data)
                    return _left(formats)
                image = ctypes.string_at(data, size.value) if data else b""
                gvc.gvFreeRenderData(data)
                said = self.said()
                answer += [image, (laid_out + said).encode(),
                           b"%d" % max(errors, cgraph.agreseterrors())]
            return answer
        finally:
            gvc.gvFreeLayout(self.context, graph)


_STDIN = b"<stdin>"  # kept alive: Graphviz keeps the pointer


def _left(formats: list[str]) -> list[bytes]:
    return [_LEFT] + [b""] * (3 * len(formats))


def _in_a_child(draw: Callable[[], list[bytes]], size: int) -> list[bytes] | None:
    """The `size` frames `draw()` gives in a child forked for it (None when the child
    fails): every diagram meets the memory of a worker that has drawn nothing — where
    Graphviz allocates a name decides the order of subgraphs and clusters, so a worker
    that had drawn before drew some clusters in another order than `dot` — and a crash
    or leak on one ends with its child."""
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        status = 1
        try:
            os.close(readable)
            with os.fdopen(writable, "wb") as out:
                out.write(b"".join(frame(part) for part in draw()))
            status = 0
        finally:
            os._exit(status)
    os.close(writable)
    with os.fdopen(readable, "rb") as answer:
        data = answer.read()
    _, status = os.waitpid(pid, 0)
    if status:
        return None
    parts = io.BytesIO(data)
    try:
        return [read_frame_from(parts) for _ in range(size)]
    except EOFError:
        return None


def main() -> None:
    """Answer each request (the formats, space-separated; a DOT source) with `drawn` and,
    for each format, the image, the messages and the error count, or `left` and empty
    frames, until the input ends; each drawn by a child of its own."""
    graphviz = _Graphviz()

    def answer(request: list[bytes]) -> list[bytes]:
        formats = request[0].decode().split()
        drawn = _in_a_child(lambda: graphviz.draw(request[1], formats), 1 + 3 * len(formats))
        return drawn if drawn is not None else _left(formats)

    serve(answer, 2)


if __name__ == "__main__":
    main()
