// Read BPMN 2.0 XML with the pinned reference model bpmn-moddle: diagbench's BPMN reader.
// A long-lived process: one JSON request a line on stdin, {"id": "3", "code": "<?xml …"},
// one JSON answer a line on stdout, {"id", "ok", "diagnostics", "warnings", "model"}:
// bpmn-moddle's error (with its 1-based line and column where it gives them) when it
// refuses the document, else its warnings and the model, every element by its id:
// {"nodes": [{"id", "type", "name", "definitions", "process", "parent", "attached_to"}],
//  "flows": [{"id", "kind": "sequence"|"message", "source", "target", "name",
//             "condition", "default"}],
//  "lanes": [{"id", "name", "process", "parent", "nodes"}],
//  "pools": [{"id", "name", "process"}], "data": [{"id", "type", "name", "process"}],
//  "processes": [id], "shapes": number of diagram-interchange elements}.
// A node's type is its BPMN type without the prefix ("userTask", "startEvent",
// "exclusiveGateway"), its definitions the types of its event definitions
// ("messageEventDefinition"), its process the process it is in, its parent the
// sub-process it is in (null at the top of its process).
import readline from 'node:readline'
import { BpmnModdle } from 'bpmn-moddle'
import { diagnostic } from './diagnostic.mjs'

const moddle = new BpmnModdle()
const local = (type) => type.replace(/^bpmn:(.)/, (_, first) => first.toLowerCase())
const DATA = new Set(['bpmn:DataObjectReference', 'bpmn:DataStoreReference'])
const SKIPPED = new Set(['bpmn:SequenceFlow', 'bpmn:DataObject'])

function model (definitions) {
  const out = { nodes: [], flows: [], lanes: [], pools: [], data: [], processes: [], shapes: 0 }
  const text = (value) => (value == null ? '' : String(value))
  function flowElements (container, process, parent) {
    for (const element of container.flowElements || []) {
      if (element.$type === 'bpmn:SequenceFlow') {
        out.flows.push({
          id: element.id,
          kind: 'sequence',
          source: element.sourceRef ? element.sourceRef.id : null,
          target: element.targetRef ? element.targetRef.id : null,
          name: text(element.name),
          condition: element.conditionExpression ? text(element.conditionExpression.body) : '',
          default: Boolean(element.sourceRef && element.sourceRef.default === element)
        })
      } else if (DATA.has(element.$type)) {
        out.data.push({ id: element.id, type: local(element.$type), name: text(element.name), process })
      } else if (!SKIPPED.has(element.$type)) {
        out.nodes.push({
          id: element.id,
          type: local(element.$type),
          name: text(element.name),
          definitions: (element.eventDefinitions || []).map((d) => local(d.$type)),
          process,
          parent,
          attached_to: element.attachedToRef ? element.attachedToRef.id : null
        })
        if (element.flowElements) flowElements(element, process, element.id)
      }
    }
  }
  function laneSets (sets, process, parent) {
    for (const set of sets || []) {
      for (const lane of set.lanes || []) {
        out.lanes.push({
          id: lane.id,
          name: text(lane.name),
          process,
          parent,
          nodes: (lane.flowNodeRef || []).map((n) => n.id)
        })
        if (lane.childLaneSet) laneSets([lane.childLaneSet], process, lane.id)
      }
    }
  }
  for (const root of definitions.rootElements || []) {
    if (root.$type === 'bpmn:Process') {
      out.processes.push(root.id)
      flowElements(root, root.id, null)
      laneSets(root.laneSets, root.id, null)
    } else if (root.$type === 'bpmn:Collaboration') {
      for (const participant of root.participants || []) {
        out.pools.push({
          id: participant.id,
          name: text(participant.name),
          process: participant.processRef ? participant.processRef.id : null
        })
      }
      for (const flow of root.messageFlows || []) {
        out.flows.push({
          id: flow.id,
          kind: 'message',
          source: flow.sourceRef ? flow.sourceRef.id : null,
          target: flow.targetRef ? flow.targetRef.id : null,
          name: text(flow.name),
          condition: '',
          default: false
        })
      }
    }
  }
  for (const diagram of definitions.diagrams || []) {
    out.shapes += diagram.plane && diagram.plane.planeElement ? diagram.plane.planeElement.length : 0
  }
  return out
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of input) {
  if (!line.trim()) continue
  const out = { id: null, ok: false, diagnostics: [], warnings: [], model: null }
  try {
    const request = JSON.parse(line)
    out.id = request.id
    const read = await moddle.fromXML(String(request.code), 'bpmn:Definitions')
    out.warnings = read.warnings.map(diagnostic)
    out.model = model(read.rootElement)
    out.ok = true
  } catch (error) {
    out.diagnostics = [diagnostic(error)]
  }
  process.stdout.write(JSON.stringify(out) + '\n')
}
