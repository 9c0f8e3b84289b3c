"""The diff method: git's own diff, grouped and paired as in the paper's Figs. 4-5."""

from __future__ import annotations

from diagbench.compare.diff import pair_lines, relevant
from diagbench.compare.pair import compare_scripts
from diagbench.compare.patch import change_groups, git_diff

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
diff --git a/23122-140_image_data_rId21.puml b/23122-140_image_data_rId21.puml
index 79f8dbd..5b627cf 100644
--- a/23122-140_image_data_rId21.puml
+++ b/23122-140_image_data_rId21.puml
@@ -10,7 +10,7 @@ note over VPLMN
2. Registration procedure initiation
end note

-VPLMN --> HPLMN: Nudm_UECM_Registration request
+VPLMN --> HPLMN: Nudm_UECM_Registration request{S}
"""


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
    groups = change_groups(PATCH)["23007-121_image_datarId30.puml"]
    assert len(groups) == len(FIG5)
    for group, (pairs, unmatched) in zip(map(relevant, groups), FIG5, strict=True):
        got = pair_lines(group)
        assert {(group.removed[p.removed], group.added[p.added], p.distance) for p in got} == pairs
        paired = {p.removed for p in got}
        assert {line for k, line in enumerate(group.removed) if k not in paired} == unmatched


def test_fig4_patch_reads_as_two_files_with_their_line_numbers():
    files = change_groups(PATCH)
    assert list(files) == ["23007-121_image_datarId30.puml", "23122-140_image_data_rId21.puml"]
    first = files["23007-121_image_datarId30.puml"][0]
    assert (first.removed_at, first.added_at) == ([14, 15], [14, 15])  # after 3 context lines
    (last,) = files["23122-140_image_data_rId21.puml"]
    assert (last.removed_at, last.added_at) == ([12], [12])


def test_counted_as_git_aligns_the_lines():
    """difflib keeps gold's `A -> B : x` as the prediction's first line (three deletions,
    then two insertions); git keeps it as the last, so one change block of three removed
    and two added lines, paired by Levenshtein distance: `A -> C : z` with `A -> B : x`
    (2: a node and a label) and the first `B -> A : y` with `A -> B : x` (3: read
    reversed, one direction error, and a label); the other `B -> A : y` is deleted
    (two nodes, a direction, a label)."""
    gold = ["@startuml", "B -> A : y", "B -> A : y", "A -> C : z", "A -> B : x", "@enduml"]
    pred = ["@startuml", "A -> B : x", "A -> B : x", "A -> B : x", "@enduml"]
    (group,) = change_groups(git_diff(gold, pred))["script.puml"]
    assert (group.removed, group.added) == (gold[1:4], pred[1:3])
    result = compare_scripts("\n".join(gold), "\n".join(pred), "diff")
    counts = {k: (v.insertion, v.deletion, v.substitution)
              for k, v in result.components.items() if v.errors}
    assert counts == {"node": (0, 2, 1), "edge_direction": (0, 1, 1), "message": (0, 1, 2)}
    assert result.line_diff is not None
    assert [(p.removed, p.added, p.distance) for p in result.line_diff.pairs] == [
        ("B -> A : y", "A -> B : x", 3), ("A -> C : z", "A -> B : x", 2)]
    assert result.line_diff.unpaired_removed == ["B -> A : y"]
    assert result.line_diff.pairs[0].errors == (("edge_direction", "substitution", 1),
                                                ("message", "substitution", 1))
    assert result.line_diff.patch.startswith("diff --git a/script.puml b/script.puml\n")


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
