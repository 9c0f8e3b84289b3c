"""diagbench's strict reader of SPICE netlists: the subset schematic netlists use.

A netlist's first line is its title. Then, one a line (`+` continues the line before;
`*` starts a comment line, `;` and ` $ ` an end-of-line comment; case is ignored):

- elements R, C, L (`R1 n1 n2 value`), V and I (`V1 n+ n- [DC] value [AC …] [PULSE(…)
  …]`), D (`D1 a k model`), Q (`Q1 c b e [substrate] model`: a fourth node only when the
  fourth word names no model, as ngspice decides), M (`M1 d g s b model`, or three nodes
  for a VDMOS), J (`J1 d g s model`), the linear controlled sources E and G (`E1 n+ n-
  nc+ nc- gain`) and F and H (`F1 n+ n- vsense gain`; not their POLY, VALUE, TABLE or
  LAPLACE forms) and X (`X1 nodes… subckt [params: …]`);
- `.subckt name ports… [params: …]` … `.ends`, `.model name type(…)`, `.param
  name=value` (arithmetic values evaluated, `expression`), `.global`, `.end` (the
  last line read), the settings (`.options`, `.temp`) and the analysis and output
  lines (`.tran`, `.ac`, `.op`, `.print` …), which draw nothing;
- refused, so that nothing reads the machine: a `.control` … `.endc` block (it runs
  commands, `shell` among them) is left out with a warning (what it does is
  simulation, not the circuit); `.include`, `.lib` and every other dot line that
  loads or reads a file, a model that reads one (XSPICE's `filesource` …), and a quoted
  word (a file name) anywhere, are errors (the circuit they complete is not there).

What else breaks a netlist in ngspice is an error here too: an unknown element letter, a
missing value or model, a model or subcircuit never defined, an instance whose node
count is not its subcircuit's. Netlists over `MAX_CHARS` characters, `MAX_COMPONENTS`
components or `MAX_NODES` nodes are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from diagbench.formats.diagnostics import Diagnostic
from diagbench.formats.parsed import Parsed
from diagbench.languages.spice.expression import evaluate_with
from diagbench.languages.spice.model import (
    GROUND,
    TYPES,
    Circuit,
    Component,
    Subcircuit,
    canonical_number,
    spice_number,
)

MAX_CHARS = 2_000_000
MAX_COMPONENTS = 10_000
MAX_NODES = 10_000

#: Dot lines read and kept (they shape the circuit).
STRUCTURE = frozenset({".subckt", ".ends", ".model", ".param", ".global", ".end"})
#: Dot lines accepted and kept for the oracle, though they draw nothing: settings that
#: change how ngspice reads the circuit (`.option scale` picks a binned model).
SETTINGS = frozenset({".option", ".options", ".opt", ".temp"})
#: Dot lines accepted and left out: analyses and outputs, which draw nothing.
IGNORED = frozenset({".tran", ".ac", ".dc", ".op", ".noise", ".tf", ".disto", ".sens",
                     ".pz", ".four", ".fourier", ".print", ".plot", ".probe", ".save",
                     ".meas", ".measure", ".ic", ".nodeset", ".width", ".func",
                     ".csparam"})
#: Dot lines refused: they read files or run commands.
REFUSED = {".control": "a .control block runs commands (shell among them)",
           ".include": "it reads a file", ".inc": "it reads a file",
           ".lib": "it reads a file", ".libs": "it reads a file",
           ".osdi": "it loads a program", ".load": "it loads a program",
           ".exec": "it runs commands"}
#: Device models (XSPICE's) that read a file named in their parameters.
FILE_MODELS = frozenset({"filesource", "d_source", "d_state", "table2d", "table3d"})
#: A source's transient functions (its value when it gives no DC value).
WAVEFORMS = frozenset({"pulse", "sin", "pwl", "exp", "sffm", "am", "trnoise", "trrandom"})

_TOKEN = re.compile(r"\{[^{}]*\}|'[^']*'|\"[^\"]*\"|=|[^\s(),=]+")
_PARAM = re.compile(r"[a-z_][a-z0-9_]*")
#: A name in an expression (not a function's, not a number's suffix).
_NAME = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\b(?!\s*\()")
#: Constants numparam knows without a `.param`.
_CONSTANTS = frozenset({"pi", "e", "temper", "hertz", "time", "true", "false"})


@dataclass(frozen=True, slots=True)
class Line:
    """One logical line (continuations joined, comments cut): its first physical line,
    its text and its words."""

    number: int
    text: str
    words: tuple[str, ...]

    @property
    def head(self) -> str:
        return self.words[0] if self.words else ""


def words(text: str) -> tuple[str, ...]:
    """The words of a line, lower case: brackets and commas separate them, `{…}` and
    quoted expressions are one word, and `key = value` is one `key=value`."""
    raw = _TOKEN.findall(text.lower())
    out: list[str] = []
    k = 0
    while k < len(raw):
        if raw[k] == "=" and out and k + 1 < len(raw):
            out[-1] += "=" + raw[k + 1]
            k += 2
            continue
        out.append(raw[k])
        k += 1
    return tuple(out)


def _cut_comment(text: str) -> str:
    for mark in (";", " $ ", "\t$ "):
        if mark in text:
            text = text[:text.index(mark)]
    return text.rstrip().removesuffix(" $").removesuffix("\t$")


def logical_lines(text: str) -> Iterator[Line]:
    """The logical lines after the title, up to and with `.end` (comments left out)."""
    pending: tuple[int, str] | None = None
    for number, physical in enumerate(text.splitlines()[1:], start=2):
        stripped = physical.strip()
        if not stripped or stripped.startswith("*"):
            continue
        if stripped.startswith("+") and pending is not None:
            pending = (pending[0], pending[1] + " " + _cut_comment(stripped[1:]))
            continue
        if pending is not None:
            yield Line(pending[0], pending[1], words(pending[1]))
            if pending[1].strip().lower() == ".end":
                return
        pending = (number, _cut_comment(stripped))
    if pending is not None:
        yield Line(pending[0], pending[1], words(pending[1]))


@dataclass
class _Scope:
    """The components of the top level or of one open `.subckt`."""

    name: str = ""
    ports: tuple[str, ...] = ()
    line: int = 0
    components: list[Component] = field(default_factory=list)
    names: set[str] = field(default_factory=set)


@dataclass
class _Reading:
    """What has been read so far, and the diagnostics."""

    models: dict[str, str]
    subckts: dict[str, int]  # name → port count, all definitions of the file
    sources: set[str]  # the voltage sources' names, all of the file
    params: dict[str, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    top: _Scope = field(default_factory=_Scope)
    open: _Scope | None = None
    done: list[Subcircuit] = field(default_factory=list)
    count: int = 0
    nodes: set[str] = field(default_factory=set)
    accepted: list[Line] = field(default_factory=list)
    global_nodes: list[str] = field(default_factory=list)

    def error(self, line: Line, reason: str) -> None:
        self.diagnostics.append(Diagnostic(line.number, line.text, reason))


def read_spice(text: str) -> list[Parsed[Circuit]]:
    """The one netlist of `text` (never raises: what breaks it is a diagnostic)."""
    return [read_netlist(text)[0]]


def read_netlist(text: str) -> tuple[Parsed[Circuit], list[str]]:
    """The netlist of `text`, and the lines the reader accepted (its title, elements
    and structure lines; not what it refused, nor analyses): all that an oracle is
    given to read."""
    text = text.removeprefix("\ufeff")
    title = text.split("\n", 1)[0].strip()[:200]
    if len(text) > MAX_CHARS:
        return _parsed(Circuit(title, ()), [Diagnostic(
            1, title, f"netlist of {len(text):,} characters refused: over the "
            f"{MAX_CHARS:,}-character limit")]), []
    if not text.strip():
        return _parsed(Circuit("", ()), [Diagnostic(1, "", "empty netlist")]), []
    lines = list(logical_lines(text))
    reading = _Reading(*_definitions(lines))
    ended = False
    skipping: Line | None = None
    for line in lines:
        if skipping is not None:
            if line.head == ".endc":
                skipping = None
            continue
        errors = len(reading.diagnostics)
        if line.head == ".end":
            ended = True
        elif line.head == ".control":  # left out, the circuit drawn without it
            reading.diagnostics.append(Diagnostic(
                line.number, line.text, "left out: " + REFUSED[".control"], "warning"))
            skipping = line
        elif line.head.startswith("."):
            _dot_line(reading, line)
        else:
            _element(reading, line)
        if len(reading.diagnostics) == errors and line.head not in IGNORED:
            reading.accepted.append(line)
        if reading.count > MAX_COMPONENTS or len(reading.nodes) > MAX_NODES:
            what = "components" if reading.count > MAX_COMPONENTS else "nodes"
            limit = MAX_COMPONENTS if what == "components" else MAX_NODES
            reading.error(line, f"netlist refused: more than {limit:,} {what}")
            break
    else:
        if skipping is not None:
            reading.error(skipping, ".control block without .endc")
        if reading.open is not None:
            reading.diagnostics.append(Diagnostic(
                reading.open.line, f".subckt {reading.open.name}", ".subckt without .ends"))
        if not ended:
            last = len(text.splitlines())
            reading.diagnostics.append(Diagnostic(last, "", "no .end line"))
    circuit = Circuit(title, tuple(reading.top.components), tuple(reading.done),
                      tuple(sorted(reading.models.items())), tuple(reading.global_nodes))
    return _parsed(circuit, reading.diagnostics), \
        [title or "netlist"] + [line.text for line in reading.accepted]


def _parsed(circuit: Circuit, diagnostics: list[Diagnostic]) -> Parsed[Circuit]:
    return Parsed(0, 1, "spice", "circuit", circuit,
                  tuple(sorted(diagnostics, key=lambda d: d.line)))


def _definitions(lines: list[Line]
                 ) -> tuple[dict[str, str], dict[str, int], set[str]]:
    """The models (name → type) and subcircuits (name → port count) the file defines,
    and its voltage sources' names, wherever it defines them (an element may name one
    defined further down)."""
    models: dict[str, str] = {}
    subckts: dict[str, int] = {}
    sources: set[str] = set()
    for line in lines:
        if line.head == ".model" and len(line.words) >= 3:
            models[line.words[1]] = line.words[2]
        elif line.head == ".subckt" and len(line.words) >= 2:
            subckts[line.words[1]] = len(_ports(line.words[2:]))
        elif line.head.startswith("v"):
            sources.add(line.head)
    return models, subckts, sources


def _ports(rest: tuple[str, ...]) -> tuple[str, ...]:
    """The node words of a `.subckt` or X line, before its parameters."""
    out = []
    for word in rest:
        if "=" in word or word == "params:":
            break
        out.append(word)
    return tuple(out)


def _dot_line(reading: _Reading, line: Line) -> None:
    head, rest = line.head, line.words[1:]
    if head in REFUSED:
        reading.error(line, f"refused: {REFUSED[head]}")
    elif '"' in line.text:
        reading.error(line, "refused: a quoted word (a file name) in a control line")
    elif head in IGNORED:
        pass
    elif head not in STRUCTURE and head not in SETTINGS:
        reading.error(line, f"unknown control line {head}")
    elif head == ".subckt":
        ports = _ports(rest[1:])
        if reading.open is not None:
            reading.error(line, "a .subckt inside a .subckt")
        elif not rest or not ports:
            reading.error(line, ".subckt without a name and ports")
        else:
            reading.open = _Scope(rest[0], ports, line.number)
    elif head == ".ends":
        scope = reading.open
        if scope is None:
            reading.error(line, ".ends without .subckt")
        else:
            reading.done.append(Subcircuit(scope.name, scope.ports,
                                           tuple(scope.components), scope.line))
            reading.open = None
    elif head == ".model" and len(rest) < 2:
        reading.error(line, ".model without a name and type")
    elif head == ".model" and rest[1] in FILE_MODELS:
        reading.error(line, f"refused: a {rest[1]} model reads a file")
    elif head == ".param":
        _params(reading, line)
    elif head == ".global":
        reading.global_nodes += [n for n in rest if n != "gnd" and n != GROUND]


_ASSIGNMENT = re.compile(r"([a-z_]\w*)\s*=\s*(.+?)\s*(?=\s[a-z_]\w*\s*=|$)")


def _params(reading: _Reading, line: Line) -> None:
    """`.param a=1k b = {2*a} c = 1.5 * a`: each name and value (an unbracketed
    expression as `{…}`), kept only when every name they use is defined."""
    body = line.text.strip()[len(".param"):].strip().lower()
    pairs = [(m.group(1), m.group(2)) for m in _ASSIGNMENT.finditer(body)]
    if not pairs or "".join(f"{n}={v}" for n, v in pairs).replace(" ", "") != \
            body.replace(" ", ""):
        reading.error(line, ".param expects name=value pairs")
        return
    for name, value in pairs:
        value = value if value[:1] in "{'" or spice_number(value) is not None \
            else "{" + value + "}"
        undefined = _undefined(reading, value)
        if undefined:
            reading.error(line, f"parameter {undefined!r} is not defined")
            return
        reading.params[name] = value


def _undefined(reading: _Reading, word: str) -> str | None:
    """The first name an expression (`{…}`, `'…'`) uses that no `.param` defined."""
    if word[:1] not in "{'":
        return None
    return next((name for name in _NAME.findall(word.strip("{}'"))
                 if name not in reading.params and name not in _CONSTANTS), None)


def _value(reading: _Reading, word: str) -> str:
    """A value word: a number canonical, a parameter or an arithmetic expression
    evaluated (`expression`), else its text."""
    number = spice_number(word)
    if number is None:
        number = evaluate_with(word.strip("{}'"), reading.params)
    return canonical_number(number) if number is not None else word


def _element(reading: _Reading, line: Line) -> None:
    name, rest = line.head, line.words[1:]
    if not name:
        reading.error(line, "a line that names no element")
        return
    letter = name[0]
    if letter not in TYPES:
        reading.error(line, f"element {name!r}: type {letter.upper()!r} is not one this "
                      f"reader knows ({' '.join(TYPES).upper()})")
        return
    if any('"' in word for word in rest):
        reading.error(line, "refused: a quoted word (a file name) in an element line")
        return
    parsed = _PARSERS[letter](reading, rest)
    if isinstance(parsed, str):
        reading.error(line, f"element {name}: {parsed}")
        return
    nodes, value = parsed
    nodes = tuple(GROUND if n == "gnd" else n for n in nodes)
    scope = reading.open or reading.top
    if name in scope.names:
        reading.error(line, f"a second element named {name}")
        return
    scope.names.add(name)
    scope.components.append(Component(name, letter, nodes, value, line.number))
    reading.count += 1
    reading.nodes.update(nodes)


Element = tuple[tuple[str, ...], str] | str  # (nodes, value) or why not


def _two_terminal(reading: _Reading, rest: tuple[str, ...]) -> Element:
    if len(rest) < 3:
        return "two nodes and a value expected"
    value = rest[2].split("=", 1)[1] if rest[2][:2] in ("r=", "c=", "l=") else rest[2]
    if "=" in value:
        return f"a value expected, not {rest[2]}"
    if re.search(r"\b[vi]\(", value):
        return f"a behavioural value (of a voltage or current) is not read: {value}"
    if _undefined(reading, value):
        return f"parameter {_undefined(reading, value)!r} is not defined"
    return rest[:2], _value(reading, value)


def _source(reading: _Reading, rest: tuple[str, ...]) -> Element:
    if len(rest) < 2:
        return "two nodes expected"
    spec = rest[2:]
    if "dc" in spec:
        at = spec.index("dc")
        if at + 1 >= len(spec):
            return "DC without a value"
        return rest[:2], _value(reading, spec[at + 1])
    first = spec[0].strip("{}'") if spec else ""
    if first and (spice_number(first) is not None
                  or evaluate_with(first, reading.params) is not None):
        return rest[:2], _value(reading, spec[0])
    waveform = next((w for w in spec if w in WAVEFORMS), None)
    return rest[:2], waveform or "0"


def _with_model(count: int, optional: int, reading: _Reading,
                rest: tuple[str, ...]) -> Element:
    """`count` nodes then a model, or `count + optional` nodes then a model (the model
    decides, as ngspice does)."""
    for nodes in range(count, count + optional + 1):
        if len(rest) > nodes and _is_model(reading, rest[nodes]):
            return rest[:nodes], rest[nodes]
    if len(rest) <= count:
        return f"{count} nodes and a model expected"
    tried = [repr(word) for word in rest[count:count + optional + 1]]
    return f"no .model defines {' or '.join(tried)}"


#: The first words of the controlled sources' forms this reader does not read.
BEHAVIOURAL = frozenset({"poly", "value", "table", "laplace", "freq", "vol", "cur", "ch"})


def _controlled(nodes: int, controller: bool, reading: _Reading,
                rest: tuple[str, ...]) -> Element:
    """E and G: four nodes and a gain; F and H (`controller`): two nodes, the voltage
    source whose current controls them, and a gain."""
    form = next((w.split("=")[0] for w in rest if w.split("=")[0] in BEHAVIOURAL), None)
    if form is not None:
        return f"the {form.upper()} form is not read (a linear gain only)"
    if len(rest) < nodes + controller + 1:
        return f"{nodes} nodes{', a voltage source' if controller else ''} and a gain expected"
    first = rest[nodes]
    if controller and first not in reading.sources:
        return f"no voltage source {first!r} controls it"
    gain = rest[nodes + controller]
    if _undefined(reading, gain):
        return f"parameter {_undefined(reading, gain)!r} is not defined"
    value = _value(reading, gain)
    if spice_number(value) is None:
        return f"a gain expected, not {gain}"
    return rest[:nodes], value


def _is_model(reading: _Reading, name: str) -> bool:
    """Whether a `.model` defines `name`, or binned models `name.1`, `name.2` … do (which
    ngspice picks among by the device's size)."""
    return name in reading.models or any(
        m.startswith(name + ".") and m[len(name) + 1:].isdigit() for m in reading.models)


def _instance(reading: _Reading, rest: tuple[str, ...]) -> Element:
    words = _ports(rest)
    if len(words) < 2:
        return "nodes and a subcircuit name expected"
    nodes, subckt = words[:-1], words[-1]
    if subckt not in reading.subckts:
        return f"no .subckt defines {subckt!r}"
    if len(nodes) != reading.subckts[subckt]:
        return f"{len(nodes)} nodes for {subckt!r}, which has {reading.subckts[subckt]} ports"
    return nodes, subckt


_PARSERS = {
    "r": _two_terminal, "c": _two_terminal, "l": _two_terminal,
    "v": _source, "i": _source,
    "d": lambda reading, rest: _with_model(2, 0, reading, rest),
    "q": lambda reading, rest: _with_model(3, 1, reading, rest),
    "m": lambda reading, rest: _with_model(3, 1, reading, rest),
    "j": lambda reading, rest: _with_model(3, 0, reading, rest),
    "e": lambda reading, rest: _controlled(4, False, reading, rest),
    "g": lambda reading, rest: _controlled(4, False, reading, rest),
    "f": lambda reading, rest: _controlled(2, True, reading, rest),
    "h": lambda reading, rest: _controlled(2, True, reading, rest),
    "x": _instance,
}
