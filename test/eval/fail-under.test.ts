// --fail-under: parsing the gates, which systems they apply to, the direction of latency and cost
// gates, and a gated metric that was not measured.
import { describe, expect, it } from 'vitest'
import { checkGates, describeFailure, parseGate } from '../../src/eval/fail-under.js'
import type { SystemSummary } from '../../src/eval/summary.js'

const system = (name: string, metrics: SystemSummary['metrics']): SystemSummary => ({
  system: name,
  target: 'demo',
  method: name.split('/').pop()!,
  questions: 4,
  errors: 0,
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  metrics,
  byType: {},
})

const SYSTEMS = [
  system('basic', { answer_recall: 0.7, latency_p95_ms: 40 }),
  system('hybrid', { answer_recall: 0.85, latency_p95_ms: 900 }),
]

describe('--fail-under', () => {
  it('parses metric=value and system.metric=value (system names may hold dots and slashes)', () => {
    expect(parseGate('answer_recall=0.8')).toEqual({ metric: 'answer_recall', bound: 0.8 })
    expect(parseGate('hybrid.mrr=0.5')).toEqual({ system: 'hybrid', metric: 'mrr', bound: 0.5 })
    expect(parseGate('idx.v2/hybrid.cost_usd=0.01')).toEqual({
      system: 'idx.v2/hybrid',
      metric: 'cost_usd',
      bound: 0.01,
    })
    expect(() => parseGate('recall=0.8')).toThrow(/unknown metric "recall" \(metrics: answer_recall, /)
    expect(() => parseGate('mrr=')).toThrow(/expected metric=number/)
    expect(() => parseGate('mrr=high')).toThrow(/expected metric=number/)
    expect(() => parseGate('mrr')).toThrow(/expected metric=number/)
  })

  it('fails a score below its bound, for every system or the one named', () => {
    const failures = checkGates([parseGate('answer_recall=0.8')], SYSTEMS)
    expect(failures).toEqual([{ system: 'basic', metric: 'answer_recall', bound: 0.8, value: 0.7 }])
    expect(describeFailure(failures[0]!)).toBe('basic.answer_recall = 0.7000 is below 0.8')
    expect(checkGates([parseGate('hybrid.answer_recall=0.85')], SYSTEMS)).toEqual([])
    expect(checkGates([parseGate('hybrid.answer_recall=0.86')], SYSTEMS)).toHaveLength(1)
    // With several indexes a method name gates that method on each of them.
    const two = [system('a/hybrid', { mrr: 0.4 }), system('b/hybrid', { mrr: 0.6 }), system('b/basic', { mrr: 0.1 })]
    expect(checkGates([parseGate('hybrid.mrr=0.5')], two).map((f) => f.system)).toEqual(['a/hybrid'])
  })

  it('latency and cost gates are ceilings: they fail above the bound', () => {
    const failures = checkGates([parseGate('latency_p95_ms=500')], SYSTEMS)
    expect(failures.map(describeFailure)).toEqual(['hybrid.latency_p95_ms = 900 is above 500'])
    expect(checkGates([parseGate('latency_p95_ms=900')], SYSTEMS)).toEqual([])
  })

  it('fails a gate on a metric that was not measured, and refuses a gate naming no system of the run', () => {
    const failures = checkGates([parseGate('basic.correctness=0.5')], SYSTEMS)
    expect(failures.map(describeFailure)).toEqual(['basic.correctness was not measured (gate 0.5)'])
    expect(() => checkGates([parseGate('lazy.mrr=0.5')], SYSTEMS)).toThrow(
      '--fail-under lazy.mrr: no system "lazy" in this run (basic, hybrid)',
    )
  })
})
