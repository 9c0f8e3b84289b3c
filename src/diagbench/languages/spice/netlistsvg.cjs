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
      const svg = await netlistsvg.render(skin, request.netlist)
      answer(svg ? { id: request.id, svg } : { id: request.id, error: 'netlistsvg drew nothing' })
    } catch (e) {
      answer({ id: request.id, error: String(e && e.message ? e.message : e) })
    }
  })
})
