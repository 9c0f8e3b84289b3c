"""Property tests: random valid diagrams round-trip; random input never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diagbench.diagram.sequence import GROUP_KINDS, PARTICIPANT_KINDS
from diagbench.formats.plantuml import parse_one, parse_sequence
from diagbench.formats.plantuml.sequence_writer import write_sequence
from tests.sizes import sized

CODES = ["A", "B", "Bob", "gNB", "AMF_1", "ue.2", "x@y"]
QUOTED = ['"Web GUI"', '"ACM Runtime"', '"5G Core"']
words = st.text(alphabet="abcXYZ019 _-:#<>'\"()[]{}=.,;!?/\\", min_size=1, max_size=20)
# a line ending in one backslash is continued on the next line (PlantUML joins them)
label = words.map(str.strip).filter(lambda s: s and not s.startswith(("'", "/'"))
                                    and not s.endswith("\\"))
color = st.sampled_from(["#red", "#LightBlue", "#FFAA00"])
ref = st.sampled_from(CODES + QUOTED)
# PlantUML reads `alt /-0` or `loop ->]` as a message, not a group: keep arrows out of headers.
group_label = label.map(lambda s: s.lstrip("#")).filter(lambda s: s and "-" not in s)


@st.composite
def arrows(draw) -> str:
    left = draw(st.sampled_from(["", "", "<", "<<", "/", "//", "\\", "o<", "x<"]))
    right = draw(st.sampled_from([">", ">>", "\\", "\\\\", "/", ">o", ">x", ""]))
    if not left.strip("ox") and not right.strip("ox"):
        right = ">"
    body = draw(st.sampled_from(["-", "--", "-[#red]>", "-[#blue,dashed]-", "--[bold]-"]))
    if body.endswith(">"):  # a style block already ends the body: keep its head
        return left + body
    return left + body + right


@st.composite
def messages(draw) -> str:
    text = f"{draw(ref)} {draw(arrows())} {draw(ref)}"
    if draw(st.booleans()):
        text += " " + draw(st.sampled_from(["++", "--", "**", "!!"]))
    if draw(st.booleans()):
        text += " : " + draw(label)
    return text


@st.composite
def declarations(draw) -> str:
    kind = draw(st.sampled_from(PARTICIPANT_KINDS))
    form = draw(st.integers(0, 3))
    code = draw(st.sampled_from(CODES))
    name = draw(st.sampled_from(["Long Name", "Access and Mobility"]))
    head = [code, f'"{name}" as {code}', f'{code} as "{name}"', f'"{name}"'][form]
    extra = draw(st.sampled_from(["", " <<Server>>", " #red", " order 3", " <<S>> order 2 #aqua"]))
    return f"{kind} {head}{extra}"


@st.composite
def notes(draw) -> list[str]:
    shape = draw(st.sampled_from(["note", "hnote", "rnote"]))
    where = draw(st.sampled_from([f"left of {draw(ref)}", f"right of {draw(ref)}",
                                  f"over {draw(ref)}", f"over {draw(ref)}, {draw(ref)}"]))
    if draw(st.booleans()):
        return [f"{shape} {where} : {draw(label)}"]
    lines = draw(st.lists(label.filter(lambda s: "end" not in s), min_size=1, max_size=3))
    return [f"{shape} {where}", *lines, f"end {shape}"]


simple = st.one_of(
    messages().map(lambda s: [s]),
    declarations().map(lambda s: [s]),
    notes(),
    label.map(lambda s: [f"== {s.replace('=', '')} =="]),
    st.sampled_from([["..."], ["...later..."], ["|||"], ["||20||"], ["autonumber"],
                     ["autonumber 10 5"], ['autonumber "<b>[00]"'], ["autonumber stop"],
                     ["hide footbox"], ["skinparam monochrome true"]]),
    ref.map(lambda r: [f"activate {r}"]),
)


def groups(children):
    @st.composite
    def group(draw) -> list[str]:
        kind = draw(st.sampled_from(GROUP_KINDS))
        head = kind + (" " + draw(group_label) if draw(st.booleans()) else "")
        out = [head, *[line for part in draw(st.lists(children, max_size=4)) for line in part]]
        if kind == "alt" and draw(st.booleans()):
            out += ["else " + draw(group_label), *draw(children)]
        return [*out, "end"]
    return group()


statements = st.recursive(simple, groups, max_leaves=12)


@settings(max_examples=sized(200, 1000), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(statements, min_size=1, max_size=15), st.booleans())
def test_written_diagrams_parse_back_identically(parts, with_title):
    lines = (["title A title"] if with_title else []) + [line for p in parts for line in p]
    [parsed] = parse_sequence("@startuml\n" + "\n".join(lines) + "\n@enduml\n")
    assert parsed.errors == (), parsed.errors
    expected_messages = sum(1 for p in parts for line in p if line in _message_lines(parts))
    assert len(parsed.diagram.messages) == expected_messages
    written = write_sequence(parsed.diagram)
    assert parse_one(written) == parsed.diagram
    assert write_sequence(parse_one(written)) == written


def _message_lines(parts) -> set[str]:
    return {line for p in parts for line in p if any(a in line for a in ("-", "<", ">"))
            and line.split()[0] in (*CODES, *(q.split()[0] for q in QUOTED))}


@settings(max_examples=sized(300, 1500), deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_raise(data):
    for result in parse_sequence(data.decode("utf-8", errors="replace")):
        assert result.index >= 0


FRAGMENTS = ["@startuml", "@enduml", "A -> B", "alt", "else", "end", "note over A", "end note",
             "box", "end box", "return", "activate A", "autonumber", "/'", "'/", "== x ==",
             "A ->", "-> B", "[->", "->]", "title", "end title", "skinparam x {", "}",
             "!procedure", "<style>", "ref over A", "group [", "create actor X", "... ..."]


@settings(max_examples=sized(300, 1500), deadline=None)
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=30)), max_size=40))
def test_random_statement_soup_never_raises(lines):
    for result in parse_sequence("\n".join(lines)):
        write_sequence(result.diagram)
