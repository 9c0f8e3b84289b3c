// Draw Yosys-style JSON netlists with netlistsvg's analog skin: diagbench's SPICE engine.
// A long-lived process: one JSON request a line on stdin, {"id": "3", "netlist": {...}},
// one JSON answer a line on stdout, {"id", "svg"} or {"id", "error"}. The first argument
// is the node_modules folder that holds the pinned netlistsvg (tools/netlistsvg).
'use strict'
const fs = require('fs')
const path = require('path')
const readline = require('readline')

const modules = process.argv[2]
const netlistsvg = require(path.join(modules, 'netlistsvg'))
const skin = fs.readFileSync(path.join(modules, 'netlistsvg', 'lib', 'analog.svg'), 'utf-8')

const answer = (value) => process.stdout.write(JSON.stringify(value) + '\n')

// netlistsvg answers nothing when ELK's layout fails, and writes ELK's exception with
// console.error: keep what it writes while it draws (one drawing at a time).
async function saying (draw) {
  const said = []
  const before = console.error
  console.error = (...parts) => said.push(parts.map(String).join(' '))
  try {
    return [await draw(), said]
  } finally {
    console.error = before
  }
}
const undrawn = (said) => said.length
  ? `ELK's layout failed: ${said[0].split('\n')[0]}` : 'netlistsvg drew nothing'
const lines = readline.createInterface({ input: process.stdin, terminal: false })
let queue = Promise.resolve()
lines.on('line', (line) => {
  queue = queue.then(async () => {
    let request
    try {
      request = JSON.parse(line)
    } catch (e) {
      answer({ id: null, error: 'request not JSON' })
      return
    }
    try {
      const [svg, said] = await saying(() => netlistsvg.render(skin, request.netlist))
      answer(svg ? { id: request.id, svg } : { id: request.id, error: undrawn(said) })
    } catch (e) {
      answer({ id: request.id, error: String(e && e.message ? e.message : e) })
    }
  })
})
