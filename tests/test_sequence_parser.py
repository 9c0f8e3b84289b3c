"""Unit tests: each sequence-diagram construct, with hand-written expectations."""

from __future__ import annotations

from dataclasses import asdict, fields

from diagbench.diagram.sequence import Message, Participant, new_message
from diagbench.formats.plantuml import parse_one, parse_sequence
from diagbench.formats.plantuml import sequence_syntax as syn


def body(text: str):
    return parse_one(f"@startuml\n{text}\n@enduml\n")


def only(text: str):
    [parsed] = parse_sequence(f"@startuml\n{text}\n@enduml\n")
    return parsed


def test_participant_forms():
    d = body(
        'participant Alice\n'
        'actor "Bob the Builder" as Bob\n'
        'boundary GW as "Web Gateway"\n'
        'control "Cart"\n'
        'entity E <<Persistent>> #red\n'
        'database DB order 5\n'
        'collections Col\n'
        'queue Q\n'
        'participant Long as L'
    )
    assert [(p.id, p.name, p.kind) for p in d.participants] == [
        ("Alice", "Alice", "participant"),
        ("Bob", "Bob the Builder", "actor"),
        ("GW", "Web Gateway", "boundary"),
        ("Cart", "Cart", "control"),
        ("E", "E", "entity"),
        ("Col", "Col", "collections"),
        ("Q", "Q", "queue"),
        ("L", "Long", "participant"),
        ("DB", "DB", "database"),  # order 5 sorts it after the unordered (0) ones
    ]
    e = d.participant("E")
    assert (e.stereotype, e.color, e.declared) == ("Persistent", "#red", True)
    assert d.participant("DB").order == 5


def test_implicit_participants_in_order_of_first_use():
    d = body("participant B\nA -> B\nB -> C")
    assert [p.id for p in d.participants] == ["B", "A", "C"]
    assert [p.declared for p in d.participants] == [True, False, False]


def test_later_declaration_moves_to_the_end_and_changes_nothing_else():
    # PlantUML (CommandParticipant) only moves a participant declared again to the end
    d = body('A -> B\nA -> C\nactor B as "Long" #red')
    assert [(p.id, p.name, p.kind, p.declared, p.color) for p in d.participants] == [
        ("A", "A", "participant", False, None), ("C", "C", "participant", False, None),
        ("B", "B", "participant", False, None)]


def test_arrow_directions_and_styles():
    d = body(
        "A -> B : solid\n"
        "A --> B : dotted\n"
        "B <- A : reversed\n"
        "B <-- A\n"
        "A ->> B\n"
        "A -\\ B\n"
        "A -/ B\n"
        "A \\- B\n"
        "A ->x B\n"
        "A ->o B\n"
        "A o-> B\n"
        "A <-> B\n"
        "A -[#red]> B\n"
        "A -[#blue,dashed]> B\n"
        "A -[#red]-> B\n"
    )
    got = [(m.sender, m.receiver, m.reversed, m.line_style, m.head) for m in d.messages]
    assert got == [
        ("A", "B", False, "solid", "normal"),
        ("A", "B", False, "dotted", "normal"),
        ("A", "B", True, "solid", "normal"),
        ("A", "B", True, "dotted", "normal"),
        ("A", "B", False, "solid", "async"),
        ("A", "B", False, "solid", "half_top"),
        ("A", "B", False, "solid", "half_bottom"),
        ("B", "A", True, "solid", "half_bottom"),
        ("A", "B", False, "solid", "lost"),
        ("A", "B", False, "solid", "normal"),
        ("A", "B", False, "solid", "normal"),
        ("A", "B", False, "solid", "normal"),
        ("A", "B", False, "solid", "normal"),
        ("A", "B", False, "dotted", "normal"),
        ("A", "B", False, "dotted", "normal"),
    ]
    assert d.messages[9].head_circle and not d.messages[9].tail_circle
    assert d.messages[10].tail_circle
    assert d.messages[11].bidirectional and d.messages[11].tail == "normal"
    assert [m.color for m in d.messages[12:]] == ["#red", "#blue", "#red"]
    assert [m.label for m in d.messages[:3]] == ["solid", "dotted", "reversed"]
    assert d.messages[12].arrow == "-[#red]>"


