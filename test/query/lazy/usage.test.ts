// Lazy search's relevance tests may run on another model: their step is priced at that model's
// price, and the report splits usage per model.
import { describe, expect, it } from 'vitest'
import { usageByModel } from '../../../src/query/lazy/report.js'
import { UsageMeter } from '../../../src/query/usage.js'

const MINI = { inputPer1m: 0.4, outputPer1m: 1.6 }
const NANO = { inputPer1m: 0.1, outputPer1m: 0.4 }

describe('usage per model', () => {
  it('prices the relevance step at its own model and the rest at the chat model', () => {
    const meter = new UsageMeter(MINI, undefined)
    meter.priceStep('relevance', NANO)
    meter.record('relevance', 1_000_000, 0)
    meter.record('answer', 1_000_000, 1_000_000)
    expect(meter.summary().costUsd).toBeCloseTo(0.1 + 0.4 + 1.6, 10)
    const rows = usageByModel(meter.summary(), { model: 'mini', price: MINI }, { model: 'nano', price: NANO })
    expect(rows).toEqual([
      { role: 'answer', model: 'mini', calls: 1, prompt_tokens: 1_000_000, completion_tokens: 1_000_000, cost_usd: 2 },
      { role: 'relevance', model: 'nano', calls: 1, prompt_tokens: 1_000_000, completion_tokens: 0, cost_usd: 0.1 },
    ])
  })

  it('is unknown (null) when a step with tokens has no known price', () => {
    const meter = new UsageMeter(MINI, undefined)
    meter.priceStep('relevance', undefined)
    meter.record('relevance', 10, 0)
    expect(meter.summary().costUsd).toBeNull()
    expect(
      usageByModel(meter.summary(), { model: 'm', price: MINI }, { model: 'x', price: undefined })[1]!.cost_usd,
    ).toBeNull()
  })
})
