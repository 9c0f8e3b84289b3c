// Read DBML with the pinned reference parser @dbml/core: diagbench's DBML reader and the
// first half of its DBML engine. A long-lived process: one JSON request a line on stdin,
// {"id": "3", "code": "Table a { id int }"}, one JSON answer a line on stdout,
// {"id", "ok", "diagnostics": [{"message", "line", "column"}], "model"}: @dbml/core's
// diagnostics (1-based line and column) when it refuses the source, else its model:
// {"tables": [{"schema", "name", "alias", "note", "group", "line", "columns": [{"name",
// "type", "pk", "unique", "not_null", "increment", "default", "note"}]}],
// "refs": [{"name", "line", "ends": [{"schema", "table", "columns", "relation"}]}],
// "groups": [{"schema", "name", "line", "tables": [[schema, name]]}],
// "notes": [{"name", "content", "line"}], "enums": [{"schema", "name", "values"}]}.
// A ref's ends are in the order written; a column is "pk" by its settings or a
// primary-key index; a default is {"type": "number"|"string"|"boolean"|"expression",
// "value"} or null.
import readline from 'node:readline'
import { Parser } from '@dbml/core'

// The 1-based line where each element (by its normalised id) starts, per kind, and the
// ids of the refs written inline in a table's body (`[ref: > t.c]`), whose endpoints
// @dbml/core keeps referenced end first (a partial's inline refs keep the written order).
function lines (db) {
  const at = { tables: {}, refs: {}, tableGroups: {}, notes: {}, inline: new Set() }
  const put = (kind, element) => {
    if (element && element.token) at[kind][element.id] = element.token.start.line
  }
  const bodies = db.schemas.flatMap((s) => s.tables).filter((t) => t.token)
    .map((t) => [t.token.start.offset, t.token.end.offset])
  for (const schema of db.schemas) {
    schema.tables.forEach((t) => put('tables', t))
    schema.refs.forEach((r) => {
      put('refs', r)
      const at0 = r.token ? r.token.start.offset : -1
      if (bodies.some(([a, b]) => a <= at0 && at0 <= b)) at.inline.add(r.id)
    })
    schema.tableGroups.forEach((g) => put('tableGroups', g))
  }
  ;(db.notes || []).forEach((n) => put('notes', n))
  return at
}

// The names of a table's columns in a primary-key index (`indexes { (a, b) [pk] }`).
function indexKeys (n, t) {
  return new Set(t.indexIds.map((i) => n.indexes[i]).filter((i) => i.pk)
    .flatMap((i) => i.columnIds.map((c) => n.indexColumns[c]))
    .filter((c) => c.type === 'column').map((c) => c.value))
}

function model (code) {
  const db = Parser.parse(code, 'dbmlv2')
  const n = db.normalize()
  const at = lines(db)
  const schema = (id) => (n.schemas[id] ? n.schemas[id].name : 'public')
  // a type names its schema once: an enum's type_name leaves it out, an unknown one keeps it
  const type = (t) => (!t ? '' : !t.schemaName || t.type_name.startsWith(`${t.schemaName}.`)
    ? t.type_name : `${t.schemaName}.${t.type_name}`)
  return {
    tables: Object.values(n.tables).map((t) => [t, indexKeys(n, t)]).map(([t, keys]) => ({
      schema: schema(t.schemaId),
      name: t.name,
      alias: t.alias ?? null,
      note: t.note ?? null,
      group: t.groupId != null && n.tableGroups[t.groupId] ? n.tableGroups[t.groupId].name : null,
      line: at.tables[t.id] ?? 0,
      columns: t.fieldIds.map((f) => n.fields[f]).map((f) => ({
        name: f.name,
        type: type(f.type),
        pk: Boolean(f.pk) || keys.has(f.name),
        unique: Boolean(f.unique),
        not_null: Boolean(f.not_null),
        increment: Boolean(f.increment),
        default: f.dbdefault ? { type: f.dbdefault.type, value: String(f.dbdefault.value) } : null,
        note: f.note ?? null
      }))
    })),
    refs: Object.values(n.refs).map((r) => ({
      name: r.name ?? null,
      line: at.refs[r.id] ?? 0,
      ends: (at.inline.has(r.id) ? [...r.endpointIds].reverse() : r.endpointIds)
        .map((e) => n.endpoints[e]).map((e) => ({
        schema: e.schemaName ?? 'public',
        table: e.tableName,
        columns: e.fieldNames,
        relation: e.relation
      }))
    })),
    groups: Object.values(n.tableGroups).map((g) => ({
      schema: schema(g.schemaId),
      name: g.name,
      line: at.tableGroups[g.id] ?? 0,
      tables: g.tableIds.map((t) => [schema(n.tables[t].schemaId), n.tables[t].name])
    })),
    notes: Object.values(n.notes).map((x) => ({
      name: x.name, content: x.content, line: at.notes[x.id] ?? 0
    })),
    enums: Object.values(n.enums).map((x) => ({
      schema: schema(x.schemaId),
      name: x.name,
      values: x.valueIds.map((v) => n.enumValues[v].name)
    }))
  }
}

function diagnostics (err) {
  if (err && Array.isArray(err.diags) && err.diags.length) {
    return err.diags.map((d) => ({
      message: String(d.message),
      line: d.location && d.location.start ? d.location.start.line : null,
      column: d.location && d.location.start ? d.location.start.column : null
    }))
  }
  return [{ message: String(err && err.message ? err.message : err), line: null, column: null }]
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of input) {
  if (!line.trim()) continue
  const out = { id: null, ok: false, diagnostics: [], model: null }
  try {
    const request = JSON.parse(line)
    out.id = request.id
    out.model = model(String(request.code))
    out.ok = true
  } catch (err) {
    out.diagnostics = diagnostics(err)
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
