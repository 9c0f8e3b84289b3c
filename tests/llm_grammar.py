"""PlantUML class, component and ER diagrams written the way language models write them,
for testing the graph reader on the inputs image-to-code scoring sees most.

Models asked for a diagram of a system write whole documents: a title and skinparams,
packages with quoted names holding Java-like declarations (`class Order extends
BaseEntity implements Serializable {`, `- id: Long`, `+ getTotal(): BigDecimal`), enums
with no space before the brace, stereotypes inside quoted names (`class "Payment Gateway
<<external>>" as PG`), relations written inside a package that name classes the next
package declares (forward references across packages), multiplicities and labels,
notes. `document(rng, kind)` writes one; the oracle is PlantUML's SVG, so the generator
needs no expectation of its own.
"""

from __future__ import annotations

import random

KINDS = ("llm_class", "llm_component", "llm_er")
_DOMAINS = (
    ("Order Management", ("Order", "OrderItem", "OrderStatus", "Invoice")),
    ("Customer Management", ("Customer", "Address", "Account", "LoyaltyCard")),
    ("Product Catalog", ("Product", "Category", "CollectionPoint", "Price")),
    ("Payment", ("Payment", "PaymentMethod", "Transaction", "Refund")),
    ("Logistics", ("Shipment", "Warehouse", "Carrier", "CollectionPoint")),
)
_COMPONENTS = ("[Service {n}] as {alias}", 'component "API {n}" as {alias} <<service>>',
               'database "DB {n}" as {alias}', 'queue "Queue {n}" as {alias}',
               '() "REST {n}" as {alias}')
_TYPES = ("Long", "String", "int", "BigDecimal", "LocalDate", "boolean", "List<Item>")


def _members(rng: random.Random) -> list[str]:
    out = []
    for _ in range(rng.randint(1, 4)):
        name = rng.choice(("id", "name", "total", "createdAt", "status", "email", "amount"))
        out.append(rng.choice((f"  - {name}: {rng.choice(_TYPES)}",
                               f"  -{rng.choice(_TYPES)} {name}",
                               f"  + {name} : {rng.choice(_TYPES)}")))
    for _ in range(rng.randint(0, 3)):
        verb = rng.choice(("get", "set", "calculate", "validate", "find"))
        out.append(rng.choice((f"  + {verb}Total(): {rng.choice(_TYPES)}",
                               f"  +{verb}(id: Long) : void",
                               f"  + {{abstract}} {verb}()", f"  + {{static}} {verb}All()")))
    return out


def _relation(rng: random.Random, a: str, b: str, er: bool = False) -> str:
    if er:
        arrow = rng.choice(("||--o{", "}o--||", "||--|{", "|o--o{", "}|..|{", "||--||"))
    else:
        arrow = rng.choice(("-->", "--", "<|--", "--|>", "..|>", "*--", "o--", "\"1\" --> \"*\"",
                            "\"1\" *-- \"many\"", "..>", "--o", "-up->", "-right->"))
    label = rng.choice(("", "", " : places", " : contains", " : uses >", " : 1..*"))
    return f"{a} {arrow} {b}{label}"


def _header(rng: random.Random, title: str) -> list[str]:
    lines = ["@startuml"]
    if rng.random() < 0.5:
        lines.append(f"title {title}")
    lines += rng.sample(("skinparam classAttributeIconSize 0", "hide empty members",
                         "skinparam linetype ortho", "left to right direction",
                         "skinparam packageStyle rectangle", "!theme plain",
                         "skinparam monochrome true"), rng.randint(0, 3))
    return [line for line in lines if line != "!theme plain"]