def test_self_message_and_quoted_names():
    d = body('"Web GUI" -> "Web GUI" : refresh\n"Long Name" as LN -> X: hi')
    assert d.messages[0].is_self
    assert d.messages[0].sender == "Web GUI"
    assert d.participant("LN").name == "Long Name"
    assert (d.messages[1].sender, d.messages[1].label) == ("LN", "hi")


def test_incoming_outgoing_and_short_messages():
    d = body("[-> A : in\nA ->] : out\n[<- A : back\n?-> A\nA ->?\nA <-]")
    got = [(m.sender, m.receiver) for m in d.messages]
    assert got == [("[", "A"), ("A", "]"), ("A", "["), ("?", "A"), ("A", "?"), ("]", "A")]
    assert [p.id for p in d.participants] == ["A"]
    assert d.messages[0].endpoints == ("A",)


def test_activation_shorthands_and_return():
    d = body("A -> B ++ : call\nB -> C ++\nC --> B -- : done\nreturn result")
    assert [m.activation for m in d.messages[:3]] == ["++", "++", "--"]
    ret = d.messages[3]
    assert ret.is_return and (ret.sender, ret.receiver, ret.label) == ("B", "A", "result")
    assert ret.line_style == "dotted"


def test_return_without_activation_goes_back_along_the_last_message():
    # PlantUML 1.2026.2 (CommandReturn): nothing activated → reverse the last message
    d = body("A -> B\nreturn #red x")
    ret = d.messages[1]
    assert (ret.sender, ret.receiver, ret.label, ret.color) == ("B", "A", "x", "#red")


def test_return_with_nowhere_to_return_to_is_a_diagnostic():
    p = only("[-> B\nreturn x")
    assert len(p.diagram.messages) == 1
    assert [(d.line, d.severity) for d in p.diagnostics] == [(3, "error")]
    assert "return" in p.diagnostics[0].reason


def test_activate_deactivate_destroy_create():
    d = body("create participant X\nactivate A #red\nA -> B\ndeactivate A\ndestroy B\ncreate Y")
    assert [(a.action, a.participant, a.color) for a in d.activations] == [
        ("create", "X", None), ("activate", "A", "#red"), ("deactivate", "A", None),
        ("destroy", "B", None), ("create", "Y", None)]
    assert d.participant("X").declared and not d.participant("Y").declared


def test_notes_all_forms():
    d = body(
        "A -> B : m\n"
        "note left of A : one\n"
        "note right of B #yellow\nline 1\nline 2\nend note\n"
        'note over A, "B" : shared\n'
        "hnote over A : hex\n"
        "rnote over B\nr\nendrnote\n"
        "note right : on message\n"
        "note across : everything\n"
        "/ note over A : same level"
    )
    got = [(n.position, n.targets, n.text, n.shape, n.on_message) for n in d.notes]
    assert got == [
        ("left", ("A",), "one", "note", None),
        ("right", ("B",), "line 1\nline 2", "note", None),
        ("over", ("A", "B"), "shared", "note", None),
        ("over", ("A",), "hex", "hnote", None),
        ("over", ("B",), "r", "rnote", None),
        ("right", (), "on message", "note", 0),
        ("across", (), "everything", "note", None),
        ("over", ("A",), "same level", "note", None),
    ]
    assert d.notes[1].color == "#yellow"


def test_groups_nesting_else_and_enclosed_messages():
    d = body(
        "alt success\n"
        "  A -> B : 0\n"
        "  loop 3 times\n"
        "    B -> C : 1\n"
        "  end\n"
        "else failure\n"
        "  A -> C : 2\n"
        "else #Pink timeout\n"
        "end\n"
        "opt\nA -> A : 3\nend\n"
        "group Retry [max 3]\nA -> B : 4\nend group\n"
        "par\nA -> B : 5\nalso\nA -> C : 6\nend\n"
        "break b\nend\ncritical c\nend"
    )
    g = d.groups
    assert [x.kind for x in g] == ["alt", "loop", "opt", "group", "par", "break", "critical"]
    assert [b.label for b in g[0].branches] == ["success", "failure", "timeout"]
    assert g[0].branches[2].color == "#Pink"
    assert [b.messages for b in g[0].branches] == [(0,), (2,), ()]
    assert g[0].messages == (0, 2)
    assert (g[1].parent, g[1].messages, g[1].label) == (0, (1,), "3 times")
    assert (g[3].label, g[3].secondary) == ("Retry", "max 3")
    assert [b.messages for b in g[4].branches] == [(5,), (6,)]
    assert g[2].label == ""


