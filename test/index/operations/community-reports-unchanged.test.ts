/**
 * Reports replayed by fingerprint (unchanged-reports.ts): a community whose context inputs are the
 * ones recorded by an earlier run gets the earlier outcome without its context being built or the
 * model asked, and every report equals what the full path (the same store without the fingerprint
 * entries) gives. Each input the context is built from (a description, a degree, a relationship,
 * a claim, the budget, the tokenizer) changed in turn must take its community off the replay.
 * Reports are written through the fake model server, whose reply depends on the whole context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContextInput } from '../../../src/index/operations/community-reports/context.js'
import { generateGraphReports } from '../../../src/index/operations/community-reports/generate.js'
import type { ReportRunResult } from '../../../src/index/operations/community-reports/request.js'
import { tableIdentityMaps } from '../../../src/index/operations/community-reports/stable-reuse.js'
import { createChatModel } from '../../../src/llm/index.js'
import type { CommunityRow, CovariateRow, EntityRow, RelationshipRow } from '../../../src/model/index.js'
import { readPrompt } from '../../../src/prompts/prompt-files.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { fakeOptions } from '../../llm/helpers.js'
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'

const OPTIONS = {
  prompt: readPrompt({ keyPath: 'community_reports.graph_prompt', path: null, builtin: 'community_report_graph.txt' }),
  maxReportLength: 200,
  maxInputLength: 8000,
}

const TITLES = ['ALDER', 'BIRCH', 'CEDAR', 'DAMSON', 'ELM', 'FIR', 'GORSE', 'HAZEL']

function entity(i: number, title: string): EntityRow {
  return {
    id: `e-${title}`,
    human_readable_id: i,
    title,
    type: 'tree',
    description: `${title} grows by the river`,
    text_unit_ids: [],
    frequency: 1,
    degree: 2,
  }
}

function rel(i: number, source: string, target: string): RelationshipRow {
  return {
    id: `r-${source}-${target}`,
    human_readable_id: i,
    source,
    target,
    description: `${source} shades ${target}`,
    weight: 1,
    combined_degree: 4,
    text_unit_ids: [],
  }
}

function community(c: number, level: number, titles: string[], parent: number, children: number[]): CommunityRow {
  return {
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level,
    parent,
    children,
    title: `Community ${c}`,
    entity_ids: titles.map((t) => `e-${t}`),
    relationship_ids: [],
    text_unit_ids: [],
    period: '2026-01-15',
    size: titles.length,
  }
}

const CLAIM: CovariateRow = {
  id: 'k-elm',
  human_readable_id: 0,
  covariate_type: 'claim',
  type: 'BLIGHT',
  description: 'ELM may carry blight',
  subject_id: 'ELM',
  object_id: null,
  status: 'SUSPECTED',
  start_date: null,
  end_date: null,
  source_text: null,
  text_unit_id: 't1',
}

/** A root over all eight trees with two sub-communities: 1 (ALDER–DAMSON) and 2 (ELM–HAZEL). */
function graph(): ContextInput {
  const chain = (ts: string[], from: number) => ts.slice(1).map((t, i) => rel(from + i, ts[i]!, t))
  return {
    entities: TITLES.map((t, i) => entity(i, t)),
    relationships: [...chain(TITLES.slice(0, 4), 0), ...chain(TITLES.slice(4), 3), rel(6, 'DAMSON', 'ELM')],
    communities: [
      community(0, 0, TITLES, -1, [1, 2]),
      community(1, 1, TITLES.slice(0, 4), 0, []),
      community(2, 1, TITLES.slice(4), 0, []),
    ],
    claims: [CLAIM],
  }
}

/** The graph with every human_readable_id of entities and relationships moved by one (a row sorted before them). */
function shifted(input: ContextInput): ContextInput {
  return {
    ...input,
    entities: input.entities.map((e) => ({ ...e, human_readable_id: e.human_readable_id + 1 })),
    relationships: input.relationships.map((r) => ({ ...r, human_readable_id: r.human_readable_id + 1 })),
  }
}

/** A copy of the store without the fingerprint entries: what the full path sees. */
async function withoutFingerprints(store: MemoryKeyValueStore): Promise<MemoryKeyValueStore> {
  const copy = new MemoryKeyValueStore()
  for (const key of await store.keys()) if (!key.startsWith('unchanged:')) await copy.set(key, (await store.get(key))!)
  return copy
}

async function copyOf(store: MemoryKeyValueStore): Promise<MemoryKeyValueStore> {
  const copy = new MemoryKeyValueStore()
  for (const key of await store.keys()) await copy.set(key, (await store.get(key))!)
  return copy
}

