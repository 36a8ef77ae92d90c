import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COMMUNITY_REPORTS, type CommunityReportRow } from '../../src/model/index.js'
import { driftSearch } from '../../src/query/index.js'
import { decodeParquet } from '../../src/storage/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { startFakeLlm, type FakeLlm, type ResponderRequest } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, userOf } from './support/dulce.js'
import { maxOverlap } from './support/overlap.js'

/** The HyDE reply; the fake server embeds it as report 7's stored vector, making report 7 the most similar. */
const HYDE = 'A hypothetical answer shaped like a report.'
const ORDER_QUESTION = 'Who leads the squad?'
const FOLD_QUESTION = 'Which fold knows best?'
const WIDE_QUESTION = 'What are all the open questions?'

describeShared('DRIFT follow-up selection', () => {
  let fake: FakeLlm
  let lead: CommunityReportRow
  const data = () => sharedPath('reference', 'msgr-v3-dulce')

  function primer(prompt: string): string {
    const reply = (score: number, followUps: string[]) =>
      JSON.stringify({ intermediate_answer: '# Primer\n\nStart.', score, follow_up_queries: followUps })
    if (prompt.includes(`Question: ${FOLD_QUESTION}`)) {
      // The first fold holds report 7 and scores low; the second fold scores high.
      return prompt.includes(`# ${lead.title}\n`)
        ? reply(10, ['Low 1?', 'Low 2?', 'Low 3?'])
        : reply(90, ['High 1?', 'High 2?', 'High 3?'])
    }
    if (prompt.includes(`Question: ${WIDE_QUESTION}`))
      return reply(
        50,
        Array.from({ length: 8 }, (_, i) => `Wide ${i + 1}?`),
      )
    return reply(50, ['P1?', 'P2?', 'P3?', 'P4?'])
  }

  function respond(req: ResponderRequest): string | undefined {
    const user = userOf(req.body)
    if (req.kind === 'unknown' && user.startsWith('Write a hypothetical answer')) return HYDE
    if (req.kind === 'drift_primer') return primer(user)
    if (req.kind !== 'drift_local') return undefined
    // P1 answers well (90), P2 poorly (10); their follow-ups inherit those scores as priority.
    const score = user === 'P1?' ? 90 : user === 'P2?' ? 10 : 40
    // Wide steps answer at length (~0.5 s at 1 ms per token), so steps in flight together overlap even on a busy machine.
    const response = user.startsWith('Wide') ? `Answer to ${user} ${'More detail. '.repeat(150)}` : `Answer to ${user}`
    return JSON.stringify({ response, score, follow_up_queries: [`${user} deeper A`, `${user} deeper B`] })
  }

  beforeAll(async () => {
    lead = decodeParquet(
      COMMUNITY_REPORTS,
      readFileSync(`${data()}/community_reports.parquet`),
      'community_reports',
    ).find((r) => r.community === 7)!
    const store = await openVectorStore(`${data()}/lancedb`)
    const leadVector = Array.from((await store.vectorsById('community_full_content', [lead.id])).get(lead.id)!)
    store.close()
    fake = await startFakeLlm({
      embeddingDimension: DULCE_DIMENSION,
      latency: { fixedMs: 5, perTokenMs: 1 },
      fixedEmbeddings: { [HYDE]: leadVector },
      responders: [respond],
    })
  })
  afterAll(async () => fake?.close())

  const search = (question: string, driftSettings: string) => {
    fake.requests.length = 0
    const { settings } = fakeProject(fake.baseUrl, `drift_search:\n${driftSettings}`)
    return driftSearch({ settings, dataDir: data(), query: question })
  }
  const steps = () => fake.requests.filter((r) => r.kind === 'drift_local')

  it('runs the follow-ups of the best-scored answers first, at most drift_k_followups per epoch', async () => {
    const result = await search(
      ORDER_QUESTION,
      '  n_depth: 2\n  drift_k_followups: 2\n  primer_folds: 1\n  concurrency: 2',
    )
    const asked = steps().map((r) => userOf(r.body))
    // Epoch 1: P1, P2 (equal priority 50, fold order). Epoch 2: P1's follow-ups (90) beat P3, P4 (50).
    expect(asked.slice(0, 2).sort()).toEqual(['P1?', 'P2?'])
    expect(asked.slice(2).sort()).toEqual(['P1? deeper A', 'P1? deeper B'])
    const actions = result.context.actions!
    expect(actions.find((a) => a.query === 'P3?')!.status).toBe('not run')
    const reduce = fake.requests.filter((r) => r.kind === 'drift_reduce')
    expect(reduce).toHaveLength(1)
    expect(JSON.stringify(reduce[0]!.body)).toContain('Answer to P1? deeper A')
  })

  it('ranks the primer questions by the score of the fold that asked them', async () => {
    const result = await search(FOLD_QUESTION, '  n_depth: 1\n  drift_k_followups: 4\n  primer_folds: 2')
    // Report 7 is the nearest to the HyDE answer, so it opens the first (low-scoring) fold.
    expect(result.context.primer_reports![0]!.id).toBe(7)
    expect(fake.requests.filter((r) => r.kind === 'drift_primer')).toHaveLength(2)
    // 6 questions, 4 run: the second fold's three, then the first fold's first.
    expect(
      steps()
        .map((r) => userOf(r.body))
        .sort(),
    ).toEqual(['High 1?', 'High 2?', 'High 3?', 'Low 1?'])
    const primed = result.context.actions!.filter((a) => a.parent === -1)
    const status = Object.fromEntries(primed.map((a) => [a.query, a.status]))
    expect(status).toEqual({
      'High 1?': 'answered',
      'High 2?': 'answered',
      'High 3?': 'answered',
      'Low 1?': 'answered',
      'Low 2?': 'not run',
      'Low 3?': 'not run',
    })
  })

  it('runs the local steps of an epoch in parallel, never more than drift_search.concurrency at once', async () => {
    await search(WIDE_QUESTION, '  n_depth: 1\n  drift_k_followups: 8\n  primer_folds: 1\n  concurrency: 2')
    expect(steps()).toHaveLength(8)
    const overlap = maxOverlap(steps())
    expect(overlap).toBeGreaterThan(1)
    expect(overlap).toBeLessThanOrEqual(2)
  })
})
