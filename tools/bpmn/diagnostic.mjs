// bpmn-moddle's error or warning as diagbench reports it: its first line (with the
// nested error, if any) and its 1-based line and column ("…\n\tline: 3\n\tcolumn: 8\n\t…",
// 0-based there), null where it gives none.
export function diagnostic (error) {
  const message = String(error && error.message ? error.message : error)
  const line = /\bline: (\d+)/.exec(message)
  const column = /\bcolumn: (\d+)/.exec(message)
  const nested = /nested error: (.*)/.exec(message)
  return {
    message: message.split('\n')[0] + (nested ? `: ${nested[1]}` : ''),
    line: line ? Number(line[1]) + 1 : null,
    column: column ? Number(column[1]) + 1 : null
  }
}
