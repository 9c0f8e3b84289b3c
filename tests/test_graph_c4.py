"""C4-PlantUML read as PlantUML draws it: page furniture (titles, one-line footers and
headers, legend blocks, legend macros) is not content, labels with line breaks are one
element, and a C4 sequence diagram (`C4_Sequence`) is read by the sequence reader, its
macros as the participants, boxes and messages they stand for (`plantuml.c4_sequence`).
Generated C4 sequence diagrams are checked against PlantUML's drawing."""

from __future__ import annotations

import random

import pytest

from diagbench.formats.plantuml.c4_sequence import as_sequence
from diagbench.formats.plantuml.read import read_plantuml
from tests.graph_corpus import render_statistics
from tests.graph_grammar import c4_sequence_diagram
from tests.sequence_oracle import render_svgs, sequence_drawing
from tests.sizes import sized

_C4 = "@startuml\n!include <C4/C4_Container>\n"
#: (source, entities, relations, clusters) as PlantUML draws them
CASES = [
    # a one-line footer is not a footer block: what follows it is read
    (_C4 + "title All\nfooter drawn with PlantUML v. %version()\nheader a header\n"
     'SetDefaultLegendEntries("person\\nsystem")\n'
     'Boundary(b1, "Boundary 1") {\n Person(p, "Person", "Optional")\n'
     ' System_Ext(s, "External\\nSystem", "Line one\\nline two")\n}\n'
     'Boundary(b6, "Boundary 6") {\n Enterprise_Boundary(eb, "Enterprise") {\n }\n'
     ' System_Boundary(sb, "System Boundary") {\n }\n Lay_R(eb, sb)\n}\n'
     'Rel(p, s, "uses\\nwith\\nbreaks", "HTTPS\\nJSON")\nSHOW_FLOATING_LEGEND()\n@enduml\n',
     5, 1, 2),
    (_C4 + 'Person(p, "Person")\nSystem(s, "Sys")\nRel(p, s, "uses")\nSHOW_LEGEND()\n@enduml\n',
     2, 1, 0),
    (_C4 + 'Person(p, "Person")\nfooter\nmulti line footer\nend footer\nSystem(s, "Sys")\n'
     'legend right\na legend\nendlegend\nRel(p, s, "uses")\nLAYOUT_WITH_LEGEND()\n@enduml\n',
     2, 1, 0),
    # labels with line breaks, a custom arrow (Rel_), an argument missing its opening quote
    ("@startuml\n!include <C4/C4_Component>\n"
     'Person(p1, "Normal\\nUser", "Descr\\nLine")\n'
     'Container(c1, "Cont\\nLabel", "techn\\nbreak", "Descr")\n'
     'Component(c2, "Comp\\nLabel", comp techn\\nwith break", "Descr\\nBreak")\n'
     'Rel_(p1, c1, "custom\\ndirection", "o-DOWN->>")\n'
     'Rel_(p1, c2, "custom", "techn\\nLB", "o-RIGHT-o")\n'
     'Rel(c1, c2, "A label\\nwith breaks", "techn")\n@enduml\n', 3, 3, 0),
    # C4_Dynamic: Rel_ takes an index first, as RelIndex does
    ("@startuml\n!include <C4/C4_Dynamic>\n"
     'Component(a, "From")\nComponent(b, "To")\n'
     'Rel_("pre1", a, b, "custom dynamic\\nrelation", "o-DOWN->>")\n'
     'Rel(a, b, "dynamic\\nrelation")\nRelIndex(Index(), a, b, "indexed")\n@enduml\n', 2, 3, 0),
]


@pytest.mark.parametrize(("source", "entities", "relations", "clusters"), CASES)
def test_c4_counts(source, entities, relations, clusters):
    counts = read_plantuml(source)[0].counts()
    assert (counts["entities"], counts["relations"], counts["clusters"]) == \
        (entities, relations, clusters)


@pytest.mark.differential
def test_the_cases_are_what_plantuml_draws():
    for (source, *expected), s in zip(CASES, render_statistics([c[0] for c in CASES]),
                                      strict=True):
        assert s is not None, source
        assert [s["entities"], s["relations"], s["clusters"]] == expected, source


def test_c4_sequence_macros_are_sequence_statements():
    text = ('@startuml\n!include <C4/C4_Sequence>\nPerson(a, "Admin")\n'
            'System_Boundary(c1, "Sample, System")\nContainer(web, "Web", "C#", "Does, it")\n'
            'Boundary_End()\nRel(a, web, "Uses", "HTTPS")\nSHOW_LEGEND()\n@enduml\n')
    assert as_sequence(text).splitlines()[2:8] == [
        'participant "Admin" as a', 'box "Sample, System"', 'participant "Web" as web',
        "end box", "a -> web : Uses", "' SHOW_LEGEND()"]
    [parsed] = read_plantuml(text)
    assert parsed.kind == "sequence"
    assert parsed.counts()["participants"] == 2 and parsed.counts()["boxes"] == 1


@pytest.mark.differential
def test_generated_c4_sequence_diagrams_agree_with_plantuml():
    """C4_Sequence draws with teoz, whose SVG marks no element: the drawing is counted on
    the same diagram with teoz turned off after the include."""
    rng = random.Random(30)
    sources = [c4_sequence_diagram(rng) for _ in range(sized(12, 120))]
    drawn = render_svgs([s.replace("<C4/C4_Sequence>\n", "<C4/C4_Sequence>\n"
                                   "!pragma teoz false\n") for s in sources])
    assert sum(svg is not None for svg, _ in drawn) >= 0.8 * len(sources)  # a few time out
    for source, (svg, _) in zip(sources, drawn, strict=True):
        if svg is None:
            continue
        drawing = sequence_drawing(svg)
        [parsed] = read_plantuml(source)
        assert parsed.kind == "sequence", source
        counts = parsed.counts()
        assert (counts["participants"], counts["messages"], counts["boxes"]) == \
            (len(drawing["participants"]), len(drawing["messages"]), drawing["boxes"]), source
