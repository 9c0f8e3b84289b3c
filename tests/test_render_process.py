"""The warm-process helper (`render.process`): a child that never answers times out and
is replaced, one that ends is reported, every child runs in an empty jail with a minimal
environment and its memory capped. Time-outs are tested with children that never answer
against children that answer at once, never with durations."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from diagbench.render.process import ProcessDied, ProcessTimeout, WarmProcess, frame

NEVER_READS = [sys.executable, "-c", "import time\nwhile True: time.sleep(3600)"]
READS_NEVER_ANSWERS = [sys.executable, "-c", "import sys\nfor _ in sys.stdin: pass"]
ECHO = ["cat"]
ENDS = [sys.executable, "-c", "import sys; sys.stdin.readline()"]
SAYS_WHERE = [sys.executable, "-c", (
    "import json, os, resource, sys\n"
    "for _ in sys.stdin:\n"
    "    print(json.dumps({'env': dict(os.environ), 'cwd': os.getcwd(), "
    "'files': os.listdir('.'), 'as': resource.getrlimit(resource.RLIMIT_AS)}), flush=True)")]


def test_an_answer_at_once_is_read_and_the_process_stays_warm():
    echo = WarmProcess(ECHO)
    try:
        for k in range(3):
            echo.send(f"line {k}\n".encode(), timeout=60)
            assert echo.read_line(timeout=60) == f"line {k}".encode()
        echo.send(frame(b"\x00\n binary") + frame(b""), timeout=60)
        assert (echo.read_frame(timeout=60), echo.read_frame(timeout=60)) == (b"\x00\n binary", b"")
        assert echo.started == 1
    finally:
        echo.close()


def test_a_child_that_never_answers_times_out_and_the_next_request_gets_a_fresh_one():
    silent = WarmProcess(READS_NEVER_ANSWERS)
    try:
        silent.send(b"hello\n", timeout=60)
        first = silent.process
        assert first is not None
        with pytest.raises(ProcessTimeout):
            silent.read_line(timeout=0.5)
        assert silent.process is None and first.poll() is not None  # killed
        silent.send(b"again\n", timeout=60)
        assert silent.started == 2 and silent.running
    finally:
        silent.close()


def test_a_child_that_never_reads_times_out_on_a_large_request():
    deaf = WarmProcess(NEVER_READS)
    try:
        with pytest.raises(ProcessTimeout):
            deaf.send(b"x" * 10_000_000, timeout=0.5)  # far more than a pipe holds
        assert deaf.process is None
    finally:
        deaf.close()


def test_a_child_that_ends_is_reported_and_replaced():
    ends = WarmProcess(ENDS)
    try:
        ends.send(b"bye\n", timeout=60)
        with pytest.raises(ProcessDied):
            ends.read_line(timeout=600)  # it ends at once: no waiting out the time-out
        ends.send(b"bye\n", timeout=60)
        assert ends.started == 2
    finally:
        ends.close()


def test_a_long_answer_line_is_refused():
    talks = WarmProcess([sys.executable, "-c", "print('y' * 200_000)"])
    try:
        talks.send(b"\n", timeout=60)
        with pytest.raises(ProcessDied, match="over 1,000"):
            talks.read_line(timeout=600, max_bytes=1000)
    finally:
        talks.close()


def test_a_child_runs_in_an_empty_jail_with_a_minimal_environment_and_capped_memory(
        monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-never-in-a-child")
    monkeypatch.setenv("DIAGBENCH_KEPT", "kept")
    child = WarmProcess(SAYS_WHERE, passed=("DIAGBENCH_KEPT",), extra_env={"MODE": "x"},
                        memory_bytes=2 * 1024**3)
    try:
        child.send(b"\n", timeout=60)
        seen = json.loads(child.read_line(timeout=120))
        jail = child.jail
    finally:
        child.close()
    assert "OPENAI_API_KEY" not in seen["env"]
    assert seen["env"]["DIAGBENCH_KEPT"] == "kept" and seen["env"]["MODE"] == "x"
    assert seen["cwd"] == seen["env"]["HOME"] == jail and seen["files"] == []
    assert seen["as"] == [2 * 1024**3, 2 * 1024**3]
    assert jail is not None and not Path(jail).exists()  # removed with the process


def test_a_process_serves_max_requests_then_a_fresh_one_takes_over():
    echo = WarmProcess(ECHO, max_requests=2)
    try:
        pids = []
        for k in range(5):
            echo.send(b"%d\n" % k, timeout=60)
            assert echo.read_line(timeout=60) == b"%d" % k
            assert echo.process is not None
            pids.append(echo.process.pid)
        assert echo.started == 3 and len(set(pids)) == 3
    finally:
        echo.close()



def test_a_child_reading_its_whole_input_answers_after_it_ends_and_its_stderr_is_kept():
    reads_all = WarmProcess([sys.executable, "-c", (
        "import sys\nprint(len(sys.stdin.read()), flush=True)\n"
        "sys.stderr.write('the last words\\n')\nsys.exit(3)")], stderr="keep")
    try:
        reads_all.send(b"12345", timeout=60)
        reads_all.end_input()
        assert reads_all.read_line(timeout=600) == b"5"
        with pytest.raises(ProcessDied):
            reads_all.read_line(timeout=600)  # it ends at once
        assert reads_all.stderr_tail() == "the last words\n"
    finally:
        reads_all.close()


def _ended(pid: int) -> bool:
    """Whether the process `pid` has ended (gone, or a zombie not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def test_closing_kills_what_the_child_started_too():
    """A child that starts a program of its own (as Node starts a browser): closing the
    child kills that program too."""
    parent = WarmProcess([sys.executable, "-c", (
        "import subprocess, sys\n"
        "p = subprocess.Popen([sys.executable, '-c', 'import time\\nwhile 1: time.sleep(99)'])\n"
        "print(p.pid, flush=True)\nsys.stdin.read()")])
    try:
        parent.send(b"", timeout=60)
        grandchild = int(parent.read_line(timeout=600))
        assert not _ended(grandchild)
    finally:
        parent.close()
    waited = 0
    while not _ended(grandchild) and waited < 6000:  # the kill is delivered at once; a
        time.sleep(0.01)  # busy machine may take a moment to carry it out
        waited += 1
    assert _ended(grandchild)