def test_group_colours():
    g = body("alt#Gold #LightBlue Successful case\nA -> B\nend").groups[0]
    assert (g.color, g.label) == ("#Gold", "Successful case")


def test_boxes():
    d = body('box "Internal" #LightBlue\nparticipant A\nparticipant B\nend box\n'
             "box Other\nparticipant C\nendbox\nA -> D")
    assert [(b.title, b.color, b.members) for b in d.boxes] == [
        ("Internal", "#LightBlue", ("A", "B")), ("Other", None, ("C",))]


def test_autonumber_variants():
    d = body(
        "A -> B\nautonumber\nA -> B\nA -> B\nautonumber 10 5\nA -> B\nA -> B\n"
        'autonumber "<b>[000]"\nA -> B\nautonumber stop\nA -> B\n'
        "autonumber resume\nA -> B\nautonumber 1.1.1\nA -> B\nA -> B\n"
    )
    assert [m.autonumber for m in d.messages] == [
        None, "1", "2", "10", "15", "[001]", None, "[002]", "1.1.1", "1.1.2"]


def test_dividers_delays_spacing_title():
    d = body("title My flow\n== Setup ==\n...\n...5 minutes later...\n|||\n||45||")
    assert d.title == "My flow"
    assert [x.text for x in d.dividers] == ["Setup"]
    assert [x.text for x in d.delays] == ["", "5 minutes later"]
    assert [x.pixels for x in d.spacings] == [None, 45]


def test_multiline_title_and_verbatim_blocks():
    d = body(
        "title\nFirst\nSecond\nend title\n"
        "skinparam sequence {\n  ArrowColor red\n}\n"
        "<style>\nsequenceDiagram { }\n</style>\n"
        "skinparam monochrome true\n!pragma teoz true\nhide footbox\n"
        "legend right\nsome legend\nendlegend\nA -> B"
    )
    assert d.title == "First\nSecond"
    assert [x.kind for x in d.directives] == [
        "skinparam", "style", "skinparam", "pragma", "hide", "legend"]
    assert len(d.messages) == 1


def test_comments_are_ignored():
    p = only("' a comment\n/' block\ncomment A -> B\n'/\n/' inline '/\nA -> B : x ' not a comment")
    assert len(p.diagram.messages) == 1
    assert p.diagram.messages[0].label == "x ' not a comment"
    assert p.diagnostics == ()


def test_label_keeps_backslash_n():
    d = body("A -> B : two\\nlines")
    assert d.messages[0].label == "two\\nlines"


def test_preprocessor_recorded_not_executed():
    p = only("!include /etc/passwd\n!define X 1\n!procedure $p()\nA -> B\n!endprocedure\nA -> C")
    d = p.diagram
    assert [x.kind for x in d.directives] == ["preprocessor"] * 3
    assert len(d.messages) == 1  # the message inside the procedure is not executed
    assert [x.severity for x in p.diagnostics] == ["warning"] * 3


def test_several_blocks_in_one_file():
    parsed = parse_sequence(
        "@startuml first\nA -> B\n@enduml\ntext\n@startuml\nC -> D\nE -> F\n@enduml")
    assert [(p.index, p.diagram.name, len(p.diagram.messages)) for p in parsed] == [
        (0, "first", 1), (1, None, 2)]
    assert parsed[1].first_line == 6


def test_unterminated_blocks_give_diagnostics_with_lines():
    p = only("alt x\nA -> B\nnote over A\nnever closed")
    reasons = sorted((d.line, d.severity, d.reason.split(":")[0]) for d in p.diagnostics)
    assert reasons == [(2, "warning", "unterminated 'alt' group (no 'end')"),
                       (4, "error", "unterminated block")]
    assert len(p.diagram.messages) == 1


def test_no_startuml_and_missing_enduml():
    [p] = parse_sequence("A -> B\nB -> C\n")
    assert len(p.diagram.messages) == 2
    assert "no @startuml" in p.diagnostics[0].reason
    [q] = parse_sequence("@startuml\nA -> B\n")
    assert [d.reason for d in q.diagnostics] == ["missing @enduml"]


