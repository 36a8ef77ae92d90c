import { describe, expect, it } from 'vitest'
import { createConsoleReporter } from '../../src/cli/console-reporter.js'

describe('console reporter: store retries (issue 47 item 10)', () => {
  it('shows the store resends on the progress line beside model retries, and nothing while there are none', () => {
    const chunks: string[] = []
    const reporter = createConsoleReporter({ stream: { isTTY: false, write: (text: string) => chunks.push(text) } })
    let store = 0
    reporter.watch?.(() => ({ retries: 2, waitingCalls: 0, longestWaitSeconds: 0, storeRetries: store }))
    reporter.workflowStart('extract_graph')
    reporter.progress('extract_graph', 'text units', 10, 10)
    store = 1
    reporter.progress('extract_graph', 'entities', 10, 10)
    store = 1_204
    reporter.progress('extract_graph', 'relationships', 10, 10)
    const lines = chunks
      .join('')
      .split('\n')
      .filter((l) => l.includes(' 10/10'))
    expect(lines[0]).toMatch(/· 2 retries$/)
    expect(lines[1]).toMatch(/· 2 retries, 1 store retry$/)
    expect(lines[2]).toMatch(/· 2 retries, 1,204 store retries$/)
  })
})
