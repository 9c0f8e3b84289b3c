// Parse DBML with the pinned reference parser @dbml/core (diagbench's DBML engine and
// the reference counts of its DBML reader).
// stdin: {"items": [{"id": "000003", "code": "Table a { id int }"}]}
// stdout: one JSON line per item {"id", "ok", "error", "line", "model"}: the error of
// the first diagnostic with its 1-based line, or the model: {"tables": [{"schema",
// "name", "alias", "note", "group", "columns": [{"name", "type", "pk", "unique",
// "not_null", "increment", "note"}]}], "refs": [{"name", "ends": [{"schema", "table",
// "columns", "relation"}]}], "groups": [{"schema", "name", "tables": [[schema, name]]}],
// "notes": [{"name", "content"}], "enums": [{"schema", "name", "values"}]}.
import fs from 'node:fs'
import { Parser } from '@dbml/core'

const job = JSON.parse(fs.readFileSync(0, 'utf8'))

function model (code) {
  const n = Parser.parse(code, 'dbmlv2').normalize()
  const schema = (id) => (n.schemas[id] ? n.schemas[id].name : 'public')
  const groups = Object.values(n.tableGroups)
  return {
    tables: Object.values(n.tables).map((t) => ({
      schema: schema(t.schemaId),
      name: t.name,
      alias: t.alias ?? null,
      note: t.note ?? null,
      group: t.groupId != null && n.tableGroups[t.groupId] ? n.tableGroups[t.groupId].name : null,
      columns: t.fieldIds.map((f) => n.fields[f]).map((f) => ({
        name: f.name,
        type: f.type ? (f.type.schemaName ? `${f.type.schemaName}.` : '') + f.type.type_name : '',
        pk: Boolean(f.pk),
        unique: Boolean(f.unique),
        not_null: Boolean(f.not_null),
        increment: Boolean(f.increment),
        note: f.note ?? null
      }))
    })),
    refs: Object.values(n.refs).map((r) => ({
      name: r.name ?? null,
      ends: r.endpointIds.map((e) => n.endpoints[e]).map((e) => ({
        schema: e.schemaName ?? 'public',
        table: e.tableName,
        columns: e.fieldNames,
        relation: e.relation
      }))
    })),
    groups: groups.map((g) => ({
      schema: schema(g.schemaId),
      name: g.name,
      tables: g.tableIds.map((t) => [schema(n.tables[t].schemaId), n.tables[t].name])
    })),
    notes: Object.values(n.notes).map((x) => ({ name: x.name, content: x.content })),
    enums: Object.values(n.enums).map((x) => ({
      schema: schema(x.schemaId),
      name: x.name,
      values: x.valueIds.map((v) => n.enumValues[v].name)
    }))
  }
}

for (const item of job.items) {
  const out = { id: item.id, ok: false, error: null, line: null, model: null }
  try {
    out.model = model(item.code)
    out.ok = true
  } catch (err) {
    const diag = err && Array.isArray(err.diags) && err.diags.length ? err.diags[0] : null
    const message = diag ? diag.message : String(err && err.message ? err.message : err)
    out.error = message.split('\n').filter((l) => l.trim()).slice(0, 2).join(' ').slice(0, 300)
    out.line = diag && diag.location && diag.location.start ? diag.location.start.line : null
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
