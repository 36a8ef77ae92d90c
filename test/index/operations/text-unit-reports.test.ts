/**
 * Text-unit (SOURCES) reports through the fake model server, reused as graph reports are: a context
 * that only gained a unit keeps its report within update_max_context_change, its Sources citations
 * renumbered; losing a unit it was written from (a deleted document's) writes it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StableReports } from '../../../src/index/operations/community-reports/report-reuse.js'
import { finalizeReports } from '../../../src/index/operations/community-reports/render.js'
import { textUnitIdentityMaps } from '../../../src/index/operations/community-reports/stable-reuse.js'
import { storedReports, unitsGone } from '../../../src/index/operations/community-reports/stale-reuse.js'
import { renderSources, sourcesSection } from '../../../src/index/operations/text-unit-report-context.js'
import { generateTextReports } from '../../../src/index/operations/text-unit-reports.js'
import { createChatModel } from '../../../src/llm/index.js'
import type { ChatModel } from '../../../src/llm/types.js'
import type { CommunityRow } from '../../../src/model/communities.js'
import { readPrompt } from '../../../src/prompts/prompt-files.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { fakeOptions } from '../../llm/helpers.js'

const TEXTS: Record<string, string> = {
  a: 'Captain Olsen keeps the Fog Bell at Kettle Harbour.',
  b: 'Marta Quill counts the fishing boats every morning.',
  c: 'The Harbour Council meets in the Old Customs House.',
  d: 'Captain Olsen and Marta Quill sail to Stone Island.',
  e: 'Ezra Pike runs the Saltmill beside Kettle Harbour.',
  f: 'Nora Finch teaches at the Harbour School.',
  g: 'Tobias Reed skippers the Ferry Albatross.',
  x: 'Zora Vink tends the Quiet Garden of Brenmoor.',
}
const COMMUNITY = {
  community: 0,
  level: 0,
  parent: -1,
  children: [],
  period: '2026-11-24',
  size: 3,
} as unknown as CommunityRow
const OPTIONS = {
  prompt: readPrompt({ keyPath: 'community_reports.text_prompt', path: null, builtin: 'community_report_text.txt' }),
  maxReportLength: 100,
}

/** One generation: its text units in order (human_readable_id = position) and the community's context over `members`. */
function generation(order: string[], members: string[]) {
  const units = order.map((id, i) => ({ id, human_readable_id: i, text: TEXTS[id]! }))
  const records = members.map((id) => ({ unit: id, id: order.indexOf(id), text: TEXTS[id]!, entity_degree: 3 }))
  const sections = [sourcesSection(records)]
  return { units, context: { community: 0, level: 0, text: renderSources(records), sections, records: records.length } }
}

