// Render many Mermaid diagrams with one headless Chromium (diagbench's Mermaid engine).
// A long-lived process: one job a line on stdin,
//         {"format": "svg"|"png", "out_dir": "...", "timeout_ms": 20000,
//          "items": [{"id": "000003", "code": "graph TD; A-->B"}]}
// stdout: one JSON line per item {"id", "ok", "error", "line", "seconds"},
//         then {"done": true} for the job; the page stays warm until stdin ends.
// With --serve: one JSON request a line on stdin {"id", "op": "read"|"svg", "code"},
// one JSON answer a line {"id", "ok", "error", "line", "kind", "db"|"svg"}: "read" is
// Mermaid's own parser (mermaid.mermaidAPI.getDiagramFromText) and the diagram's
// database it fills (see `database` below), "svg" the drawing; the page stays warm
// until stdin ends.
// One page loads Mermaid once (the page of @mermaid-js/mermaid-cli, with its
// bundled scripts) and then renders diagram after diagram (one page only:
// headless Chromium stalls screenshots of pages in the background). The browser gets no
// network: every request goes to a proxy on a closed port, loopback included;
// Mermaid runs with securityLevel "strict".
import fs from 'node:fs'
import path from 'node:path'
import url from 'node:url'
import readline from 'node:readline'
import puppeteer from 'puppeteer'

const here = path.dirname(url.fileURLToPath(import.meta.url))
const cli = path.join(here, 'node_modules', '@mermaid-js', 'mermaid-cli')
const scripts = [
  path.join(here, 'node_modules', 'mermaid', 'dist', 'mermaid.js'),
  path.join(here, 'node_modules', '@mermaid-js', 'mermaid-zenuml', 'dist', 'mermaid-zenuml.js')
]
const serving = process.argv.includes('--serve')
let job = { format: 'svg' } // the job drawn now
// the browser's profile in the working folder (diagbench's jail, removed with it even
// when the process is killed)
const profile = fs.mkdtempSync(path.join(process.cwd(), 'chromium-'))
const browser = await puppeteer.launch({
  executablePath: process.env.DIAGBENCH_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  userDataDir: profile,
  pipe: true, // the browser ends with this process, even when it is killed
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
    '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>',
    // no renderer processes kept for pages never shown: the spare one kept ready for the
    // next site, and the omnibox pop-ups headless Chromium preloads (about 60 MB)
    '--disable-features=SpareRendererForSitePerProcess,WebUIOmniboxPopup,WebUIOmniboxAimPopup']
})
// the browser's first tab is drawn in rather than left open beside a new one (each tab
// keeps a renderer process of its own)
let firstTab = (await browser.pages())[0]

async function openPage () {
  const page = firstTab ?? await browser.newPage()
  firstTab = undefined
  await page.goto(url.pathToFileURL(path.join(cli, 'dist', 'index.html')).href)
  for (const script of scripts) await page.addScriptTag({ path: script })
  await page.evaluate(async () => {
    await Promise.all(Array.from(document.fonts, (font) => font.load()))
    const { mermaid, 'mermaid-zenuml': zenuml, elkLayouts } = globalThis
    await mermaid.registerExternalDiagrams([zenuml])
    if (elkLayouts) mermaid.registerLayoutLoaders(elkLayouts)
    // a fixed seed: the sketchy shapes of class diagrams (rough.js) are random otherwise
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', handDrawnSeed: 1 })
    document.body.style.background = 'white'
  })
  return page
}

async function draw (page, code) {
  await page.setViewport({ width: 800, height: 600 }) // mermaid-cli's default; lay out each alike
  const svg = await page.$eval('#container', async (container, code) => {
    container.innerHTML = ''
    // one id for every diagram: the drawing does not depend on its place in the batch
    const { svg } = await globalThis.mermaid.render('diagram', code, container)
    container.innerHTML = svg
    const element = container.getElementsByTagName('svg')[0]
    element.style.backgroundColor = 'white'
    return new XMLSerializer().serializeToString(element)
  }, code)
  if (job.format === 'svg') return Buffer.from(svg)
  const clip = await page.$eval('#container svg', (svg) => {
    const box = svg.getBoundingClientRect()
    return { x: Math.floor(box.left), y: Math.floor(box.top), width: Math.ceil(box.width), height: Math.ceil(box.height) }
  })
  await page.setViewport({ width: clip.x + clip.width, height: clip.y + clip.height })
  return page.screenshot({ clip })
}

