// Render many Mermaid diagrams with one headless Chromium (diagbench's Mermaid engine).
// stdin: {"format": "svg"|"png", "out_dir": "...", "timeout_ms": 20000, "pages": 4,
//         "items": [{"id": "000003", "code": "graph TD; A-->B"}]}
// stdout: one JSON line per item {"id", "ok", "error", "line", "seconds"},
//         then {"browser_launches": 1}.
// The browser gets no network: every request goes to a proxy on a closed port,
// loopback included; Mermaid runs with securityLevel "strict".
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import puppeteer from 'puppeteer'
import { renderMermaid } from '@mermaid-js/mermaid-cli'

const job = JSON.parse(fs.readFileSync(0, 'utf8'))
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'diagbench-chromium-'))
const browser = await puppeteer.launch({
  executablePath: process.env.DIAGBENCH_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>']
})
console.warn = () => {} // mermaid-cli echoes the page console on stderr

async function renderOne (item) {
  const start = performance.now()
  const out = { id: item.id, ok: false, error: null, line: null, seconds: 0 }
  let timer
  try {
    const { data } = await Promise.race([
      renderMermaid(browser, item.code, job.format, {
        backgroundColor: 'white',
        mermaidConfig: { securityLevel: 'strict' }
      }),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${job.timeout_ms / 1000} s`)),
          job.timeout_ms)
      })
    ])
    fs.writeFileSync(path.join(job.out_dir, `${item.id}.${job.format}`), data)
    out.ok = true
  } catch (err) {
    const message = String(err && err.message ? err.message : err)
    out.error = message.split('\n').filter((l) => l.trim()).slice(0, 2).join(' ').slice(0, 300)
    const line = /line (\d+)/i.exec(message)
    out.line = line ? Number(line[1]) : null
  } finally {
    clearTimeout(timer)
  }
  out.seconds = (performance.now() - start) / 1000
  process.stdout.write(JSON.stringify(out) + '\n')
}

try {
  // Each render mostly waits on the page; a few pages at once keep the cores busy.
  const queue = [...job.items]
  const lanes = Array.from({ length: Math.max(1, job.pages || 4) }, async () => {
    while (queue.length) await renderOne(queue.shift())
  })
  await Promise.all(lanes)
} finally {
  await browser.close()
  fs.rmSync(profile, { recursive: true, force: true })
}
process.stdout.write(JSON.stringify({ browser_launches: 1 }) + '\n')
