/**
 * The order in which report-reuse.ts answers one community (issue 28 §11, found unpinned by mutation
 * testing): no reuse without a store, the renumbered report of the same canonical context without a
 * model call, the model again for the very same context text (its cache entry, never a stale
 * report), and a stale report only with a recorded anchor. Reports are written through the fake
 * model server, on text-unit (SOURCES) contexts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  countReuse,
  reportWriter,
  type StableReports,
} from '../../../src/index/operations/community-reports/report-reuse.js'
import type { ReportRunResult } from '../../../src/index/operations/community-reports/request.js'
import {
  encodeReport,
  everyId,
  textUnitIdentityMaps,
} from '../../../src/index/operations/community-reports/stable-reuse.js'
import { renderSources, sourcesSection } from '../../../src/index/operations/text-unit-report-context.js'
import { createChatModel } from '../../../src/llm/index.js'
import type { ChatModel } from '../../../src/llm/types.js'
import { readPrompt } from '../../../src/prompts/prompt-files.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { fakeOptions } from '../../llm/helpers.js'
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'

const TEXTS: Record<string, string> = {
  a: 'Captain Olsen keeps the Fog Bell at Kettle Harbour.',
  b: 'Marta Quill counts the fishing boats every morning.',
  c: 'The Harbour Council meets in the Old Customs House.',
  x: 'Zora Vink tends the Quiet Garden of Brenmoor.',
}
const OPTIONS = {
  prompt: readPrompt({ keyPath: 'community_reports.text_prompt', path: null, builtin: 'community_report_text.txt' }),
  maxReportLength: 100,
}
const REPLY = {
  title: 'Kettle Harbour',
  summary: 'The harbour folk [Data: Sources (0, 1)].',
  findings: [{ summary: 'Boats', explanation: 'They sail [Data: Sources (1)].' }],
  rating: 3,
  rating_explanation: 'Small.',
}

/** A generation: text units in `order` (human_readable_id = position) and one community over `members`. */
function generation(order: string[], members: string[]) {
  const units = order.map((id, i) => ({ id, human_readable_id: i }))
  const records = members.map((id) => ({ unit: id, id: order.indexOf(id), text: TEXTS[id]!, entity_degree: 1 }))
  return {
    maps: textUnitIdentityMaps(units),
    context: { text: renderSources(records), sections: [sourcesSection(records)] },
  }
}

describe('reportWriter: which earlier report answers a community', () => {
  let llm: FakeLlm
  let chat: ChatModel
  const calls = () => llm.requests.filter((r) => r.kind === 'community_report_text').length

  beforeAll(async () => {
    llm = await startFakeLlm({
      responders: [(req) => (req.kind === 'community_report_text' ? JSON.stringify(REPLY) : undefined)],
    })
    chat = createChatModel(fakeOptions(llm))
  })
  afterAll(async () => llm?.close())

  it('asks the model every time without a store', async () => {
    const { context } = generation(['a', 'b'], ['a', 'b'])
    const write = reportWriter(OPTIONS, { chat })
    const before = calls()
    expect(await write(0, context)).toEqual({ content: REPLY, reuse: 'none' })
    expect(await write(0, context)).toMatchObject({ reuse: 'none' })
    expect(calls() - before).toBe(2)
  })

  it('asks the model, and records nothing, for a context whose ids are not those of the maps', async () => {
    const store = new MemoryKeyValueStore()
    const { context } = generation(['a', 'b'], ['a', 'b'])
    // Maps of a generation where a and b swapped ids: the context cannot be put in canonical form.
    const { maps } = generation(['b', 'a'], [])
    expect(await reportWriter(OPTIONS, { chat, stable: { store, maps } })(0, context)).toEqual({
      content: REPLY,
      reuse: 'none',
    })
    expect(await store.keys()).toEqual([])
  })

  it('renumbers the report of the same canonical context without a model call, and counts it', async () => {
    const store = new MemoryKeyValueStore()
    const first = generation(['a', 'b'], ['a', 'b'])
    expect(await reportWriter(OPTIONS, { chat, stable: { store, maps: first.maps } })(0, first.context)).toMatchObject({
      reuse: 'none',
    })
    // A unit sorted first shifts both ids by one: another prompt, the same canonical context.
    const shifted = generation(['x', 'a', 'b'], ['a', 'b'])
    const before = calls()
    const written = await reportWriter(OPTIONS, { chat, stable: { store, maps: shifted.maps } })(0, shifted.context)
    expect(calls()).toBe(before)
    expect(written).toEqual({
      reuse: 'renumbered',
      content: {
        ...REPLY,
        summary: 'The harbour folk [Data: Sources (1, 2)].',
        findings: [{ summary: 'Boats', explanation: 'They sail [Data: Sources (2)].' }],
      },
    })
    const result = { drafts: [] } as unknown as ReportRunResult
    countReuse(result, written)
    countReuse(result, { reuse: 'none' })
    countReuse(result, written)
    expect(result).toMatchObject({ reused: 2 })
    expect(result.keptStale).toBeUndefined()
  })

  it('asks the model again for the very same context text, even when a stale report could stand', async () => {
    const store = new MemoryKeyValueStore()
    const gen = generation(['a', 'b', 'c'], ['a', 'b'])
    const stable: StableReports = { store, maps: gen.maps }
    await reportWriter(OPTIONS, { chat, stable })(0, gen.context)
    const stored = encodeReport(REPLY, gen.maps, everyId(gen.maps))!
    stable.stale = { maxChange: 1, losing: new Set(), previous: () => ({ stored, community: 0 }) }
    const before = calls()
    expect(await reportWriter(OPTIONS, { chat, stable })(0, gen.context)).toEqual({ content: REPLY, reuse: 'none' })
    expect(calls()).toBe(before + 1)
  })

  it('keeps a stale report only with its recorded anchor, and only when a previous report is offered', async () => {
    const store = new MemoryKeyValueStore()
    const first = generation(['a', 'b', 'c'], ['a', 'b'])
    await reportWriter(OPTIONS, { chat, stable: { store, maps: first.maps } })(0, first.context)
    const stored = encodeReport(REPLY, first.maps, everyId(first.maps))!
    // c joins the community: 1 row in 3 changed.
    const grown = generation(['a', 'b', 'c'], ['a', 'b', 'c'])
    const write = (previous: StableReports['stale']) =>
      reportWriter(OPTIONS, { chat, stable: { store, maps: grown.maps, stale: previous } })(0, grown.context)
    const offered = { maxChange: 0.5, losing: new Set<string>(), previous: () => ({ stored, community: 0 }) }
    let before = calls()
    expect(await write(offered)).toEqual({ content: REPLY, reuse: 'stale', change: expect.closeTo(1 / 3) })
    expect(calls()).toBe(before)
    // No previous report offered, or one recorded for another community (no anchor there): the model writes it.
    before = calls()
    expect(await write({ ...offered, previous: () => undefined })).toMatchObject({ reuse: 'none' })
    expect(await write({ ...offered, previous: () => ({ stored, community: 7 }) })).toMatchObject({ reuse: 'none' })
    expect(calls()).toBe(before + 2)
  })
})
