// Draw many BPMN diagrams with bpmn-js in one headless Chromium (diagbench's BPMN engine).
// A long-lived process: one job a line on stdin, {"out_dir": "...", "timeout_ms": 20000,
// "items": [{"id": "000003", "code": "<?xml …"}]}; on stdout one JSON line per item
// {"id", "ok", "error", "line", "seconds", "laid_out"}, then {"done": true} for the job;
// each drawing is written as <id>.svg in out_dir. The browser and its page serve every
// job until stdin ends.
// A document without diagram interchange (no shape or edge) is first laid out by
// bpmn-auto-layout (here, in Node: the first process only); bpmn-js then imports it
// in one page, loaded once, and saves its SVG (`saveSVG`, page.html marks each drawn
// element's type). The browser gets no network: every request goes to a proxy on a
// closed port, loopback included.
import fs from 'node:fs'
import readline from 'node:readline'
import path from 'node:path'
import url from 'node:url'
import puppeteer from 'puppeteer-core'
import { BpmnModdle } from 'bpmn-moddle'
import { layoutProcess } from 'bpmn-auto-layout'
import { diagnostic } from './diagnostic.mjs'

const here = path.dirname(url.fileURLToPath(import.meta.url))
const moddle = new BpmnModdle()
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
  await page.setViewport({ width: 1200, height: 900 })
  await page.goto(url.pathToFileURL(path.join(here, 'page.html')).href)
  await page.waitForFunction(() => typeof window.draw === 'function')
  return page
}

// Every flow node's `incoming` and `outgoing` sequence flows, from the flows' own ends
// (bpmn-auto-layout walks these lists, which a document may leave out).
function linkFlows (container) {
  for (const element of container.flowElements || []) {
    if (element.$type === 'bpmn:SequenceFlow') {
      for (const [end, list] of [[element.sourceRef, 'outgoing'], [element.targetRef, 'incoming']]) {
        if (!end) continue
        end.set(list, end.get(list) || [])
        if (!end.get(list).includes(element)) end.get(list).push(element)
      }
    }
    if (element.flowElements) linkFlows(element)
  }
}

// The document with diagram interchange: itself, or laid out by bpmn-auto-layout.
async function laidOut (xml) {
  const { rootElement } = await moddle.fromXML(xml, 'bpmn:Definitions')
  const shapes = (rootElement.diagrams || [])
    .reduce((n, d) => n + (d.plane && d.plane.planeElement ? d.plane.planeElement.length : 0), 0)
  if (shapes) return [xml, false]
  for (const root of rootElement.rootElements || []) {
    if (root.$type === 'bpmn:Process') linkFlows(root)
  }
  const { xml: linked } = await moddle.toXML(rootElement)
  return [await layoutProcess(linked), true]
}

async function draw (page, code) {
  const [xml, laid] = await laidOut(code)
  const { svg } = await page.evaluate((xml) => window.draw(xml), xml)
  return [svg, laid]
}

async function renderOne (lane, job, item) {
  const start = performance.now()
  const out = { id: item.id, ok: false, error: null, line: null, seconds: 0, laid_out: false }
  let timer
  try {
    const [svg, laid] = await Promise.race([
      draw(lane.page, item.code),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${job.timeout_ms / 1000} s`)),
          job.timeout_ms)
      })
    ])
    fs.writeFileSync(path.join(job.out_dir, `${item.id}.svg`), svg)
    out.ok = true
    out.laid_out = laid
  } catch (err) {
    const { message, line } = diagnostic(err)
    out.error = message.slice(0, 300)
    out.line = line
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

try {
  const lane = { page: await openPage() }
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
  for await (const line of input) {
    if (!line.trim()) continue
    const job = JSON.parse(line)
    for (const item of job.items) await renderOne(lane, job, item)
    process.stdout.write(JSON.stringify({ done: true }) + '\n')
  }
} finally {
  await browser.close()
  fs.rmSync(profile, { recursive: true, force: true })
}
