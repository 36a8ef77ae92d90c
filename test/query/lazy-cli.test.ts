// `graphrag query --method lazy` end to end against the fake model: an offline (fast, local
// embedder, no chat model) index of the demo corpus, then only a chat model added to the settings.
// The relevance tests are counted in the fake server's request log, one per text unit of a batch.
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { topicalExcerpt } from '../../src/text/excerpt.js'
import { TEXT_UNITS } from '../../src/model/index.js'
import type { QueryCommandFlags } from '../../src/query/command.js'
import type { LazyReport } from '../../src/query/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeRelevant, lazyPassages, numberedSentences } from '../support/fake-llm/lazy.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { runQueryInProcess } from '../support/query-command.js'
import { expectQueryResponse } from '../support/query-response-schema.js'
import { describeShared, PROJECT_ROOT, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')
const LOCAL = 'Who repaired the Kittiwake after the storm on Tern Rocks?'
const GLOBAL = 'What are the main conflicts in the town during the winter?'

/** What the relevance model is shown of a unit (120 tokens: lazy_search.relevance_excerpt_tokens). */
const excerpt = (text: string, question: string) =>
  topicalExcerpt(text, question, 120, getTokenizer('o200k_base').count)

interface LazyJson {
  method: string
  response: string
  warnings: Array<{ type: string; detail: string }>
  usage: { calls: number; byStep: Record<string, { calls: number }> }
  context: Record<string, Array<Record<string, string | number>>>
  lazy: LazyReport
}

/** The demo's settings with a chat model (the fake server) added, embeddings staying local. */
function withChatModel(demo: string, baseUrl: string): string {
  const chat = fakeModelSettingsYaml(baseUrl, { maxRetries: 0 }).split('embedding_models:')[0]!
  return demo.replace('completion_models: {}\n', chat)
}

describe('graphrag query --method lazy (offline index + fake chat model)', () => {
  let fake: FakeLlm
  let root: string
  let units: Map<string, string>
  let order = 0

  beforeAll(async () => {
    // Replies finish in a varying order (a delay per request), which must not change any result.
    fake = await startFakeLlm({ latency: { extraMs: () => (order++ % 3) * 7 } })
    const files: Record<string, string> = { 'settings.yaml': readFileSync(join(DEMO, 'settings.yaml'), 'utf8') }
    for (const name of readdirSync(join(DEMO, 'input')))
      files[`input/${name}`] = readFileSync(join(DEMO, 'input', name), 'utf8')
    root = await testdir(files)
    await runIndex({ root, env: {}, skipValidation: true })
    expect(fake.requests).toHaveLength(0)
    writeFileSync(join(root, 'settings.yaml'), withChatModel(files['settings.yaml']!, fake.baseUrl))
    const rows = await new ParquetTableStore(join(root, 'output'), 'js').read(TEXT_UNITS)
    units = new Map(rows.map((u) => [String(u.human_readable_id), u.text]))
  }, 120_000)
  afterAll(() => fake?.close())

  /** Runs the query; returns its JSON and the fake's requests it made. */
  async function lazy(question: string, extra: Partial<QueryCommandFlags> = {}) {
    const from = fake.requests.length
    const { stdout, stderr } = await runQueryInProcess(root, question, 'lazy', extra)
    return { out: JSON.parse(stdout) as LazyJson, stderr, requests: fake.requests.slice(from) }
  }

  /** Text units put before the relevance model, counted per unit of each batched call. */
  function testedInLog(requests: LazyRun['requests']): number {
    return requests
      .filter((r) => r.kind === 'lazy_relevance')
      .map((r) => (r.body as { messages: Array<{ role: string; content: string }> }).messages.at(-1)!.content)
      .reduce((n, user) => n + lazyPassages(user).passages.length, 0)
  }
  type LazyRun = Awaited<ReturnType<typeof lazy>>

  it('answers a local question, citing text units that exist, within the budget', async () => {
    const { out, requests } = await lazy(LOCAL, { budget: 20 })
    expectQueryResponse(out)
    expect(out.method).toBe('lazy')
    expect(out.lazy.tests).toBeLessThanOrEqual(20)
    expect(testedInLog(requests)).toBe(out.lazy.tests)
    expect(out.lazy.subqueries.map((q) => q.question)).toEqual([
      LOCAL,
      'What does the collection say about Kittiwake?',
      'What does the collection say about Tern?',
    ])
    expect(out.lazy.relevant.length).toBeGreaterThan(0)
    // Each verdict is the fake's rule applied to that sub-question and that unit's text.
    for (const q of out.lazy.subqueries)
      for (const v of q.visits)
        expect(v.relevant).toEqual(
          v.tested.filter((label) => fakeRelevant(q.question, excerpt(units.get(label)!, q.question))),
        )
    expect(out.lazy.references.length).toBeGreaterThan(0)
    for (const ref of out.lazy.references) expect(units.has(ref.label)).toBe(true)
    // In the order the answer cites them.
    const cited = [...out.response.matchAll(/Sources \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(', '))
    expect(out.lazy.references.map((r) => r.label)).toEqual([...new Set(cited)])
    expect(out.lazy.unknown_citations).toEqual([])
    expect(out.response).toMatch(/\[Data: Sources \(\d+(, \d+)*\)\]/)
    expect(out.usage.byStep.relevance!.calls).toBe(out.lazy.relevance_calls)
    expect(out.lazy.usage_by_model.map((m) => [m.role, m.calls])).toEqual([
      ['answer', out.usage.calls - out.lazy.relevance_calls],
      ['relevance', out.lazy.relevance_calls],
    ])
  })

  it('answers a global question from claims of several communities', async () => {
    const { out } = await lazy(GLOBAL, { budget: 40 })
    expectQueryResponse(out)
    const communities = new Set(
      out.lazy.subqueries.flatMap((q) => q.visits.filter((v) => v.relevant.length > 0).map((v) => v.community)),
    )
    expect(communities.size).toBeGreaterThan(1)
    expect(out.lazy.claims.kept).toBeGreaterThan(0)
    expect(out.context.claims!.length).toBe(out.lazy.claims.kept)
    expect(out.lazy.references.length).toBeGreaterThan(0)
  })

  it('never tests more units than a small budget, and --no-subqueries asks for none', async () => {
    const { out, requests } = await lazy(LOCAL, { budget: 3, subqueries: false })
    expect(requests.filter((r) => r.kind === 'lazy_subqueries')).toHaveLength(0)
    expect(out.lazy.subqueries.map((q) => q.question)).toEqual([LOCAL])
    expect(testedInLog(requests)).toBe(3)
    expect(out.lazy.tests).toBe(3)
  })

  it('gives the same answer, citations and JSON whatever order the replies finish in', async () => {
    const first = await lazy(GLOBAL, { budget: 30 })
    order = 1
    const second = await lazy(GLOBAL, { budget: 30 })
    expect(second.out).toEqual(first.out)
  })

  it('the claim step reads only the sentences the relevance tests judged relevant', async () => {
    const { out, requests } = await lazy(GLOBAL, { budget: 30 })
    const bodies = (kind: string) =>
      requests
        .filter((r) => r.kind === kind)
        .map((r) => lazyPassages((r.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content))
    // Every sentence a relevance test showed, per sub-question and unit, and those the fake judged relevant.
    const shown = new Map<string, string[]>()
    for (const call of bodies('lazy_relevance'))
      for (const p of call.passages) {
        const sentences = numberedSentences(p.text).map((x) => x.text)
        expect(sentences.length).toBeGreaterThan(0)
        shown.set(`${call.question}\u0000${p.label}`, sentences)
      }
    const claimCalls = bodies('lazy_claims')
    expect(claimCalls.length).toBeGreaterThan(0)
    let dropped = 0
    for (const call of claimCalls)
      for (const p of call.passages) {
        const sentences = shown.get(`${call.question}\u0000${p.label}`)!
        const relevant = sentences.filter((x) => fakeRelevant(call.question, x))
        expect(p.text).toBe(relevant.join(' … '))
        dropped += sentences.length - relevant.length
      }
    // Some shown sentences were judged irrelevant and never reached the claim step.
    expect(dropped).toBeGreaterThan(0)
    expect(out.lazy.claims.units).toBe(claimCalls.reduce((n, c) => n + c.passages.length, 0))
  })

  it("lists the claims' passages by sub-question and retrieval rank, not by claim score", async () => {
    const { out } = await lazy(LOCAL, { budget: 20 })
    const listed = out.context.sources!.map((s) => String(s.id))
    const claimed = out.context.claims!.flatMap((c) => String(c.sources).split(', '))
    expect(new Set(listed)).toEqual(new Set(claimed))
    expect(listed).toHaveLength(new Set(listed).size)
    // Where each listed unit was first judged relevant: its sub-question and visit, and its place in
    // that visit's tests (a visit tests a community's units in rank order).
    const found = new Map<string, [number, number, number]>()
    out.lazy.subqueries.forEach((q, sub) =>
      q.visits.forEach((v, visit) => {
        for (const label of v.relevant) if (!found.has(label)) found.set(label, [sub, visit, v.tested.indexOf(label)])
      }),
    )
    const at = listed.map((label) => found.get(label)!)
    for (let i = 1; i < at.length; i++) {
      const [prev, next] = [at[i - 1]!, at[i]!]
      expect(next[0]).toBeGreaterThanOrEqual(prev[0])
      if (next[0] === prev[0] && next[1] === prev[1]) expect(next[2]).toBeGreaterThan(prev[2])
    }
    // The first sub-question's passages come first; the claims (best score first) cite them in another order.
    expect(at[0]![0]).toBe(0)
    expect([...new Set(claimed)]).not.toEqual(listed)
  })

  it("passes the budget a sub-question's walk leaves unspent on to the walks the budget stopped", async () => {
    // Batches of 2 and z = 1, so the third sub-question (about "Tern": no word of five letters the
    // passages share) ends on the stop rule after one batch, while the other two run into their shares.
    const file = join(root, 'small-batches.yaml')
    const yaml = readFileSync(join(root, 'settings.yaml'), 'utf8')
    writeFileSync(file, `${yaml}\nlazy_search:\n  relevance_batch_size: 2\n  max_misses: 1\n`)
    const { out, requests } = await lazy(LOCAL, { budget: 15, config: file })
    const q = out.lazy.subqueries
    // Shares 5, 5, 5; the third spent 2, and its 3 went to the first two (2 and 1, in sub-question order).
    expect(q.map((x) => [x.stop, x.tests, x.budget])).toEqual([
      ['budget', 7, 7],
      ['budget', 6, 6],
      ['exhausted', 2, 2],
    ])
    expect(out.lazy.tests).toBe(15)
    // Each unit is tested once, whatever the rounds: the log holds exactly the tests reported.
    expect(testedInLog(requests)).toBe(15)
    expect(requests.filter((r) => r.kind === 'lazy_relevance')).toHaveLength(out.lazy.relevance_calls)
    // The rounds wait for every walk, so replies finishing in another order change nothing.
    order = 2
    const again = await lazy(LOCAL, { budget: 15, config: file })
    expect(again.out).toEqual(out)
  })

  it('ranks at least as many units as the budget may test, whatever unit_top_k says', async () => {
    const file = join(root, 'few-ranked.yaml')
    writeFileSync(file, `${readFileSync(join(root, 'settings.yaml'), 'utf8')}\nlazy_search:\n  unit_top_k: 5\n`)
    const { out } = await lazy(LOCAL, { budget: 12, subqueries: false, config: file })
    expect(out.lazy.subqueries.map((q) => q.ranked_units)).toEqual([12])
  })

  it('--explain prints the path and asks for no claims or answer', async () => {
    const { stdout } = await runQueryInProcess(root, LOCAL, 'lazy', { json: false, explain: true, budget: 10 })
    expect(stdout).toContain('# Lazy search path')
    expect(stdout).toMatch(/## Sub-question 1: Who repaired/)
    expect(stdout).toMatch(/- community \d+ \(level \d+\): tested \d+/)
    const last = fake.requests.at(-1)!
    expect(['lazy_relevance', 'lazy_subqueries']).toContain(last.kind)
  })

  it('sends the relevance tests to lazy_search.relevance_model_id and reports usage per model', async () => {
    const nano = fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0, chatModel: 'gpt-4.1-nano' })
      .split('embedding_models:')[0]!
      .replace('completion_models:\n  default_completion_model:', '  cheap:')
    const settings = readFileSync(join(root, 'settings.yaml'), 'utf8').replace(
      /\nembedding_models:/,
      `\n${nano}\nembedding_models:`,
    )
    const file = join(root, 'cheap-relevance.yaml')
    writeFileSync(file, `${settings}\nlazy_search:\n  relevance_model_id: cheap\n`)
    const { out, requests } = await lazy(LOCAL, { budget: 10, config: file })
    const models = (kind: string) => [...new Set(requests.filter((r) => r.kind === kind).map((r) => r.model))]
    expect(models('lazy_relevance')).toEqual(['gpt-4.1-nano'])
    expect(models('lazy_claims')).toEqual(['gpt-4.1-mini'])
    expect(out.lazy.usage_by_model.map((m) => [m.role, m.model, m.calls])).toEqual([
      ['answer', 'gpt-4.1-mini', out.usage.calls - out.lazy.relevance_calls],
      ['relevance', 'gpt-4.1-nano', out.lazy.relevance_calls],
    ])
  })

  it('says which setting to fill when there is no chat model', async () => {
    const offline = join(root, 'offline.yaml')
    writeFileSync(
      offline,
      `${readFileSync(join(root, 'settings.yaml'), 'utf8')}\nlazy_search:\n  completion_model_id: null\n`,
    )
    await expect(runQueryInProcess(root, LOCAL, 'lazy', { config: offline })).rejects.toThrow(
      'lazy search needs a chat model: set lazy_search.completion_model_id to one of completion_models',
    )
  })

  it('the built CLI streams a cited answer; --help lists the method and its flags', async () => {
    const run = await runCli(['query', LOCAL, '--root', root, '--method', 'lazy', '--budget', '5', '--streaming'])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^## Answer\n\nThe claims bear on .*\[Data: Sources \(\d+(, \d+)*\)\]\.\n$/)
    const help = await runCliInProcess(['query', '--help'])
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('or lazy (LazyGraphRAG-class')
    expect(help.stdout).toContain('--budget <n>')
    expect(help.stdout).toContain('--no-subqueries')
  }, 60_000)

  it('refuses --budget with another method', async () => {
    await expect(runQueryInProcess(root, LOCAL, 'basic', { budget: 5 })).rejects.toThrow(
      '--budget is only available with --method lazy',
    )
  })
})

// A standard index written by Microsoft GraphRAG (LLM entities, communities with their text units,
// 3072-dimension text_unit_text vectors): lazy search reads it as it is.
describeShared('graphrag query --method lazy over a standard index (Operation Dulce, Microsoft GraphRAG)', () => {
  let fake: FakeLlm
  let root: string

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 3072 })
    root = await testdir({ 'settings.yaml': fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }) })
    cpSync(sharedPath('reference', 'msgr-v3-dulce'), join(root, 'output'), { recursive: true })
  })
  afterAll(() => fake?.close())

  it('walks its communities and cites its text units, within the budget', async () => {
    const from = fake.requests.length
    const { stdout } = await runQueryInProcess(root, 'What is Operation Dulce about?', 'lazy', { budget: 12 })
    const out = JSON.parse(stdout) as LazyJson
    expectQueryResponse(out)
    const rows = await new ParquetTableStore(join(root, 'output'), 'js').read(TEXT_UNITS)
    const ids = new Map(rows.map((u) => [String(u.human_readable_id), u.id]))
    const tested = fake.requests
      .slice(from)
      .filter((r) => r.kind === 'lazy_relevance')
      .reduce(
        (n, r) =>
          n +
          lazyPassages((r.body as { messages: Array<{ content: string }> }).messages.at(-1)!.content).passages.length,
        0,
      )
    expect(tested).toBe(out.lazy.tests)
    expect(out.lazy.tests).toBeLessThanOrEqual(12)
    expect(out.lazy.subqueries[0]!.visits.length).toBeGreaterThan(0)
    expect(out.lazy.references.length).toBeGreaterThan(0)
    for (const ref of out.lazy.references) expect(ids.get(ref.label)).toBe(ref.id)
  })
})
