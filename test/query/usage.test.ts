import { describe, expect, it } from 'vitest'
import { priceFor, priceOfModel } from '../../src/llm/pricing.js'
import { UsageMeter } from '../../src/query/usage.js'

describe('search usage', () => {
  it('gives a search a null cost when tokens went to a model without a price, and 0 when none did', () => {
    const unpriced = new UsageMeter(undefined, priceFor('text-embedding-3-small'))
    unpriced.recordEmbedding(100)
    expect(unpriced.summary().costUsd).toBeCloseTo(0.000002, 12)
    unpriced.record('map', 1000, 100)
    expect(unpriced.summary().costUsd).toBeNull()
    const free = new UsageMeter(priceFor('gpt-4.1'), priceOfModel('local', 'hashing-384', undefined))
    free.recordEmbedding(500)
    expect(free.summary().costUsd).toBe(0)
  })
})
