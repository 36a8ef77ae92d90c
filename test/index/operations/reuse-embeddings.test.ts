/**
 * embedReusing on its own: an update that changed little takes back nearly every vector, and those
 * reach the sink in bounded batches, in input order, each let go once written (a 10 M-token update
 * handed all of a table's vectors over in one batch and peaked at twice the index's memory).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { EmbeddedRow, TextToEmbed } from '../../../src/index/operations/embed-text.js'
import { embedReusing, textKey } from '../../../src/index/operations/reuse-embeddings.js'
import { cacheKey } from '../../../src/llm/cache.js'

const DIMENSION = 8
const texts: TextToEmbed[] = Array.from({ length: 2500 }, (_, i) => ({ id: `t${i}`, text: `text number ${i}` }))
const vectorOf = (text: string, dimension = DIMENSION): number[] =>
  Array.from({ length: dimension }, (_, d) => ((text.length * 31 + d * 7) % 17) / 17)

/** Embeds whatever it is given, 100 rows to a sink call, and records what it was asked for. */
function model(dimension = DIMENSION) {
  const asked: string[] = []
  const embed = async (rest: readonly TextToEmbed[], sink: (rows: EmbeddedRow[]) => Promise<void>) => {
    for (let i = 0; i < rest.length; i += 100) {
      const batch = rest.slice(i, i + 100)
      asked.push(...batch.map((t) => t.id))
      await sink(batch.map((t) => ({ id: t.id, vector: vectorOf(t.text, dimension) })))
    }
  }
  return { asked, embed }
}

describe('embedReusing', () => {
  it('hands 1536-float vectors taken back to the sink at most 1,000 rows at a time', async () => {
    const dimension = 1536
    const stored = new Map<string, Float32Array>()
    const options = { identity: 'model', vectorSize: dimension }
    const cold = await embedReusing(
      texts,
      { ...options, previous: undefined },
      model(dimension).embed,
      async (rows) => {
        for (const r of rows) stored.set(r.id, Float32Array.from(r.vector))
      },
    )
    const batches: number[] = []
    const previous = {
      keys: cold.keys,
      read: async (ids: readonly string[]) => new Map(ids.map((id) => [id, stored.get(id)!])),
    }
    const now = texts.map((t, i) => (i === 5 ? { id: t.id, text: 'an edited text' } : t))
    const update = await embedReusing(
      now,
      { ...options, previous },
      model(dimension).embed,
      async (rows) => void batches.push(rows.length),
    )
    expect(update).toMatchObject({ reused: 2499, embedded: 1 })
    expect(batches).toEqual([1000, 1000, 500])
  })

  it('hands small taken-back vectors to the sink in one batch (one LanceDB commit), in input order', async () => {
    const first = model()
    const stored = new Map<string, Float32Array>()
    const cold = await embedReusing(
      texts,
      { identity: 'model', vectorSize: DIMENSION, previous: undefined },
      first.embed,
      async (rows) => {
        for (const r of rows) stored.set(r.id, Float32Array.from(r.vector))
      },
    )
    expect(first.asked).toHaveLength(texts.length)

    // One text changed: 2,499 vectors come back from the store, one goes to the model.
    const now = texts.map((t, i) => (i === 1234 ? { id: t.id, text: 'an edited text' } : t))
    const second = model()
    const batches: EmbeddedRow[][] = []
    const update = await embedReusing(
      now,
      {
        identity: 'model',
        vectorSize: DIMENSION,
        previous: { keys: cold.keys, read: async (ids) => new Map(ids.map((id) => [id, stored.get(id)!])) },
      },
      second.embed,
      async (rows) => void batches.push(rows),
    )
    expect(second.asked).toEqual(['t1234'])
    expect(update).toMatchObject({ reused: 2499, embedded: 1 })
    // 2,500 rows of 8 floats: far under the batch's 1,536,000 values.
    expect(batches.map((b) => b.length)).toEqual([2500])
    const written = batches.flat()
    expect(written.map((r) => r.id)).toEqual(now.map((t) => t.id))
    // LanceDB's float32 copy is handed on as it is, not widened to doubles.
    expect(written[0]!.vector).toEqual(Float32Array.from(vectorOf(texts[0]!.text)))
    expect(update.keys.map((k) => k.id)).toEqual(now.map((t) => t.id))
    // The keys recorded are those embedding the same texts from scratch records (taken-back rows' included).
    const fresh = await embedReusing(
      now,
      { identity: 'model', vectorSize: DIMENSION, previous: undefined },
      model().embed,
    )
    expect(update.keys).toEqual(fresh.keys.map((k) => ({ ...k })))
    expect(update.keys[0]).toEqual({
      id: 't0',
      text_key: cacheKey({ identity: 'model', text: texts[0]!.text }),
      vector_key: createHash('sha256')
        .update(new Uint8Array(Float32Array.from(vectorOf(texts[0]!.text)).buffer))
        .digest('hex'),
    })
  })

  it('takes back no vector of an id listed twice, now or before: which vector is whose is unclear', async () => {
    const few = texts.slice(0, 4)
    const stored = new Map<string, Float32Array>()
    const cold = await embedReusing(
      few,
      { identity: 'model', vectorSize: DIMENSION, previous: undefined },
      model().embed,
      async (rows) => {
        for (const r of rows) stored.set(r.id, Float32Array.from(r.vector))
      },
    )
    const read = async (ids: readonly string[]) => new Map(ids.map((id) => [id, stored.get(id)!]))
    // t1 twice in the previous keys, t2 twice in the texts now: both go to the model again.
    const keys = [...cold.keys, cold.keys[1]!]
    const now = [...few, few[2]!]
    const again = model()
    await embedReusing(now, { identity: 'model', vectorSize: DIMENSION, previous: { keys, read } }, again.embed)
    expect(again.asked).toEqual(['t1', 't2', 't2'])
  })

  it('keys a text as the LLM cache keys { identity, text }, whatever characters it holds', () => {
    for (const text of [
      'plain',
      'quote " and \\ backslash',
      'line\nbreak\ttab',
      'é 汉字 😀',
      'lone \ud800 surrogate',
      '',
    ])
      expect(textKey('id "x"', text)).toBe(cacheKey({ identity: 'id "x"', text }))
  })
})
