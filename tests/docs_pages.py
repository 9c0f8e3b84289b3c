"""The shell blocks and inline option names of diagbench's documentation (README.md and
docs/), for the tests that run every command shown and check every option named.

A ```bash block runs unless the line before it is `<!-- no-run: REASON -->` (a command
that needs an API key, a GPU server, a cluster or data diagbench does not ship)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"

_BLOCK = re.compile(r"(?:^<!-- no-run: (?P<reason>[^>]+?) -->\n)?^```bash\n(?P<code>.*?)^```$",
                    re.M | re.S)
_INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_FENCED = re.compile(r"^(```+|~~~+).*?^\1$", re.M | re.S)
_OPERATORS = {"&&", "||", "|", ";", "&", ">", ">>", "<"}
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


@dataclass(frozen=True)
class Block:
    """One ```bash block: its page, the line it starts on, its code, and why it is not
    run (None: it is run)."""

    page: Path
    line: int
    code: str
    no_run: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def pages() -> list[Path]:
    """README.md and every Markdown page under docs/, sorted."""
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [Block(page, text.count("\n", 0, m.start("code")), m.group("code"), m.group("reason"))
            for m in _BLOCK.finditer(text)]


def command_lines(code: str) -> list[str]:
    """The shell lines of a block (continuations joined, comments dropped)."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [line for line in (ln.split(" #")[0].strip() for ln in joined.splitlines())
            if line and not line.startswith("#")]


def diagbench_calls(code: str) -> list[list[str]]:
    """The words after `diagbench` of every call of it in a block (each command of a
    line separated by `&&`, `||`, `|`, `;` or `&`, as the shell splits them)."""
    calls = []
    for line in command_lines(code):
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        command: list[str] = []
        for token in [*lexer, ";"]:
            if token in _OPERATORS:
                while command and re.fullmatch(r"\w+=\S*", command[0]):  # VAR=value prefixes
                    command.pop(0)
                if command and command[0] in ("diagbench", ".venv/bin/diagbench"):
                    calls.append(command[1:])
                command = []
            else:
                command.append(token)
    return calls


def inline_options(page: Path) -> set[str]:
    """Every `--option` named in the page's inline code, outside code blocks."""
    prose = _FENCED.sub("", page.read_text(encoding="utf-8"))
    return {option for span in _INLINE_CODE.findall(prose) for option in _OPTION.findall(span)}