async function renderOne (lane, item) {
  const start = performance.now()
  const out = { id: item.id, ok: false, error: null, line: null, seconds: 0 }
  let timer
  try {
    const data = await Promise.race([
      draw(lane.page, item.code),
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
    if (out.error.startsWith('timed out')) { // the page may still be busy: take a fresh one
      lane.page.close().catch(() => {})
      lane.page = await openPage()
    }
  } finally {
    clearTimeout(timer)
  }
  out.seconds = (performance.now() - start) / 1000
  process.stdout.write(JSON.stringify(out) + '\n')
}

// The diagram's database as JSON: a Gantt chart's sections and tasks with the dates
// Mermaid computed (`after`, `until`, `excludes`, durations resolved; local time, ISO
// 8601), a mind map's node tree, and for the other kinds the nodes and edges Mermaid
// lays out (`db.getData()`).
async function database (page, code) {
  return page.evaluate(async (code) => {
    const diagram = await globalThis.mermaid.mermaidAPI.getDiagramFromText(code)
    const db = diagram.db
    const iso = (d) => (d instanceof Date && !isNaN(d))
      ? new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19)
      : null
    const kind = diagram.type
    if (kind === 'gantt') {
      const tasks = db.getTasks().map((t) => ({
        id: t.id,
        name: t.task,
        section: t.section,
        start: iso(t.startTime),
        end: iso(t.endTime),
        start_data: t.raw && t.raw.startTime ? (t.raw.startTime.startData || '') : '',
        end_data: t.raw && t.raw.endTime ? (t.raw.endTime.data || '') : '',
        milestone: !!t.milestone,
        vert: !!t.vert,
        done: !!t.done,
        active: !!t.active,
        crit: !!t.crit
      }))
      return {
        kind,
        db: {
          title: db.getDiagramTitle ? db.getDiagramTitle() : '',
          date_format: db.getDateFormat(),
          excludes: db.getExcludes(),
          sections: db.getSections(),
          tasks
        }
      }
    }
    if (kind === 'mindmap') {
      const node = (n) => ({
        id: n.nodeId,
        label: n.descr,
        depth: n.level,
        shape: n.type,
        icon: n.icon || '',
        children: n.children.map(node)
      })
      const root = db.getMindmap()
      return { kind, db: { root: root ? node(root) : null } }
    }
    const data = db.getData ? db.getData() : { nodes: [], edges: [] }
    return {
      kind,
      db: {
        nodes: data.nodes.map((n) => ({
          id: String(n.id), group: !!n.isGroup, shape: n.shape || '', parent: n.parentId || ''
        })),
        edges: data.edges.map((e) => ({
          start: String(e.start), end: String(e.end), stroke: e.stroke || e.thickness || ''
        }))
      }
    }
  }, code)
}

async function serveOne (lane, request) {
  const out = { id: request.id, ok: false, error: null, line: null }
  let timer
  try {
    const work = request.op === 'svg'
      ? draw(lane.page, request.code).then((svg) => ({ svg: svg.toString() }))
      : database(lane.page, request.code)
    Object.assign(out, await Promise.race([work, new Promise((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${request.timeout_ms / 1000} s`)),
        request.timeout_ms || 20000)
    })]))
    out.ok = true
  } catch (err) {
    const message = String(err && err.message ? err.message : err)
    out.error = message.split('\n') // Mermaid's message, without the page's stack
      .filter((l) => l.trim() && !/^\s*at |\.js:\d+:\d+\)?$/.test(l))
      .slice(0, 4).join(' ').slice(0, 300)
    const line = /line (\d+)/i.exec(message)
    out.line = line ? Number(line[1]) : null
    if (out.error.startsWith('timed out')) {
      lane.page.close().catch(() => {})
      lane.page = await openPage()
    }
  } finally {
    clearTimeout(timer)
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}

try {
  const lane = { page: await openPage() }
  if (serving) process.stdout.write(JSON.stringify({ ready: true }) + '\n')
  for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue
    if (serving) {
      await serveOne(lane, JSON.parse(line))
      continue
    }
    job = JSON.parse(line)
    for (const item of job.items) await renderOne(lane, item)
    process.stdout.write(JSON.stringify({ done: true }) + '\n')
  }
} finally {
  await browser.close()
  fs.rmSync(profile, { recursive: true, force: true })
}
