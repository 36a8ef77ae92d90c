import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createConsoleReporter } from '../../src/cli/console-reporter.js'
import { createChatModel } from '../../src/llm/index.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions, HELLO } from '../llm/helpers.js'

function capture(props: Record<string, unknown>) {
  const chunks: string[] = []
  return { chunks, stream: { ...props, write: (text: string) => chunks.push(text) } }
}

const LIVE = { retries: 3, waitingCalls: 1, longestWaitSeconds: 28.4 }

describe('retries and waiting calls in the progress line', () => {
  it('lines (CI): the progress and end lines carry "3 retries, 1 call waiting 28 s"', () => {
    const { chunks, stream } = capture({ isTTY: false })
    const reporter = createConsoleReporter({ stream })
    reporter.watch?.((workflow) =>
      workflow === 'extract_graph' ? LIVE : { retries: 0, waitingCalls: 0, longestWaitSeconds: 0 },
    )
    reporter.workflowStart('extract_graph')
    reporter.progress('extract_graph', 'graph extraction', 4, 4)
    reporter.workflowEnd('extract_graph', { seconds: 1, rows: {}, failures: 0, skipped: false })
    reporter.workflowStart('create_communities')
    reporter.workflowEnd('create_communities', { seconds: 1, rows: {}, failures: 0, skipped: false })
    const out = chunks.join('')
    expect(out).toMatch(/graph extraction 4\/4.* · 3 retries, 1 call waiting 28 s\n/)
    expect(out).toMatch(/extract_graph done in .* · 3 retries, 1 call waiting 28 s\n/)
    expect(out).toMatch(/create_communities done in [^·]*\n/)
  })

  it('spinner: the text shows them too', () => {
    const { chunks, stream } = capture({
      isTTY: true,
      columns: 120,
      cursorTo: () => true,
      clearLine: () => true,
      moveCursor: () => true,
    })
    const reporter = createConsoleReporter({ stream, interactive: true })
    reporter.watch?.(() => ({ retries: 1, waitingCalls: 0, longestWaitSeconds: 0 }))
    reporter.workflowStart('extract_graph')
    reporter.progress('extract_graph', 'graph extraction', 1, 4)
    reporter.workflowEnd('extract_graph', { seconds: 1, rows: {}, failures: 0, skipped: false })
    expect(chunks.join('')).toContain('· 1 retry')
  })
})

describe('UsageMeter.waiting', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ latency: { fixedMs: 400 } })
  })
  afterAll(() => fake.close())

  it('counts calls in flight longer than the threshold, with the longest wait', async () => {
    const meter = new UsageMeter(undefined)
    const call = createChatModel(fakeOptions(fake), { meter }).complete({ messages: HELLO })
    await new Promise((resolve) => setTimeout(resolve, 250))
    const waiting = meter.waiting(200)
    expect(waiting.calls).toBe(1)
    expect(waiting.longestMs).toBeGreaterThanOrEqual(200)
    expect(meter.waiting(5000).calls).toBe(0)
    await call
    expect(meter.waiting(0).calls).toBe(0)
  })
})
