"""The diff method reproduces the pairings and distances of the paper's Fig. 5."""

from __future__ import annotations

from diagbench.compare.diff import ChangeGroup, change_groups, pair_lines, relevant
from diagbench.compare.pair import compare_scripts

# Fig. 4 of the paper. Git lists some added lines that look identical to the removed
# ones (groups 2 and 3, and the last file): they must differ by an invisible
# character, and Fig. 5's distances (one more than the visible edits) say which.
# We write it as a trailing space. In group 5, Fig. 5 shows `-->` arrows where
# Fig. 4 shows `->`; we use Fig. 5's text, whose distances agree with it.
R2a = r"2a. Update Bearer Request\n(PGW Change Info)"
R2b = r"2b. Update Bearer Request\n(PGW Change Info)"
R4 = r"4. Create Session Request\n(PGW Change Indication)"
S = " "  # the invisible difference
PATCH = rf"""diff --git a/23007-121_image_datarId30.puml b/23007-121_image_datarId30.puml
index 7ff5191..91e9ac0 100644
--- a/23007-121_image_datarId30.puml
+++ b/23007-121_image_datarId30.puml
@@ -12,25 +12,23 @@ note over PGWA, PGWB
to a PDN connection
end note

-PGWA<->: e.g. scale-in
-PGWB <->: e.g. PCF reseleacts a\neww PGW-C/SMF
+PGWA <-> PGWA: e.g. scale-in
+PGWB <-> PGWB: e.g. PCF reseleacts a\neww PGW-C/SMF

-PGWA --> SGW: {R2a}
-SGW --> MME: {R2a}
-MME --> SGW: 3a. Update Bearer Response
-SGW --> PGWA: 3a. Update Bearer Response
+HSS --> MME: {R2a}{S}
+HSS --> SGW: {R2a}{S}
+MME --> HSS: 3a. Update Bearer Response{S}
+SGW --> HSS: 3a. Update Bearer Response{S}

-MME <-> SGW: {R2b}
-SGW <-> PGWB: {R2b}
-MME --> SGW: 3b. Update Bearer Response
-SGW --> PGWB: 3b. Update Bearer Response
+MME <-> SGW: {R2b}{S}
+MME --> SGW: 3b. Update Bearer Response{S}

-MME -> SGW: {R4}
+MME -> PGWB: {R4}
-SGW -> PGWB: {R4}
-PGWB -> SGW: 5. Create Session Response
-SGW -> MME: 5. Create Session Response
+PGWB --> MME: 5. Create Session Response
+PGWB --> SGW: 5. Create Session Response

-MME -> HSS: 6. Notify (PGW-B FQDN)
-MME <- HSS: 7. Notify response
+MME <- SGW: 6. Notify (PGW-B FQDN)
+MME -> SGW: 7. Notify response

@enduml
"""


def groups_from_patch(patch: str) -> dict[str, list[ChangeGroup]]:
    """The change blocks of each file of a unified diff (git's patch format)."""
    files: dict[str, list[ChangeGroup]] = {}
    current: list[ChangeGroup] = []
    group: ChangeGroup | None = None
    for line in patch.splitlines():
        if line.startswith("+++ "):
            name = line[4:].removeprefix("b/")
            current = files.setdefault(name, [])
            group = None
        elif line.startswith(("--- ", "diff ", "index ", "@@")):
            group = None
        elif line.startswith("-"):
            if group is None or group.added:
                group = ChangeGroup()
                current.append(group)
            group.removed.append(line[1:])
        elif line.startswith("+"):
            if group is None:
                group = ChangeGroup()
                current.append(group)
            group.added.append(line[1:])
        else:
            group = None
    return files


