import { describe, expect, it } from 'vitest'
import { createConsoleReporter } from '../../src/cli/console-reporter.js'

function capture(props: { isTTY?: boolean; columns?: number }) {
  const chunks: string[] = []
  return { chunks, stream: { ...props, write: (text: string) => chunks.push(text) } }
}

const end = { seconds: 1.25, rows: { entities: 12 }, failures: 0, skipped: false }

describe('console reporter', () => {
  it('writes timestamped lines, throttled progress and a final table when not interactive', () => {
    const { chunks, stream } = capture({ isTTY: false })
    const reporter = createConsoleReporter({ stream })
    reporter.workflowStart('extract_graph')
    reporter.progress('extract_graph', 'text units', 0, 10)
    reporter.progress('extract_graph', 'text units', 5, 10)
    reporter.progress('extract_graph', 'text units', 10, 10)
    reporter.workflowEnd('extract_graph', end)
    const out = chunks.join('')
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\] Starting workflow: extract_graph$/m)
    expect(out).toMatch(/text units 10\/10/)
    expect(out).not.toMatch(/text units 5\/10/)
    expect(out).toMatch(/extract_graph done in .*\(entities: 12\)/)
    expect(out).not.toMatch(/\u001b\[/)
  })

  it('falls back to plain lines on a terminal that reports no width instead of spinning', () => {
    // A pty with no window size reports 0 columns; a spinner there would erase endlessly.
    const { chunks, stream } = capture({ isTTY: true, columns: 0 })
    const reporter = createConsoleReporter({ stream })
    reporter.workflowStart('create_communities')
    reporter.workflowEnd('create_communities', end)
    const out = chunks.join('')
    expect(out).toMatch(/Starting workflow: create_communities/)
    expect(out).not.toMatch(/\u001b\[/)
    expect(out.length).toBeLessThan(500)
  })
})