def class_document(rng: random.Random) -> str:
    lines = _header(rng, "Domain Model")
    domains = rng.sample(_DOMAINS, rng.randint(1, 4))
    declared: list[str] = []
    for k, (package, classes) in enumerate(domains):
        quoted = rng.random() < 0.7
        lines.append(f'package "{package}" {{' if quoted else
                     f"package {package.split()[0].lower()} {{")
        later = [c for _, cs in domains[k + 1:] for c in cs]
        for name in rng.sample(classes, rng.randint(1, len(classes))):
            if name in declared:
                continue
            form = rng.randrange(6)
            if name.endswith("Status") or form == 0:
                lines += [f"  enum {name}{rng.choice(('{', ' {'))}", "    ACTIVE",
                          "    CLOSED", "  }"]
            elif form == 1:
                lines += [f"  class {name} extends BaseEntity implements Serializable {{",
                          *_members(rng), "  }"]
            elif form == 2:
                lines.append(f'  class "{name} <<{rng.choice(("entity", "aggregate"))}>>" '
                             f"as {name}")
            elif form == 3:
                lines += [f"  interface {name}Repository {{",
                          f"    + findById(id: Long): {name}", "  }",
                          f"  class {name} {{", *_members(rng), "  }"]
                lines.append(f"  {name}Repository ..> {name}")
            elif form == 4:
                lines += [f"  abstract class {name}{{", *_members(rng), "  }"]
            else:
                lines += [f"  class {name} <<{rng.choice(('Entity', 'Service'))}>> {{",
                          *_members(rng), "  }"]
            declared.append(name)
            if rng.random() < 0.5:  # a relation written beside the class, maybe forward
                lines.append("  " + _relation(rng, name, rng.choice(declared + later)))
        lines.append("}")
    for _ in range(rng.randint(0, 5)):
        lines.append(_relation(rng, rng.choice(declared), rng.choice(declared)))
    if rng.random() < 0.3:
        lines += [f"note right of {rng.choice(declared)}", "  Aggregate root", "end note"]
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def component_document(rng: random.Random) -> str:
    lines = _header(rng, "System Architecture")
    refs: list[str] = []
    groups = rng.sample((("package", "Frontend"), ("node", "Backend Server"),
                         ("cloud", "AWS"), ("package", "Data Layer"),
                         ("rectangle", "External Services"), ("frame", "Monitoring")),
                        rng.randint(1, 4))
    for k, (keyword, title) in enumerate(groups):
        lines.append(f'{keyword} "{title}" {{' if rng.random() < 0.8 else
                     f"{keyword} {title.split()[0]} {{")
        for j in range(rng.randint(1, 3)):
            alias = f"c{k}{j}"
            lines.append("  " + rng.choice(_COMPONENTS).format(n=f"{k}{j}", alias=alias))
            refs.append(alias)
        if rng.random() < 0.4 and len(refs) > 1:
            lines.append(f"  {refs[-1]} --> {rng.choice(refs[:-1])} : calls")
        lines.append("}")
    if rng.random() < 0.5:
        lines.append('actor "User" as user')
        refs.append("user")
    for _ in range(rng.randint(1, 6)):
        a, b = rng.choice(refs), rng.choice(refs)
        arrow = rng.choice(("-->", "..>", "->", "--", "-down->", "-right->"))
        label = rng.choice(("", " : HTTPS", " : SQL", " : publishes", " : REST/JSON"))
        lines.append(f"{a} {arrow} {b}{label}")
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def er_document(rng: random.Random) -> str:
    lines = _header(rng, "Entity Relationship Diagram")
    if rng.random() < 0.5:
        lines.append("hide circle")
    tables = rng.sample(("customer", "order", "order_item", "product", "category",
                         "payment", "address"), rng.randint(2, 6))
    in_package = rng.random() < 0.3
    if in_package:
        lines.append('package "Sales Schema" {')
    for name in tables:
        form = rng.randrange(3)
        if form == 0:
            head = f'entity "{name.replace("_", " ").title()}" as {name} {{'
        elif form == 1:
            head = f"entity {name} {{"
        else:
            head = f"entity {name}{{"
        lines += [head, "  * id : number <<generated>>", "  --",
                  f"  * {rng.choice(tables)}_id : number <<FK>>", "  name : text", "}"]
    if in_package:
        lines.append("}")
    for _ in range(rng.randint(1, 6)):
        lines.append(_relation(rng, rng.choice(tables), rng.choice(tables), er=True))
    lines.append("@enduml")
    return "\n".join(lines) + "\n"


def document(rng: random.Random, kind: str) -> str:
    """One diagram of `kind` (one of KINDS)."""
    return {"llm_class": class_document, "llm_component": component_document,
            "llm_er": er_document}[kind](rng)