def test_unknown_statements_are_reported_not_raised():
    p = only("A -> B\nthis is not plantuml\nend\nelse")
    assert [(d.line, d.reason) for d in p.diagnostics] == [
        (3, "unrecognised statement"), (4, "'end' without an open group"),
        (5, "'else' outside any group")]


def test_diagram_kind():
    assert only("A -> B").kind == "sequence"
    assert only("class Foo {\n+bar()\n}\nFoo <|-- Baz").kind == "class"
    assert parse_sequence("@startmindmap\n* a\n@endmindmap")[0].kind == "mindmap"


def test_source_lines_are_kept_but_not_compared():
    a, b = body("A -> B"), body("\n\nA -> B")
    assert a == b
    assert (a.messages[0].line, b.messages[0].line) == (2, 4)
    assert a.participants[0] == Participant("A", "A", declared=False)


def test_message_groups_are_listed_in_pattern_order():
    assert tuple(syn.MESSAGE.groupindex) == syn.MESSAGE_GROUPS


def test_unterminated_group_is_dropped_and_the_others_renumbered():
    d = body("alt x\nA -> B\nloop y\nB -> A\nend\nA -> C")
    assert [(g.kind, g.parent, g.messages) for g in d.groups] == [("loop", None, (1,))]
    assert [e for e in d.order if e[0] != "message"] == [("group_start", 0), ("group_end", 0)]
    assert len(d.messages) == 3


def test_multicast_receivers_kept_and_written_back():
    from diagbench.formats.plantuml.sequence_writer import write_sequence

    d = body("A -> B & C : x\nB <- A & D")
    assert [m.multicast for m in d.messages] == [("C",), ("D",)]
    assert [p.id for p in d.participants] == ["A", "B", "C", "D"]
    assert parse_one(write_sequence(d)) == d


def test_new_message_is_the_dataclass_message():
    head = ("A", "B", "<--", True, False, "dotted", "async", "none", True, False, "#red")
    made = new_message(head, "hello", "++", "7", 12, (3,))
    expected = Message("A", "B", "<--", True, False, "dotted", "async", "none", True, False,
                       "#red", "hello", "++", False, "7", 12, None, (3,), ())
    assert type(made) is Message
    for f in fields(Message):  # every slot set, `line` too (left out of ==)
        assert getattr(made, f.name) == getattr(expected, f.name), f.name
    assert asdict(made) == asdict(expected)


def test_lines_read_again_from_the_learned_table_read_as_the_first_time():
    # each message line twice: the second one of a kind is read from the table of lines
    # already read (see sequence._learn); comment, teoz and activation lines are not
    lines = ["A -> B : one", "  A -> B :  two  ", "\tA -> B", "A <-- B: three", "A <-- B: four",
             "' A -> B : comment", "&A -> B : teoz", "A -> B ++ : act", "A -> B ++ : act2",
             "A ->x B : lost", "A ->x B : lost2"]
    for _ in range(2):  # the second pass finds every line learned
        d = body("\n".join(lines))
        got = [(m.sender, m.receiver, m.arrow, m.label, m.activation, m.line)
               for m in d.messages]
        assert got == [
            ("A", "B", "->", "one", None, 2), ("A", "B", "->", "two", None, 3),
            ("A", "B", "->", "", None, 4), ("B", "A", "<--", "three", None, 5),
            ("B", "A", "<--", "four", None, 6), ("A", "B", "->", "teoz", None, 8),
            ("A", "B", "->", "act", "++", 9), ("A", "B", "->", "act2", "++", 10),
            ("A", "B", "->x", "lost", None, 11), ("A", "B", "->x", "lost2", None, 12),
        ]
        assert [m.reversed for m in d.messages[3:5]] == [True, True]
        assert [m.head for m in d.messages[8:]] == ["lost", "lost"]
        assert [m.line_style for m in d.messages] == ["solid"] * 3 + ["dotted"] * 2 + ["solid"] * 5


