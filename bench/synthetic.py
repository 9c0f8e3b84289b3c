"""Synthetic sequence diagrams for the benchmarks, and predictions with planted errors."""

from __future__ import annotations

import random
import re

KINDS = ("participant", "actor", "database", "control", "entity", "queue")
ARROWS = ("->", "-->", "->>", "<-", "<--", "->x", "-[#blue]>", "-\\", "->o")
GROUPS = ("alt", "opt", "loop", "par", "group", "critical")
SERVICES = ("amf_Communication", "smf_PDUSession", "udm_UECM", "ausf_UEAuthentication",
            "pcf_SMPolicyControl", "nrf_NFDiscovery", "nef_EventExposure")
OPERATIONS = ("Create", "Update", "Release", "Subscribe", "Notify", "Transfer", "Get")


def synthetic_diagram(rng: random.Random, lines_between: tuple[int, int] = (20, 200)) -> str:
    """One diagram of about `lines_between` lines mixing the constructs of real call flows."""
    n = rng.randint(3, 9)
    names = [f"NF{k}" for k in range(n)]
    lines = ["@startuml", f"title Procedure {rng.randint(1, 999)}", "autonumber"]
    lines += [f'{rng.choice(KINDS)} "Network Function {k}" as {name} #LightBlue'
              for k, name in enumerate(names)]
    target, depth = rng.randint(*lines_between), 0
    while len(lines) < target - depth - 1:
        roll = rng.random()
        a, b = rng.choice(names), rng.choice(names)
        if roll < 0.70:
            label = (f"{len(lines)}. N{rng.choice(SERVICES)}_{rng.choice(OPERATIONS)} "
                     f"{rng.choice(('Request', 'Response'))}\\n(id {rng.randint(1, 99)})")
            lines.append(f"{a} {rng.choice(ARROWS)} {b} : {label}")
        elif roll < 0.78:
            lines += [f"note over {a}, {b}", "  the UE context is stored", "end note"]
        elif roll < 0.85 and depth < 3:
            lines.append(f"{rng.choice(GROUPS)} condition {len(lines)}")
            depth += 1
        elif roll < 0.92 and depth:
            lines.append("end")
            depth -= 1
        elif roll < 0.96:
            lines.append(f"activate {a}")
        else:
            lines.append("== phase ==")
    lines += ["end"] * depth + ["@enduml"]
    return "\n".join(lines) + "\n"


_MESSAGE = re.compile(r"^(?P<a>NF\d+) (?P<arrow>\S+) (?P<b>NF\d+) : (?P<label>.*)$")


def predicted(gold: str, rng: random.Random, rate: float = 0.05) -> str:
    """`gold` with errors a VLM makes, each message line hit with probability ~`rate` per kind:
    deleted, reversed, relabelled, duplicated, or swapped with the next message."""
    lines = gold.split("\n")
    out: list[str] = []
    k = 0
    while k < len(lines):
        line, m = lines[k], _MESSAGE.match(lines[k])
        roll = rng.random()
        if m is None or roll > 5 * rate:
            out.append(line)
        elif roll < rate:
            pass  # deleted
        elif roll < 2 * rate:
            out.append(f"{m['b']} {m['arrow']} {m['a']} : {m['label']}")
        elif roll < 3 * rate:
            out.append(f"{m['a']} {m['arrow']} {m['b']} : {m['label'][:-3]}xyz")
        elif roll < 4 * rate:
            out += [line, line]
        elif k + 1 < len(lines) and _MESSAGE.match(lines[k + 1]):
            out += [lines[k + 1], line]
            k += 1
        else:
            out.append(line)
        k += 1
    return "\n".join(out)


def synthetic_class_diagram(rng: random.Random) -> str:
    """A PlantUML class diagram of 3-12 classes with attributes and relations."""
    n = rng.randint(3, 12)
    lines = ["@startuml"]
    for k in range(n):
        kind = rng.choice(("class", "class", "interface", "abstract class", "enum"))
        lines.append(f"{kind} C{k} {{")
        lines += [f"  +field{j} : int" for j in range(rng.randint(0, 4))]
        lines.append("}")
    for _ in range(rng.randint(n - 1, 2 * n)):
        a, b = rng.randrange(n), rng.randrange(n)
        lines.append(f"C{a} {rng.choice(('-->', '--|>', '..>', '*--', 'o--'))} C{b}")
    lines.append("@enduml")
    return "\n".join(lines) + "\n"