# Fig. 5: per group, the (removed, added, distance) pairs and the unmatched removed lines.
FIG5 = [
    ({("PGWA<->: e.g. scale-in", "PGWA <-> PGWA: e.g. scale-in", 6),
      (r"PGWB <->: e.g. PCF reseleacts a\neww PGW-C/SMF",
       r"PGWB <-> PGWB: e.g. PCF reseleacts a\neww PGW-C/SMF", 5)}, set()),
    ({(f"PGWA --> SGW: {R2a}", f"HSS --> SGW: {R2a} ", 5),
      (f"SGW --> MME: {R2a}", f"HSS --> MME: {R2a} ", 4),
      ("MME --> SGW: 3a. Update Bearer Response", "MME --> HSS: 3a. Update Bearer Response ", 4),
      ("SGW --> PGWA: 3a. Update Bearer Response", "SGW --> HSS: 3a. Update Bearer Response ",
       5)}, set()),
    ({(f"MME <-> SGW: {R2b}", f"MME <-> SGW: {R2b} ", 1),
      ("MME --> SGW: 3b. Update Bearer Response", "MME --> SGW: 3b. Update Bearer Response ",
       1)},
     {f"SGW <-> PGWB: {R2b}", "SGW --> PGWB: 3b. Update Bearer Response"}),
    ({(f"MME -> SGW: {R4}", f"MME -> PGWB: {R4}", 2)}, set()),
    ({("PGWB -> SGW: 5. Create Session Response", "PGWB --> SGW: 5. Create Session Response", 1),
      ("SGW -> MME: 5. Create Session Response", "PGWB --> MME: 5. Create Session Response", 3)},
     {f"SGW -> PGWB: {R4}"}),  # Fig. 5 leaves this unpaired line out of its listing
    ({("MME -> HSS: 6. Notify (PGW-B FQDN)", "MME <- SGW: 6. Notify (PGW-B FQDN)", 5),
      ("MME <- HSS: 7. Notify response", "MME -> SGW: 7. Notify response", 5)}, set()),
]


def test_patch_groups_pairs_and_distances_match_fig5():
    groups = groups_from_patch(PATCH)["23007-121_image_datarId30.puml"]
    assert len(groups) == len(FIG5)
    for group, (pairs, unmatched) in zip(map(relevant, groups), FIG5, strict=True):
        got = pair_lines(group)
        assert {(group.removed[p.removed], group.added[p.added], p.distance) for p in got} == pairs
        paired = {p.removed for p in got}
        assert {line for k, line in enumerate(group.removed) if k not in paired} == unmatched


def test_difflib_groups_are_the_change_blocks():
    gold = ["@startuml", "A -> B : 1", "B -> C : 2", "x", "C -> D : 3", "@enduml"]
    pred = ["@startuml", "A -> B : one", "x", "C -> D : 3", "D -> E : 4", "@enduml"]
    groups, same = change_groups(gold, pred)
    assert [(g.removed, g.added) for g in groups] == [
        (["A -> B : 1", "B -> C : 2"], ["A -> B : one"]), ([], ["D -> E : 4"])]
    assert (3, 2) in same


def test_diff_method_counts_a_small_pair_by_hand():
    gold = "@startuml\nparticipant A\nA -> B : hello\nB --> A : ok\nnote over A : n\n@enduml\n"
    pred = "@startuml\nactor A\nB -> A : hello\nB -> A : okay\n@enduml\n"
    c = compare_scripts(gold, pred, "diff").components
    # line 2: actor vs participant is not counted; line 3: drawn the other way round (one
    # direction substitution, no node error); line 4: dotted -> solid and label; note deleted.
    assert {k: (v.gold, v.insertion, v.deletion, v.substitution) for k, v in c.items()} == {
        "participant": (2, 0, 0, 0), "node": (4, 0, 0, 0), "edge_direction": (2, 0, 0, 1),
        "edge_type": (2, 0, 0, 1), "message": (2, 0, 0, 1), "note": (1, 0, 1, 0),
        "group": (0, 0, 0, 0), "box": (0, 0, 0, 0)}