def test_keywords_and_arrow_ends_in_any_case_read_as_in_lower_case():
    """PlantUML reads its commands case-insensitively: the same diagram with its keywords
    and the circles and crosses of its arrows in capitals is the same model (only the
    arrows and borders as written, and the directives' text, keep their case)."""
    text = ('participant A order 2\nactor B as "Bee" #red\nbox X\nqueue Q\nend box\n'
            "alt#Gold x\nA -> B ++\nreturn done\nelse #red y\nB ->x A\nend\nloop 3\nA o->o B\n"
            "end loop\n"
            "note over A : n\nhnote left of B\nh\nend hnote\nref over A, B : r\n"
            "activate B\ndeactivate B\ncreate participant C\nA -> C\ndestroy C\n"
            "[x-> A\nA ->o]\ntitle t\nhide footbox")
    upper = text.replace("x A", "X A").replace("o->o", "O->O").replace("[x", "[X")
    upper = upper.replace("->o]", "->O]")
    for word in ("participant", "actor", "box", "queue", "end", "alt", "else", "loop", "note",
                 "over", "hnote", "left", "of", "ref", "activate", "deactivate", "create",
                 "destroy", "return", "title", "hide", "order", "as"):
        upper = "\n".join(" ".join(w.upper() if w == word else w for w in line.split(" "))
                          for line in upper.split("\n"))
    assert upper.count("X") >= 3 and "ALT#Gold" not in upper and "LOOP" in upper
    lower, capitals = only(text), only(upper.replace("alt#Gold", "ALT#Gold"))
    assert lower.diagnostics == capitals.diagnostics == ()

    def as_read(d):
        return (d.participants, d.notes, d.groups, d.references, d.boxes, d.activations,
                [(m.sender, m.receiver, m.head, m.tail, m.head_circle, m.tail_circle,
                  m.reversed, m.label) for m in d.messages], d.title)

    assert as_read(capitals.diagram) == as_read(lower.diagram)
    assert [(m.head, m.head_circle, m.tail_circle) for m in capitals.diagram.messages] == [
        ("normal", False, False), ("normal", False, False), ("lost", False, False),
        ("normal", True, True), ("normal", False, False), ("normal", False, False),
        ("normal", True, False)]
    assert capitals.diagram.messages[5].border == "[X"  # as written


def test_colour_against_else_also_or_end_is_refused():
    """CommandGrouping takes a colour against `alt` (`alt#red`) but not against `else`,
    `also` or `end`: PlantUML refuses such a line, the parser reports it; with a space
    between, the colour is the branch's."""
    for line in ("else#red text", "ELSE#Red", "also#red", "end#red"):
        parsed = only(f"par x\nA -> B\n{line}\nB -> A\nend")
        assert [(d.line, d.reason) for d in parsed.errors] == [(4, "unrecognised statement")]
    branches = body("alt x\nA -> B\nelse #red\nB -> A\nELSE #Blue text\nend").groups[0].branches
    assert [(b.label, b.color) for b in branches] == [("x", None), ("", "#red"),
                                                      ("text", "#Blue")]


def test_hide_unlinked_leaves_out_the_participants_plantuml_does_not_draw():
    """Under `hide unlinked` (the last of hide/show wins, wherever it stands) a participant
    no message, drawn note, reference or activation deals with is not in the model: not
    counted, not in the order of events, not a box member."""
    parsed = only("participant A\nparticipant Hidden #red\nbox B1\nparticipant Gone\nend box\n"
                  "box B2\nparticipant B\nparticipant Also\nend box\nA -> B : m\n"
                  "note over Unseen\nend note\nhide unlinked")
    d = parsed.diagram
    assert [p.id for p in d.participants] == ["A", "B"]
    assert parsed.counts()["participants"] == 2
    assert [b.members for b in d.boxes] == [(), ("B",)]
    assert [(kind, d.participants[ref].id) for kind, ref in d.order
            if kind == "participant"] == [("participant", "A"), ("participant", "B")]
    assert d.notes[0].targets == ("Unseen",)  # kept, as written: PlantUML draws no note
    shown = body("hide unlinked\nparticipant C\nA -> B\nshow unlinked")
    assert [p.id for p in shown.participants] == ["C", "A", "B"]


def test_line_styles_in_any_case():
    d = body("A -[HIDDEN]> B\nA -[#Red,Dashed]> B\nA -[DOTTED]-> B\n[-[Hidden]> A")
    assert [(m.line_style, m.color) for m in d.messages] == [
        ("hidden", None), ("dotted", "#Red"), ("dotted", None), ("hidden", None)]
