import { describe, expect, it } from 'vitest'
import { costUsd, priceFor, priceOfModel } from '../../src/llm/pricing.js'
import { UsageMeter } from '../../src/llm/usage.js'

describe('prices and usage', () => {
  it('matches dated snapshots by the longest known prefix and honours overrides', () => {
    expect(priceFor('gpt-4.1-mini-2025-04-14')).toEqual({ inputPer1m: 0.4, outputPer1m: 1.6 })
    expect(priceFor('gpt-4.1')).toEqual({ inputPer1m: 2, outputPer1m: 8 })
    expect(priceFor('openai/gpt-4o-mini')).toEqual({ inputPer1m: 0.15, outputPer1m: 0.6 })
    expect(priceFor('text-embedding-3-large')?.inputPer1m).toBe(0.13)
    expect(priceFor('llama3.1:8b')).toBeUndefined()
    expect(priceFor('claude-sonnet-4-5-20250929')).toEqual({ inputPer1m: 3, outputPer1m: 15 })
    expect(priceFor('us.anthropic.claude-3-5-sonnet-20240620-v1:0')?.inputPer1m).toBe(3)
    expect(priceFor('amazon.titan-embed-text-v2:0')?.inputPer1m).toBe(0.02)
    expect(priceFor('gemini/gemini-2.5-flash-lite')?.outputPer1m).toBe(0.4)
    expect(priceFor('some-finetune-nobody-knows')).toBeUndefined()
    expect(priceOfModel('ollama', 'llama3.2', undefined)).toEqual({ inputPer1m: 0, outputPer1m: 0 })
    expect(priceOfModel('hosted_vllm', 'my-model', undefined)).toBeUndefined()
    expect(priceFor('gpt-4.1', { inputPer1m: 1, outputPer1m: 1 })).toEqual({ inputPer1m: 1, outputPer1m: 1 })
    expect(costUsd({ inputPer1m: 2, outputPer1m: 8 }, 1_000_000, 500_000)).toBeCloseTo(6, 10)
  })

  it('counts calls, cache hits, failures and busy wall time', async () => {
    const meter = new UsageMeter(priceFor('gpt-4.1'))
    const began = performance.now()
    const a = meter.start()
    const b = meter.start()
    await new Promise((r) => setTimeout(r, 50))
    a('ok')
    b('cached')
    meter.start()('failed')
    meter.retry()
    meter.tokens(1000, 100)
    const elapsed = (performance.now() - began) / 1000
    const usage = meter.snapshot()
    expect(usage).toMatchObject({
      calls: 3,
      cacheHits: 1,
      failures: 1,
      retries: 1,
      promptTokens: 1000,
      completionTokens: 100,
    })
    expect(usage.wallSeconds).toBeGreaterThanOrEqual(0.04)
    // Busy time is the union of the calls' intervals: two overlapping calls count once, so it cannot exceed the time that passed.
    expect(usage.wallSeconds).toBeLessThanOrEqual(elapsed)
    expect(usage.costUsd).toBeCloseTo(0.0028, 10)
    expect(usage.unpricedTokens).toBe(0)
  })

  it('reports the tokens of a model without a price as unpriced instead of costing them $0', () => {
    const unknown = new UsageMeter(priceFor('llama3.1:8b'))
    unknown.start()('ok')
    unknown.tokens(1200, 300)
    expect(unknown.snapshot()).toMatchObject({ costUsd: 0, unpricedTokens: 1500 })
    // A model without a price that spent nothing (all answers cached) has a known cost: zero.
    const cachedOnly = new UsageMeter(undefined)
    cachedOnly.start()('cached')
    expect(cachedOnly.snapshot()).toMatchObject({ costUsd: 0, unpricedTokens: 0 })
    // A price from settings makes the same model priced.
    const overridden = new UsageMeter(priceFor('llama3.1:8b', { inputPer1m: 1, outputPer1m: 2 }))
    overridden.tokens(1_000_000, 1_000_000)
    expect(overridden.snapshot()).toMatchObject({ costUsd: 3, unpricedTokens: 0 })
  })

  it('prices the offline local embedder at zero, whatever its model name', () => {
    expect(priceOfModel('local', 'hashing-384', undefined)).toEqual({ inputPer1m: 0, outputPer1m: 0 })
    expect(priceOfModel('openai', 'hashing-384', undefined)).toBeUndefined()
    expect(priceOfModel('azure', 'gpt-4.1', undefined)).toEqual(priceFor('gpt-4.1'))
  })
})
