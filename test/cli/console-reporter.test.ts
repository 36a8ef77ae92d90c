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

  it('ends with the totals, and a line per model (cost unknown for an unpriced one) only when several were used', () => {
    const usage = (calls: number, costUsd: number, unpricedTokens = 0) => ({
      calls,
      cacheHits: 1,
      retries: 0,
      failures: 0,
      promptTokens: calls * 100,
      completionTokens: calls * 10,
      wallSeconds: 1,
      costUsd,
      unpricedTokens,
    })
    const info = { seconds: 3, outputDir: '/tmp/out', tables: [{ name: 'entities', rows: 12 }], vectorStore: undefined }
    const chat = { id: 'default_completion_model', model: 'harbour-llama-7b', usage: usage(10, 0, 1100) }
    const embedding = { id: 'default_embedding_model', model: 'text-embedding-3-small', usage: usage(2, 0.0042) }

    const two = capture({ isTTY: false })
    createConsoleReporter({ stream: two.stream }).pipelineEnd({
      ...info,
      usage: usage(12, 0.0042, 1100),
      usageByModel: [chat, embedding],
    })
    const lines = two.chunks.join('').split('\n')
    expect(lines).toContain(
      'Model usage: 12 calls, 1 cache hits, 1,200 prompt + 120 completion tokens, $0.0042 + unknown (default_completion_model)',
    )
    expect(lines).toContain(
      '  default_completion_model (harbour-llama-7b): 10 calls, 1 cache hits, 1,000 prompt + 100 completion tokens, cost unknown',
    )
    expect(lines).toContain(
      '  default_embedding_model (text-embedding-3-small): 2 calls, 1 cache hits, 200 prompt + 20 completion tokens, $0.0042',
    )

    const one = capture({ isTTY: false })
    createConsoleReporter({ stream: one.stream }).pipelineEnd({
      ...info,
      usage: usage(10, 0, 1100),
      usageByModel: [chat],
    })
    const out = one.chunks.join('')
    expect(out).toContain('1,000 prompt + 100 completion tokens, cost unknown\n')
    expect(out).not.toContain('  default_completion_model')
    expect(out).not.toContain('$0')
  })

  it('names a failed workflow without repeating the cause (the CLI prints it once)', () => {
    const { chunks, stream } = capture({ isTTY: false })
    createConsoleReporter({ stream }).workflowFailed(
      'extract_graph',
      '6 of 8 text units failed (first: unit-b: HTTP 500)',
    )
    expect(chunks.join('')).toMatch(/^\[\d\d:\d\d:\d\d\] extract_graph failed\n$/)
  })
})
