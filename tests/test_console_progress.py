"""Progress off a terminal (issue 32): lines with count, rate, time left and errors,
every few seconds and once at the end; nothing with `--quiet` or for short phases."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from diagbench.cli import cli
from diagbench.console import ProgressLines, duration


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_lines_come_every_interval_with_rate_eta_and_errors():
    clock, out = Clock(), io.StringIO()
    failed, fine = SimpleNamespace(status="error"), SimpleNamespace(status="ok")
    with ProgressLines(100, "asking", 5.0, out, clock) as lines:
        clock.now += 2
        lines.update(10, fine)       # 2 s in: too soon for a line
        assert out.getvalue() == ""
        clock.now += 3
        lines.update(15, failed)     # 5 s in: 25 done, 5/s; 15 since the first 10 at
        #                              2 s: 5/s, 75 left = 15 s
        clock.now += 1
        lines.update(5, fine)        # 1 s after the last line: none
        clock.now += 4
        lines.update(10, fine)       # 10 s in: 40 done, 4/s; 30 since the first at 2 s:
        #                              3.75/s, 60 left = 16 s
        clock.now += 2
        lines.update(60, failed)     # 12 s in, all done: the end line follows
    assert out.getvalue().splitlines() == [
        "asking: 25/100 (25 %), 5.0/s, ETA 15 s, 1 error",
        "asking: 40/100 (40 %), 4.0/s, ETA 16 s, 1 error",
        "asking: 100/100 (100 %), 8.3/s, in 12 s, 2 errors",
    ]


def test_a_slow_start_is_not_taken_for_the_pace():
    """The first item after a 60 s warm-up, then 99 in 5 s: 900 left at 99 / 5 s = 19.8
    per second is 45 s (from the start: 100 / 65 s, 9 min 45 s); no time left is
    guessed from the first item alone."""
    clock, out = Clock(), io.StringIO()
    with ProgressLines(1000, "rendering", 5.0, out, clock) as lines:
        clock.now += 60
        lines.update(1)
        clock.now += 5
        lines.update(99)
        clock.now += 1
        lines.update(900)
    assert out.getvalue().splitlines() == [
        "rendering: 1/1000 (0 %), 0.0/s, ETA ?, 0 errors",
        "rendering: 100/1000 (10 %), 1.5/s, ETA 45 s, 0 errors",
        "rendering: 1000/1000 (100 %), 15.2/s, in 1 min 06 s, 0 errors"]


def test_a_phase_quicker_than_the_interval_writes_nothing():
    clock, out = Clock(), io.StringIO()
    with ProgressLines(50, "rendering", 5.0, out, clock) as lines:
        for _ in range(50):
            clock.now += 0.01
            lines.update(1)
    assert out.getvalue() == ""


def test_durations_read_as_people_write_them():
    assert [duration(s) for s in (0.4, 42, 185, 7620)] == [
        "0 s", "42 s", "3 min 05 s", "2 h 07 min"]


def _pairs(root: Path, n: int) -> tuple[Path, Path]:
    gold, pred = root / "gold", root / "pred"
    for folder in (gold, pred):
        folder.mkdir()
        for k in range(n):
            (folder / f"d{k:02d}.puml").write_text(
                f"@startuml\nA -> B : m{k}\n@enduml\n")
    return gold, pred


def test_compare_off_a_terminal_writes_lines_and_quiet_silences_them(tmp_path, monkeypatch):
    monkeypatch.setenv("DIAGBENCH_PROGRESS_SECONDS", "0")
    gold, pred = _pairs(tmp_path, 21)
    loud = CliRunner().invoke(cli, ["compare", str(gold), str(pred)])
    assert loud.exit_code == 0, loud.output
    progress = [x for x in loud.stderr.splitlines() if x.startswith("comparing: ")]
    assert len(progress) == 22  # one per pair (interval 0), and the end line
    assert progress[-1].startswith("comparing: 21/21 (100 %)") and ", in " in progress[-1]
    quiet = CliRunner().invoke(cli, ["--quiet", "compare", str(gold), str(pred)])
    assert quiet.exit_code == 0 and "comparing:" not in quiet.stderr
    assert quiet.stdout == loud.stdout


def test_twenty_items_show_no_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("DIAGBENCH_PROGRESS_SECONDS", "0")
    gold, pred = _pairs(tmp_path, 20)
    result = CliRunner().invoke(cli, ["compare", str(gold), str(pred)])
    assert result.exit_code == 0 and "comparing:" not in result.stderr
