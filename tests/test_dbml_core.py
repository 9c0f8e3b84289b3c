"""The DBML reader through the reference parser @dbml/core in one warm Node process
(`languages.dbml.core`): newer DBML syntax read as @dbml/core reads it, its diagnostics
with line and column, and the process kept warm, restarted after a crash or a time-out,
and never given a source over the size limit."""

from __future__ import annotations

from diagbench.languages.dbml import core as dbml_core
from diagbench.languages.dbml.core import MAX_CHARS, DbmlCore, shared
from diagbench.languages.dbml.read import read_dbml

#: Every newer statement pydbml read as 0 tables: a table partial and its injection, a
#: Records block and a records block inside a table, a check, referential actions and
#: ref settings, negative defaults, array types, a sticky note.
NEWER = """TablePartial stamped [headercolor: #ff0000] {
  created_at timestamp [default: `now()`]
  deleted int [default: -1]
}
Table users {
  id int [pk]
  tags text[]
  ~stamped
  checks {
    `id > 0` [name: 'positive']
  }
}
Table posts {
  id int [pk, check: `id > 0`]
  user_id int
  score float [default: -2.5]
  records (id) {
    1
  }
}
Records users(id) {
  7
}
Ref: posts.user_id > users.id [delete: cascade, update: set null]
Ref shared {
  posts.id - users.id [color: #79AD51]
}
Note todo {
  'two tables'
}
"""


def test_newer_syntax_reads_every_table_column_and_ref():
    parsed = read_dbml(NEWER)[0]
    assert not parsed.diagnostics
    diagram = parsed.diagram
    assert diagram.counts() == {"entities": 2, "relations": 2, "clusters": 0, "notes": 1}
    users, posts = diagram.entities
    assert [c.name for c in users.attributes] == ["id", "tags", "created_at", "deleted"]
    assert [c.type for c in users.attributes] == ["int", "text[]", "timestamp", "int"]
    assert users.attributes[3].default == "-1" and posts.attributes[2].default == "-2.5"
    many_to_one, one_to_one = diagram.relations
    assert (many_to_one.source, many_to_one.target, many_to_one.source_port) == (
        "posts", "users", "user_id")
    assert (many_to_one.source_cardinality, many_to_one.target_cardinality) == ("*", "1")
    assert (one_to_one.label, one_to_one.source_cardinality) == ("shared", "1")
    assert "fk" in posts.attributes[1].flags and (users.line, posts.line) == (5, 13)


def test_refused_source_gives_dbml_core_diagnostics_with_line_and_column():
    errors = read_dbml("Table x {\n  id int [pk\n}\n")[0].errors
    assert [(d.line, d.column, d.text) for d in errors] == [(3, 1, "}")]
    assert str(errors[0]).startswith("line 3, column 1: error: DBML not read:")
    twice = read_dbml("Table a {\n  id int\n}\nTable a {\n  id int\n}\n")[0]
    assert [(d.line, d.column) for d in twice.errors] == [(4, 7)]
    assert twice.diagram.counts()["entities"] == 0


def test_one_warm_process_reads_a_batch_and_is_restarted_after_a_crash_or_time_out():
    core = DbmlCore()
    try:
        answers = core.read_many([f"Table t{k} {{\n  id int\n}}\n" for k in range(20)])
        assert [a.model["tables"][0]["name"] for a in answers if a.model] == [
            f"t{k}" for k in range(20)]
        first = core.process
        assert core.started == 1 and first is not None
        first.kill()
        first.wait()
        again = core.read("Table after {\n  id int\n}\n")
        assert again.ok and core.started == 2 and core.process is not first
        big = "".join(f"Table t{k} {{\n  id int [pk]\n  v int [ref: > t0.id]\n}}\n"
                      for k in range(3000))
        slow = core.read(big, timeout=0.001)
        assert not slow.ok and "took longer than" in slow.diagnostics[0].message
        assert core.process is None
        assert core.read("Table next {\n  id int\n}\n").ok and core.started == 3
    finally:
        core.close()


def test_a_source_read_again_is_answered_without_node_and_a_refusal_is_not_kept(
        monkeypatch, tmp_path):
    core = shared()  # the process's warm one, as the reader and the engine use it
    asked = core.asked
    table, broken = "Table kept_t {\n  id int\n}\n", "Table kept_b {\n  id int\n"
    first = core.read(table)
    assert core.read(table) == first and core.asked == asked + 1
    wrong = core.read(broken)  # the parser's diagnostics: kept
    assert core.read(broken) == wrong and not wrong.ok and core.asked == asked + 2
    assert core.read(table.rstrip("\n")).ok and core.asked == asked + 3  # another text
    later = "Table kept_l {\n  id int\n}\n"
    with monkeypatch.context() as patched:  # the parser uninstalled: refused
        patched.setattr(dbml_core, "TOOL", tmp_path)
        dbml_core.dbml_core_version.cache_clear()
        assert "needs node" in core.read(later).diagnostics[0].message
    dbml_core.dbml_core_version.cache_clear()
    assert core.read(later).ok and core.asked == asked + 4  # the refusal was not kept


def test_a_source_over_the_limit_is_refused_without_a_process():
    core = DbmlCore()
    answer = core.read("Table t {\n  id int\n}\n" + " " * MAX_CHARS)
    assert not answer.ok and "over the 1,000,000-character limit" in answer.diagnostics[0].message
    assert core.started == 0


def test_without_node_or_the_parser_the_reader_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(dbml_core, "TOOL", tmp_path)
    dbml_core.dbml_core_version.cache_clear()
    try:
        answer = DbmlCore().read("Table t {\n  id int\n}\n")
    finally:
        dbml_core.dbml_core_version.cache_clear()
    assert not answer.ok and "needs node and tools/dbml" in answer.diagnostics[0].message


def test_inline_refs_read_as_written_and_primary_key_indexes_mark_their_columns():
    parsed = read_dbml("Table users {\n  id int [pk]\n}\nTable posts {\n"
                       "  author int [ref: > users.id]\n  editor int [ref: - users.id]\n}\n"
                       "Table likes {\n  user_id int\n  post_id int\n"
                       "  indexes {\n    (user_id, post_id) [pk]\n  }\n}\n")[0]
    assert not parsed.diagnostics
    relations = [(r.source, r.source_port, r.target, r.source_cardinality,
                  r.target_cardinality, r.reversed) for r in parsed.diagram.relations]
    assert relations == [("posts", "author", "users", "*", "1", False),
                         ("posts", "editor", "users", "1", "1", False)]
    users, posts, likes = parsed.diagram.entities
    assert [c.flags for c in posts.attributes] == [("fk",), ("fk",)]
    assert [c.flags for c in likes.attributes] == [("pk",), ("pk",)]
    assert users.attributes[0].flags == ("pk",)
