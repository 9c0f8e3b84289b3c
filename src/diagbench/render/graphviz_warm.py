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
kept as that format's messages, and its error count as `dot`'s exit status. It starts
warm (a first diagram drawn: plugins loaded, the common fonts measured) and draws each
diagram in a child forked from that start, so that each meets the memory a fresh `dot`
meets (see `main`). Each drawing thread has one (`draw`). It draws only what it is
sure to draw as `dot` does — a source of one graph, laid out and rendered without a
failure; anything else (a second graph in the source, a layout or render that fails, a
worker that cannot start, a child or worker that ends on a source) is left to `dot`
itself (`draw` answers None).
"""

from __future__ import annotations

import ctypes
import io
import os
import threading
from dataclasses import dataclass
from typing import Any

from diagbench.render.process import (
    READY,
    LibraryWorker,
    answer_channel,
    frame,
    read_frame_from,
    thread_worker,
)

#: The address space a worker may use.
MEMORY_BYTES = 2 * 1024**3
#: The libraries a worker loads (cgraph, then gvc).
LIBRARIES = ("libcgraph.so.6", "libgvc.so.6")
_DRAWN, _LEFT = b"drawn", b"left"
_ENDED = 3  # a child's exit status: the input ended


@dataclass(frozen=True)
class DotOutput:
    """What `dot -T<fmt>` writes (`data`), says on stderr (`stderr`) and exits with."""

    data: bytes
    stderr: str
    returncode: int


class GraphvizWorker(LibraryWorker):
    """One warm Graphviz process (see the module's docstring) of Graphviz `version`
    (`dot`'s: a library of another version does not start)."""

    def __init__(self, version: str) -> None:
        super().__init__("diagbench.render.graphviz_warm", "graphviz", MEMORY_BYTES,
                         {"SERVER_NAME": "diagbench",
                          "DIAGBENCH_GRAPHVIZ_LIBRARIES": " ".join(LIBRARIES),
                          "DIAGBENCH_GRAPHVIZ_VERSION": version})

    def draw(self, source: bytes, formats: tuple[str, ...],
             timeout: float) -> dict[str, DotOutput] | None:
        """`dot -T<fmt>`'s output of `source` for each of `formats` (one layout), or None
        when it is left to `dot`; subprocess.TimeoutExpired past `timeout` seconds."""
        answer = self.ask([" ".join(formats).encode(), source], 2, timeout)
        if answer is None or answer[0] != _DRAWN:
            return None
        parts = io.BytesIO(answer[1])
        try:
            drawn = [read_frame_from(parts) for _ in range(3 * len(formats))]
        except EOFError:
            return None
        return {fmt: DotOutput(drawn[3 * n], drawn[3 * n + 1].decode("utf-8", "replace"),
                               int(drawn[3 * n + 2]))
                for n, fmt in enumerate(formats)}


_THREAD = threading.local()


def draw(source: bytes, formats: tuple[str, ...], timeout: float,
         version: str) -> dict[str, DotOutput] | None:
    """`dot`'s output of `source` in each of `formats` by this thread's worker of Graphviz
    `version` (started with its first diagram, ended with the thread), or None when it
    is left to `dot`; subprocess.TimeoutExpired past `timeout` seconds."""
    worker = thread_worker(_THREAD, "worker", lambda: GraphvizWorker(version))
    return worker.draw(source, formats, timeout)


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
            (gvc.gvcVersion, text, [pointer]),
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
        version = gvc.gvcVersion(self.context).decode()
        if version != os.environ["DIAGBENCH_GRAPHVIZ_VERSION"]:
            raise RuntimeError(f"libgvc is Graphviz {version}, dot another")
        self._names = (text * 2)(b"dot", None)
        if gvc.gvParseArgs(self.context, 1, self._names):
            raise RuntimeError("Graphviz refused dot's arguments")
        gvc.gvjobs_delete(self.context)
        self.draw(_WARM_UP, ["png", "svg"])  # plugins loaded, fonts found and measured
        libc.malloc_trim(0)
        _take_free_memory(libc)
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
            return [_LEFT]
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
                    return [_LEFT]
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
                return [_LEFT]
            answer = [_DRAWN]
            for fmt in formats:
                data, size = ctypes.c_void_p(), ctypes.c_uint()
                if gvc.gvRenderData(self.context, graph, fmt.encode(), ctypes.byref(data),
                                    ctypes.byref(size)):
                    gvc.gvFreeRenderData(data)
                    return [_LEFT]
                image = ctypes.string_at(data, size.value) if data else b""
                gvc.gvFreeRenderData(data)
                said = self.said()
                answer += [image, (laid_out + said).encode(),
                           b"%d" % max(errors, cgraph.agreseterrors())]
            return answer
        finally:
            gvc.gvFreeLayout(self.context, graph)


_TEXT = "".join(chr(c) for c in range(33, 127) if chr(c) not in '"\\<>{}|')
#: A diagram a worker draws before its first: its plugins loaded, the common fonts found
#: and their glyphs measured once for every diagram after it. Named, and without edges:
#: it takes none of the numbers Graphviz gives unnamed graphs and edges (an unnamed
#: graph's is its name in the SVG, "%3" in a fresh `dot`).
_FONTS = (("Times", 14), ("Helvetica", 11), ("Helvetica", 9), ("Courier", 14))
_WARM_UP = ("digraph warm_up { " + " ".join(
    f'n{k} [fontname="{font}" fontsize={size} label="{_TEXT}"];'
    for k, (font, size) in enumerate(_FONTS)) + " }").encode()
_STDIN = b"<stdin>"


def _take_free_memory(libc: ctypes.CDLL, most: int = 1 << 18) -> None:
    """Take (and keep) the small blocks of memory the warm-up freed, so that a diagram's
    names are allocated as in a fresh `dot`: from memory not used before, in the order
    they are read (Graphviz orders subgraphs, so clusters, by the names' addresses). For
    each small size, blocks are allocated until 16 in a row lie end to end."""
    malloc = libc.malloc
    malloc.restype, malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
    for size in range(8, 1033, 16):
        block = max(32, (size + 8 + 15) // 16 * 16)  # glibc's chunk for `size` bytes
        previous, in_a_row = 0, 0
        while in_a_row < 16 and most > 0:
            address = malloc(size)
            in_a_row = in_a_row + 1 if address == previous + block else 0
            previous, most = address, most - 1


def _answer(graphviz: _Graphviz, answers: int) -> int:
    """A diagram's child: read one request from stdin, write its answer (`drawn` and the
    outputs, or `left`) to the file `answers`; its exit status (`_ENDED`: the input
    ended)."""
    try:
        with open(0, "rb", buffering=0, closefd=False) as requests:  # no read past it
            request = read_frame_from(requests), read_frame_from(requests)
    except EOFError:
        return _ENDED
    os.ftruncate(answers, 1)  # a request taken: a failure from here on is answered
    drawn = graphviz.draw(request[1], request[0].decode().split())
    answer = frame(drawn[0]) + frame(b"".join(frame(part) for part in drawn[1:]))
    written = 0
    while written < len(answer):
        written += os.pwrite(answers, answer[written:], written)
    os.ftruncate(answers, len(answer))
    return 0


def main() -> None:
    """Say it is ready, then answer each request (the formats, space-separated; a DOT
    source) with `drawn` and a frame of frames — for each format the image, the messages
    and the error count — or `left` and an empty frame, until the input ends.

    Each request is read and drawn by a child forked for it, so that every diagram meets
    the memory of a worker that has drawn nothing since its warm-up: where Graphviz
    allocates a name decides the order of subgraphs (so clusters), and the number of an
    unnamed graph is its name, so a process that had drawn before drew some diagrams
    otherwise than `dot`. This process only forks, waits and passes the child's answer
    on (nothing of its own memory changes between diagrams); a child that fails on a
    request (a crash, the memory limit) leaves its diagram to `dot`, one that ends before
    taking one is followed by another."""
    answers_out = answer_channel()
    graphviz = _Graphviz()
    answers = os.memfd_create("graphviz-answer")
    left = frame(_LEFT) + frame(b"")
    os.write(answers_out, frame(READY))
    while True:
        os.ftruncate(answers, 0)
        child = os.fork()
        if child == 0:
            status = 1
            try:
                status = _answer(graphviz, answers)
            finally:
                os._exit(status)
        status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        size = os.fstat(answers).st_size
        if status == _ENDED:
            return
        if status and size:  # failed on a request
            os.write(answers_out, left)
        elif not status:
            offset = 0
            while offset < size:
                offset += os.sendfile(answers_out, answers, offset, size - offset)


if __name__ == "__main__":
    main()