describe('generateTextReports: reports kept across generations', () => {
  let llm: FakeLlm
  let chat: ChatModel
  const shared = new MemoryKeyValueStore()
  const reportCalls = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind === 'community_report_text').length

  beforeAll(async () => {
    llm = await startFakeLlm()
    chat = createChatModel(fakeOptions(llm))
  })
  afterAll(async () => llm?.close())

  /** Writes generation `next` after `previous` (whose report rows are given) with the bound `maxChange`. */
  async function write(
    next: ReturnType<typeof generation>,
    previous?: { units: ReturnType<typeof generation>['units']; rows: ReturnType<typeof finalizeReports> },
    maxChange = 0.3,
    store = shared,
  ) {
    const maps = textUnitIdentityMaps(next.units)
    const stable: StableReports = { store, maps }
    if (previous !== undefined) {
      const stored = storedReports(previous.rows, textUnitIdentityMaps(previous.units))
      stable.stale = {
        maxChange,
        previous: (c) => (stored.has(c) ? { stored: stored.get(c)!, community: c } : undefined),
        losing: unitsGone(previous.units, next.units),
      }
    }
    const from = llm.requests.length
    const result = await generateTextReports([next.context], OPTIONS, { chat, stable })
    return { result, calls: reportCalls(from), rows: finalizeReports(result.drafts, [COMMUNITY]) }
  }

  it('keeps a report whose context gained a unit, renumbered, and writes it again once a unit it read is gone', async () => {
    // b comes last: the test model cites the first five rows, so b is read but not cited.
    const first = generation(['a', 'b', 'c', 'd', 'e', 'f'], ['a', 'c', 'd', 'e', 'f', 'b'])
    const written = await write(first)
    expect(written.calls).toBe(1)
    const cited = written.rows[0]!.summary
    expect(cited).toContain('Sources (0, 2, 3, 4, 5)')

    // A unit sorted first shifts every id; g joins the community: 1 row in 7 changed.
    const second = generation(['x', 'a', 'b', 'c', 'd', 'e', 'f', 'g'], ['a', 'c', 'd', 'e', 'f', 'b', 'g'])
    const kept = await write(second, { units: first.units, rows: written.rows })
    expect(kept.calls).toBe(0)
    expect(kept.result.keptStale).toBe(1)
    expect(kept.result.maxStaleChange).toBeCloseTo(1 / 7)
    expect(kept.rows[0]!.summary).toBe(cited.replace('Sources (0, 2, 3, 4, 5)', 'Sources (1, 3, 4, 5, 6)'))

    // Past a bound of 0.1 it is written again (a store of its own, where the first report was written too).
    const apart = new MemoryKeyValueStore()
    const firstApart = await write(first, undefined, 0.1, apart)
    expect((await write(second, { units: first.units, rows: firstApart.rows }, 0.1, apart)).calls).toBe(1)

    // b's document is deleted: 2 rows in 7 changed since the report was written, within the bound,
    // and the report cites nothing gone, but it read b.
    const third = generation(['x', 'a', 'c', 'd', 'e', 'f', 'g'], ['a', 'c', 'd', 'e', 'f', 'g'])
    const rewritten = await write(third, { units: second.units, rows: kept.rows })
    expect(rewritten.calls).toBe(1)
    expect(rewritten.result.keptStale ?? 0).toBe(0)
  })
})

describe('generateTextReports: two communities answered with the same report text', () => {
  let llm: FakeLlm
  let slow = 'a'
  const SAME = JSON.stringify({
    title: 'Kettle Harbour',
    summary: 'The harbour folk.',
    findings: [{ summary: 'Boats', explanation: 'They sail.' }],
    rating: 3,
    rating_explanation: 'Small.',
  })

  beforeAll(async () => {
    llm = await startFakeLlm({
      responders: [(req) => (req.kind === 'community_report_text' ? SAME : undefined)],
      // The community whose context holds unit `slow` answers last.
      latency: { extraMs: (req) => (JSON.stringify(req.messages).includes(TEXTS[slow]!) ? 150 : 0) },
    })
  })
  afterAll(async () => llm?.close())

  /** Everything the run records (reuse entries and anchors), with the reply to `first` arriving last. */
  async function recorded(first: string): Promise<Array<[string, string | undefined]>> {
    slow = first
    const chat = createChatModel(fakeOptions(llm))
    const order = ['a', 'b', 'c', 'd']
    const units = order.map((id, i) => ({ id, human_readable_id: i, text: TEXTS[id]! }))
    const context = (community: number, members: string[]) => {
      const records = members.map((id) => ({ unit: id, id: order.indexOf(id), text: TEXTS[id]!, entity_degree: 1 }))
      return { community, level: 0, text: renderSources(records), sections: [sourcesSection(records)], records: 2 }
    }
    const store = new MemoryKeyValueStore()
    const result = await generateTextReports([context(0, ['a', 'b']), context(1, ['c', 'd'])], OPTIONS, {
      chat,
      stable: { store, maps: textUnitIdentityMaps(units) },
    })
    expect(result.drafts.map((d) => d.summary)).toEqual([JSON.parse(SAME).summary, JSON.parse(SAME).summary])
    const keys = await store.keys()
    return Promise.all(keys.map(async (k): Promise<[string, string | undefined]> => [k, await store.get(k)]))
  }

  it('records the same entries whichever reply comes last: each community keeps the anchor of its own context', async () => {
    const one = await recorded('a')
    const other = await recorded('c')
    expect(one.filter(([k]) => k.startsWith('anchor:'))).toHaveLength(2)
    expect(other).toEqual(one)
  })
})
