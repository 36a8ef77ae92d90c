import { afterAll, beforeAll, expect, it } from 'vitest'
import { driftSearch } from '../../src/query/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, userOf } from './support/dulce.js'

describeShared('DRIFT follow-up selection', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({
      embeddingDimension: DULCE_DIMENSION,
      latency: { fixedMs: 20 },
      responders: [
        (req) => {
          if (req.kind === 'drift_primer') {
            return JSON.stringify({ intermediate_answer: '# Primer\n\nStart.', score: 50, follow_up_queries: ['P1?', 'P2?', 'P3?', 'P4?'] })
          }
          if (req.kind !== 'drift_local') return undefined
          const q = userOf(req.body)
          // P1 answers well (90), P2 poorly (10); their follow-ups inherit those scores as priority.
          const score = q === 'P1?' ? 90 : q === 'P2?' ? 10 : 40
          return JSON.stringify({ response: `Answer to ${q}`, score, follow_up_queries: [`${q} deeper A`, `${q} deeper B`] })
        },
      ],
    })
  })
  afterAll(async () => fake?.close())

  it('runs the follow-ups of the best-scored answers first, at most drift_k_followups per epoch, bounded concurrency', async () => {
    const { settings } = fakeProject(fake.baseUrl, 'drift_search:\n  n_depth: 2\n  drift_k_followups: 2\n  primer_folds: 1\n  concurrency: 2')
    const result = await driftSearch({ settings, dataDir: sharedPath('reference', 'msgr-v3-dulce'), query: 'Who leads the squad?' })
    const steps = fake.requests.filter((r) => r.kind === 'drift_local').map((r) => userOf(r.body))
    // Epoch 1: P1, P2 (equal priority 50, table order). Epoch 2: P1's follow-ups (90) beat P3, P4 (50).
    expect(steps.slice(0, 2).sort()).toEqual(['P1?', 'P2?'])
    expect(steps.slice(2).sort()).toEqual(['P1? deeper A', 'P1? deeper B'])
    // At most `concurrency` (2) steps in flight at once.
    const local = fake.requests.filter((r) => r.kind === 'drift_local')
    for (const r of local) expect(local.filter((o) => o.startedAt < r.endedAt && r.startedAt < o.endedAt).length).toBeLessThanOrEqual(2)
    const actions = result.context.actions!
    expect(actions.find((a) => a.query === 'P3?')!.status).toBe('not run')
    const reduce = fake.requests.filter((r) => r.kind === 'drift_reduce')
    expect(reduce).toHaveLength(1)
    expect(JSON.stringify(reduce[0]!.body)).toContain('Answer to P1? deeper A')
  })
})
