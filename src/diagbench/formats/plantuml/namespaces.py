"""PlantUML's namespaces in class, object and ER diagrams: which entity or package a
name means, as PlantUML resolves it.

Every name PlantUML meets is a node of one tree (PlantUML calls them quarks), split at
the namespace separator (`.` unless `set separator X` / `set namespaceSeparator X`
says otherwise; `none` splits nothing). A name is resolved against the package being
written (the current group):

- with no separator, a name anywhere in the tree is found first; otherwise it is created
  in the current group;
- a name starting with the separator is absolute;
- a plain name, when a link or member line refers to it (`reuse`) and exactly one node
  of the tree has that name, is that node (unless it is the current group); otherwise it
  is (created) in the current group — so a link inside `package P` naming `X` before `X`
  is declared elsewhere creates `P.X`, and a declaration (`class X`) never reuses;
- a qualified name whose first part is a top-level node is absolute, otherwise it is
  created below the current group.

Every node stays in the tree once named (its name counts for later look-ups); a node
with no entity of its own and something below it is drawn as a package.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

Path = tuple[str, ...]


@dataclass(slots=True)
class Namespaces:
    """The tree of names of one diagram, and its separator (None: `set separator none`)."""

    separator: str | None = "."
    paths: set[Path] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)
    first: dict[str, Path] = field(default_factory=dict)

    keys: dict[Path, str] = field(default_factory=dict)

    def key(self, path: Path) -> str:
        """The id of the node at `path`: its parts joined by `.` (whatever the separator),
        numbered when that names another node already (`set separator none`, `::`)."""
        found = self.keys.get(path)
        if found is None:
            found = base = ".".join(path)
            taken = set(self.keys.values())
            n = 1
            while found in taken:
                n += 1
                found = f"{base}#{n}"
            self.keys[path] = found
        return found

    def child(self, base: Path, name: str) -> Path:
        """The node `name` below `base`, created (with the nodes between) when new."""
        sep = self.separator
        parts = [p for p in name.split(sep) if p] if sep else [name]
        path = base
        for part in parts or [name]:
            path = (*path, part)
            if path not in self.paths:
                self.paths.add(path)
                self.counts[part] += 1
                self.first.setdefault(part, path)
        return path

    def locate(self, current: Path, name: str, reuse: bool) -> Path:
        """The node `name` means when written inside the group at `current`."""
        sep = self.separator
        if sep is None:
            return self.first.get(name) or self.child(current, name)
        if name.startswith(sep):
            return self.child((), name[len(sep):])
        if sep not in name:
            if reuse and self.counts[name] == 1 and self.first[name] != current:
                return self.first[name]
            return self.child(current, name)
        if (name.split(sep, 1)[0],) in self.paths:
            return self.child((), name)
        return self.child(current, name)
