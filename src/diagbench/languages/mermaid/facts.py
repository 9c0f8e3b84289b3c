"""The facts STRUDEL's task types ask about a Gantt chart or a mind map, each with one
exact answer read off the model Mermaid's own parser gave (questions with a tie or an
ambiguous name are not asked)."""

from __future__ import annotations

from collections import Counter

from diagbench.diagram.facts import Fact
from diagbench.languages.mermaid.gantt import Gantt
from diagbench.languages.mermaid.mindmap import MindMap


def gantt_facts(chart: Gantt) -> list[Fact]:
    """Which task ends last, which starts first, how many task bars a section holds and
    the chart has, how many milestones."""
    facts = [Fact("quantification", "tasks", "How many task bars does the Gantt chart "
                  "show?", chart.counts()["tasks"]),
             Fact("quantification", "milestones", "How many milestones does the Gantt chart "
                  "show?", chart.counts()["milestones"])]
    dated = [t for t in chart.tasks if t.bar and t.start and t.end]
    names = Counter(t.name for t in dated)
    for subject, question, pick in (
            ("last_task", "Which task ends last?", max(t.end for t in dated) if dated else ""),
            ("first_task", "Which task starts first?",
             min(t.start for t in dated) if dated else "")):
        field = "end" if subject == "last_task" else "start"
        found = [t for t in dated if getattr(t, field) == pick]
        if len(found) == 1 and names[found[0].name] == 1:
            facts.append(Fact("identification", subject, question, found[0].name))
    for section in chart.drawn_sections:
        facts.append(Fact("quantification", "tasks_in_section",
                          f'How many task bars are in the section "{section}"?',
                          sum(t.bar for t in chart.in_section(section))))
    return facts


def mindmap_facts(mind: MindMap) -> list[Fact]:
    """The root's label, its branch with the most nodes below it, how many children the
    root has, the depth of the tree, how many nodes, and the parent of each node whose
    label (and its parent's) is drawn once."""
    if mind.root is None:
        return []
    nodes = mind.nodes()
    labels = Counter(n.label for n, _, _ in nodes)
    facts = [Fact("quantification", "root_children", "How many children does the root node "
                  f'"{mind.root.label}" have?', len(mind.root.children)),
             Fact("structural", "depth", "How many levels below the root does the deepest "
                  "node of the mind map lie?", mind.depth),
             Fact("quantification", "nodes", "How many nodes does the mind map have?",
                  len(nodes)),
             Fact("identification", "root", "What is the label of the central (root) node "
                  "of the mind map?", mind.root.label)]
    sizes = {child.label: len(list(child.walk())) for child in mind.root.children}
    largest = [label for label, n in sizes.items() if n == max(sizes.values(), default=0)]
    if len(largest) == 1 and labels[largest[0]] == 1:
        facts.append(Fact("identification", "largest_branch", "Which child of the root "
                          "node has the most nodes in its branch (itself included)?",
                          largest[0]))
    for node, _, parent in nodes:
        if parent is not None and node.label and labels[node.label] == 1 \
                and labels[parent.label] == 1:
            facts.append(Fact("structural", "parent", f'Which node is the parent of '
                              f'"{node.label}"?', parent.label))
    return facts
