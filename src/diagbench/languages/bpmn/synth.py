"""Seeded BPMN processes without diagram interchange (the engine lays them out with
bpmn-auto-layout): a start event, then blocks in sequence — a task, an exclusive choice
(a named gateway whose "yes" and "no" branches each hold a task, joined again; one at
least in every process), a
parallel split of two tasks (joined again) or a timer wait — then an end event. Task
types (user, service, manual, …) and names are the generator's choice, every name
distinct."""

from __future__ import annotations

import random
from xml.sax.saxutils import quoteattr

#: Tasks per complexity (at least, at most).
TASKS = {"low": (3, 5), "medium": (6, 9), "high": (10, 14)}
_TYPES = ("task", "userTask", "serviceTask", "manualTask", "sendTask", "receiveTask",
          "scriptTask", "businessRuleTask")
_VERBS = ("Check", "Approve", "Review", "Send", "Archive", "Prepare", "Record", "Verify",
          "Assign", "Notify", "Ship", "Invoice", "File", "Update", "Schedule", "Close")
_OBJECTS = ("order", "invoice", "claim", "contract", "payment", "request", "report",
            "shipment", "offer", "ticket", "account", "delivery")
_QUESTIONS = ("Approved?", "In stock?", "Complete?", "Valid?", "Urgent?", "Paid?",
              "Accepted?", "Signed?")
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" '
        'id="Definitions_1" targetNamespace="http://bpmn.io/schema/bpmn">\n'
        '  <bpmn:process id="Process_1" isExecutable="false">\n')


class _Writer:
    """The process's elements and flows as they are written."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.ids = 0
        self.names: set[str] = set()

    def ident(self, tag: str) -> str:
        self.ids += 1
        return f"{tag[0].upper()}{tag[1:]}_{self.ids}"

    def element(self, tag: str, name: str = "", attributes: str = "", body: str = "") -> str:
        ident = self.ident(tag)
        named = f" name={quoteattr(name)}" if name else ""
        self.lines.append(f'    <bpmn:{tag} id="{ident}"{named}{attributes}' +
                          (f">{body}</bpmn:{tag}>" if body else " />"))
        return ident

    def flow(self, source: str, target: str, name: str = "") -> None:
        self.element("sequenceFlow", name, f' sourceRef="{source}" targetRef="{target}"')

    def task(self) -> str:
        while True:
            name = f"{self.rng.choice(_VERBS)} {self.rng.choice(_OBJECTS)}"
            if name not in self.names:
                self.names.add(name)
                return self.element(self.rng.choice(_TYPES), name)


def synth_bpmn(rng: random.Random, complexity: str) -> str:
    """A process of `complexity` "low", "medium" or "high" (see the module)."""
    low, high = TASKS[complexity]
    wanted = rng.randint(low, high)
    out = _Writer(rng)
    last = out.element("startEvent", "Start")
    questions = list(_QUESTIONS)
    rng.shuffle(questions)
    tasks, chosen = 0, False
    choice_at = rng.randrange(wanted - 1)  # the tasks before the exclusive choice, at least
    while tasks < wanted:
        left = wanted - tasks
        block = rng.random() if left >= 2 else 0.0
        if left >= 2 and not chosen and (tasks >= choice_at or left <= 3):
            block = 0.5  # every process has an exclusive choice
        if block < 0.45:
            step = out.task()
            out.flow(last, step)
            last, tasks = step, tasks + 1
        elif block < 0.7 and questions:
            chosen = True
            split = out.element("exclusiveGateway", questions.pop())
            join = out.element("exclusiveGateway")
            for branch in ("yes", "no"):
                step = out.task()
                out.flow(split, step, branch)
                out.flow(step, join)
            out.flow(last, split)
            last, tasks = join, tasks + 2
        elif block < 0.9:
            split, join = out.element("parallelGateway"), out.element("parallelGateway")
            for _ in range(2):
                step = out.task()
                out.flow(split, step)
                out.flow(step, join)
            out.flow(last, split)
            last, tasks = join, tasks + 2
        else:
            timer = f'<bpmn:timerEventDefinition id="{out.ident("timer")}" />'
            wait = out.element("intermediateCatchEvent", "Wait a day", body=timer)
            out.flow(last, wait)
            last = wait
    end = out.element("endEvent", "Done")
    out.flow(last, end)
    return HEAD + "\n".join(out.lines) + "\n  </bpmn:process>\n</bpmn:definitions>\n"