describe('community reports replayed by fingerprint', () => {
  let llm: FakeLlm
  const reportCalls = () => llm.requests.filter((r) => r.kind === 'community_report').length

  beforeAll(async () => {
    llm = await startFakeLlm()
  })
  afterAll(async () => llm?.close())

  // The model's cache lives in the same store as the report records (as model_replies carries both):
  // a same-context replay reads its reply's entry there, as the call it replaces would.
  const run = (input: ContextInput, store: MemoryKeyValueStore, options = OPTIONS, tokenizer: string | null = null) =>
    generateGraphReports(input, options, {
      chat: createChatModel(fakeOptions(llm), { cache: store }),
      stable: {
        store,
        replies: store,
        maps: tableIdentityMaps(input.entities, input.relationships, input.claims),
        tokenizer,
      },
    })

  /**
   * Runs `next` on a store recorded by a run of `first`, and on the same store without its
   * fingerprint entries; returns the replayed run's result, its model calls, and the full path's.
   */
  async function againstFullPath(first: ContextInput, next: ContextInput, options = OPTIONS, tokenizer?: string) {
    const store = new MemoryKeyValueStore()
    await run(first, store)
    const full = await run(next, await withoutFingerprints(store), options, tokenizer)
    const before = reportCalls()
    const replayed = await run(next, store, options, tokenizer)
    return { replayed, full, calls: reportCalls() - before }
  }

  const replayedCommunities = (result: ReportRunResult, full: ReportRunResult) => {
    expect(result.drafts).toEqual(full.drafts)
    return result.unchanged ?? 0
  }

  it('replays every report of unchanged inputs without a model call, equal to the full path', async () => {
    const { replayed, full, calls } = await againstFullPath(graph(), graph())
    expect(replayedCommunities(replayed, full)).toBe(3)
    expect(calls).toBe(0)
    expect(replayed.attempted).toBe(3)
  })

  it('reads the reply entry of each same-context replay (model_replies records it), and asks when it is gone', async () => {
    const store = new MemoryKeyValueStore()
    await run(graph(), store)
    const input = graph()
    const read: string[] = []
    const replies = {
      get: async (key: string) => {
        read.push(key)
        return store.get(key)
      },
    }
    const replay = () =>
      generateGraphReports(input, OPTIONS, {
        chat: createChatModel(fakeOptions(llm), { cache: store }),
        stable: { store, replies, maps: tableIdentityMaps(input.entities, input.relationships, input.claims) },
      })
    const before = reportCalls()
    expect((await replay()).unchanged).toBe(3)
    expect(reportCalls()).toBe(before)
    expect(new Set(read).size).toBe(3)
    for (const key of read) expect(JSON.parse((await store.get(key))!).reply.content).toContain('title')
    // Without the reply entries (a cache and model_replies that lost them) the full path asks the model.
    for (const key of read) await store.delete(key)
    const again = await replay()
    expect(again.unchanged ?? 0).toBe(0)
    expect(reportCalls()).toBe(before + 3)
  })

  it('writes again the community whose member description changed, and its parent', async () => {
    const next = graph()
    next.entities = next.entities.map((e) => (e.title === 'BIRCH' ? { ...e, description: 'BIRCH has white bark' } : e))
    const { replayed, full, calls } = await againstFullPath(graph(), next)
    expect(replayedCommunities(replayed, full)).toBe(1)
    expect(calls).toBe(2)
    expect(replayed.drafts.find((d) => d.community === 1)).not.toEqual(
      (await run(graph(), new MemoryKeyValueStore())).drafts.find((d) => d.community === 1),
    )
  })

  it('takes a community off the replay when a degree, a relationship or a claim changed', async () => {
    const degree = graph()
    degree.entities = degree.entities.map((e) => (e.title === 'GORSE' ? { ...e, degree: 3 } : e))
    const relation = graph()
    relation.relationships = relation.relationships.map((r) =>
      r.source === 'ELM' ? { ...r, description: 'ELM leans on FIR' } : r,
    )
    const combined = graph()
    combined.relationships = combined.relationships.map((r) => (r.source === 'FIR' ? { ...r, combined_degree: 7 } : r))
    const claims = graph()
    claims.claims = [{ ...CLAIM, status: 'TRUE' }]
    // Degrees are no part of the canonical context: the full path renumbers the earlier report of the
    // same canonical context, without a model call; the other changes need one.
    for (const [next, calls, renumbered] of [
      [degree, 0, 2],
      [relation, 2, 0],
      [combined, 0, 2],
      [claims, 2, 0],
    ] as const) {
      const result = await againstFullPath(graph(), next)
      // Community 2 (ELM–HAZEL) and the root changed; community 1 is replayed.
      expect(replayedCommunities(result.replayed, result.full)).toBe(1)
      expect(result.calls).toBe(calls)
      expect(result.replayed.reused ?? 0).toBe(renumbered)
    }
  })

  it('replays nothing when the budget or the tokenizer changed', async () => {
    const budget = await againstFullPath(graph(), graph(), { ...OPTIONS, maxInputLength: 7999 })
    expect(replayedCommunities(budget.replayed, budget.full)).toBe(0)
    const tokenizer = await againstFullPath(graph(), graph(), OPTIONS, 'cl100k_base')
    expect(replayedCommunities(tokenizer.replayed, tokenizer.full)).toBe(0)
  })

  it('replays a renumbered report, renumbered again like the full path, once its context repeats', async () => {
    const store = new MemoryKeyValueStore()
    await run(graph(), store)
    // The ids moved: the full path renumbers the earlier reports, and records that outcome.
    const moved = await run(shifted(graph()), store)
    expect(moved.reused).toBe(3)
    const full = await run(shifted(graph()), await withoutFingerprints(await copyOf(store)))
    const before = reportCalls()
    const again = await run(shifted(graph()), store)
    expect(reportCalls()).toBe(before)
    expect(again.drafts).toEqual(full.drafts)
    expect(again.reused).toBe(3)
    expect(again.unchanged).toBeUndefined()
  })

  it('asks the model when the recorded outcome cannot be replayed (its canonical entry gone)', async () => {
    const store = new MemoryKeyValueStore()
    await run(graph(), store)
    for (const key of await store.keys())
      if (!key.startsWith('unchanged:') && !key.startsWith('anchor:')) await store.delete(key)
    const before = reportCalls()
    const result = await run(graph(), store)
    expect(reportCalls() - before).toBe(3)
    expect(result.unchanged).toBeUndefined()
  })
})
