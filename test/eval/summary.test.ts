// Per-system aggregation (means over answered questions, latency percentiles, cost, by type) and the
// mapping of a search result's context to ranked passages with their documents.
import { describe, expect, it } from 'vitest'
import type { Corpus } from '../../src/eval/corpus.js'
import { retrievedPassages } from '../../src/eval/passages.js'
import { unreachableEvidence } from '../../src/eval/reachable.js'
import { type AnswerRecord, summarize } from '../../src/eval/summary.js'

const record = (over: Partial<AnswerRecord>): AnswerRecord => ({
  questionId: 'q',
  type: 'local',
  system: 'basic',
  target: 'demo',
  method: 'basic',
  response: '',
  latencyMs: 10,
  calls: 1,
  promptTokens: 100,
  completionTokens: 20,
  costUsd: 0.001,
  metrics: {},
  ...over,
})

describe('summary', () => {
  it('averages each metric where it applies, per system and per type; failed answers only count as errors', () => {
    const [basic] = summarize(
      [
        record({ questionId: 'a', latencyMs: 10, metrics: { answer_recall: 1, mrr: 0.5 } }),
        record({ questionId: 'b', latencyMs: 30, metrics: { answer_recall: 0.5 }, type: 'global' }),
        record({ questionId: 'c', latencyMs: 20, metrics: { answer_recall: 0, mrr: 1 } }),
        record({ questionId: 'd', latencyMs: 0, error: 'no reports', metrics: {} }),
      ],
      [],
    )
    expect(basic).toMatchObject({ system: 'basic', questions: 4, errors: 1, calls: 3, promptTokens: 300 })
    expect(basic!.metrics).toEqual({
      answer_recall: 0.5,
      mrr: 0.75,
      latency_p50_ms: 20,
      latency_p95_ms: 29,
      cost_usd: 0.001,
    })
    expect(basic!.byType).toEqual({ global: { answer_recall: 0.5 }, local: { answer_recall: 0.5, mrr: 0.75 } })
  })

  it('leaves cost out when any answer’s cost is unknown, and adds the win rate from the pairs', () => {
    const pairs = [
      {
        a: 'basic',
        b: 'local',
        criterion: 'relevance',
        winRate: 0.8,
        interval: { low: 0.6, high: 1 },
        wins: 4,
        losses: 1,
        ties: 0,
        p: 0.375,
      },
    ]
    const systems = summarize(
      [record({ costUsd: null }), record({ questionId: 'b' }), record({ system: 'local', method: 'local' })],
      pairs,
    )
    expect(systems[0]!.metrics.cost_usd).toBeUndefined()
    expect(systems[0]!.metrics.win_rate).toBe(0.8)
    expect(systems[1]!.metrics.win_rate).toBeCloseTo(0.2, 12)
  })
})

const corpus: Corpus = (() => {
  const units = [
    { id: 'u1', humanReadableId: 1, text: 'first unit', document: '01-the-harbour.txt' },
    { id: 'u2', humanReadableId: 2, text: 'second unit', document: '02-the-storm.txt' },
  ]
  const reports = [{ community: 7, title: 'Harbour', text: 'report text', documents: ['01-the-harbour.txt'] }]
  return {
    units,
    unitById: new Map(units.map((u) => [u.id, u])),
    unitByReadableId: new Map(units.map((u) => [String(u.humanReadableId), u])),
    reports,
    reportByCommunity: new Map(reports.map((r) => [String(r.community), r])),
  }
})()

describe('retrieved passages', () => {
  it('sources in their order with their document, then reports with their community’s documents', () => {
    const context = {
      sources: [
        { id: 2, text: 'second unit' },
        { id: 1, text: 'first unit' },
      ],
      reports: [{ id: 'x', title: 'Harbour', community: 7 }],
    }
    expect(retrievedPassages({ context }, corpus)).toEqual([
      { text: 'second unit', documents: ['02-the-storm.txt'] },
      { text: 'first unit', documents: ['01-the-harbour.txt'] },
      { text: 'report text', documents: ['01-the-harbour.txt'] },
    ])
  })

  it('hybrid: its text-unit and report sources, looked up by id and title', () => {
    const source = (id: string, kind: 'text_unit' | 'community_report' | 'external', title: string | null) => ({
      label: 'S',
      id,
      kind,
      reason: 'bm25' as const,
      title,
      score_raw: null,
      base_norm: null,
      bonus: null,
      composite_score: null,
      rel_type: null,
      rel_conf: null,
    })
    const hybrid = {
      sources: [
        source('u2', 'text_unit', '02-the-storm.txt'),
        source('e1', 'external', null),
        source('7', 'community_report', 'Harbour'),
      ],
    }
    const passages = retrievedPassages({ context: {}, hybrid: hybrid as never }, corpus)
    expect(passages).toEqual([
      { text: 'second unit', documents: ['02-the-storm.txt'] },
      { text: 'report text', documents: ['01-the-harbour.txt'] },
    ])
  })
})

describe('unreachable evidence', () => {
  it('lists the gold items no text unit supports by document name or quote', () => {
    const question = (id: string, evidence: string[]) => ({
      id,
      question: '?',
      evidence,
      type: 'local',
      assertions: [],
    })
    const questions = [
      question('a', ['02-the-storm', 'second unit', ' Second  UNIT. ']),
      question('b', ['unit second', '…', '03-the-salvage']),
    ]
    // Unit texts are compared normalised, like the evidence.
    const shouting = {
      ...corpus,
      units: corpus.units.map((u) => ({ ...u, text: u.text.toUpperCase().replace(' ', '\n  ') })),
    }
    expect(unreachableEvidence(questions, shouting)).toEqual([
      { questionId: 'b', evidence: 'unit second' },
      { questionId: 'b', evidence: '…' },
      { questionId: 'b', evidence: '03-the-salvage' },
    ])
  })
})
