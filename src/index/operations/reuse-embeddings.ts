/**
 * Vectors an update takes back from the previous index instead of embedding again. A row's vector
 * is reused only when its embedding_keys row says it embedded the very text this row embeds now, with
 * the same model, windowing and vector size (text_key), and the stored vector is the one recorded
 * then (vector_key): so neither an edited description nor a LanceDB table rewritten by a run that
 * failed later can hand back a vector of another text. The other rows go to the model.
 */
import { hash } from 'node:crypto'
import type { ModelSettings } from '../../config/schema.js'
import { cacheKey } from '../../llm/cache.js'
import { eosSuffix } from '../../llm/settings.js'
import type { EmbeddingKeyRow } from '../../model/embedding-keys.js'
import type { EmbeddedRow, TextToEmbed } from './embed-text.js'

/**
 * Everything besides the text that selects the vector: the model as the LLM cache identifies it
 * (never where it is served or the key), how long texts are windowed, and the vector size.
 */
export function embeddingIdentity(model: ModelSettings, batchMaxTokens: number, vectorSize: number): string {
  return cacheKey({
    provider: model.model_provider,
    model: model.model,
    deployment: model.azure_deployment_name,
    apiVersion: model.api_version,
    dimensions: model.dimensions,
    encoding: model.encoding_model,
    batchMaxTokens,
    vectorSize,
    // Absent (so identities of runs without it are unchanged) unless append_eos is on.
    eos: model.append_eos ? eosSuffix(model.eos_token) : undefined,
  })
}

/** The key embedding_keys records for `text` under `identity`: equal keys mean the same vector. */
export function textKey(identity: string, text: string): string {
  return textKeys(identity)(text)
}

/**
 * textKey for many texts of one identity: `cacheKey({ identity, text })` with the canonical JSON
 * written out (keys in order, each value as JSON.stringify writes it) and the identity's part made
 * once; an update keys every text of the index (260,000 at 100,001 entities).
 */
function textKeys(identity: string): (text: string) => string {
  const prefix = `{"identity":${JSON.stringify(identity)},"text":`
  return (text) => hash('sha256', `${prefix}${JSON.stringify(text)}}`)
}

/** SHA-256 of the vector as float32 (what LanceDB stores), so a double and its stored copy agree. */
function vectorKey(vector: ArrayLike<number>): string {
  // LanceDB's copies are float32 already: hashed as they are, not copied value by value first.
  const floats = vector instanceof Float32Array ? vector : Float32Array.from(vector)
  return hash('sha256', new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength))
}

/** The previous run's record of one embedding name, and where its vectors can be read. */
export interface PreviousVectors {
  keys: readonly Pick<EmbeddingKeyRow, 'id' | 'text_key' | 'vector_key'>[]
  /** The stored vectors of these ids (ids not stored are absent); float32 from LanceDB, to hold half as much. */
  read(ids: readonly string[]): Promise<Map<string, ArrayLike<number>>>
}

export interface ReusingResult {
  /** One row per non-empty text, in input order (none when they went to `write`). */
  rows: EmbeddedRow[]
  /** The embedding_keys of those rows (without the name). */
  keys: Array<Pick<EmbeddingKeyRow, 'id' | 'text_key' | 'vector_key'>>
  reused: number
  embedded: number
}

type Sink = (rows: EmbeddedRow[]) => Promise<void>

/**
 * Vector values handed to the sink at once, at most: 1,000 rows of 1536 floats (~12 MB as number
 * arrays). Small vectors go in larger batches: each batch is one LanceDB commit and fragment, and an
 * update of 100,000 8-float vectors spent more on a hundred commits than on the rows.
 */
const FLUSH_FLOATS = 1_536_000

/**
 * Embeds the non-empty texts, taking back from `previous` every vector recorded as the embedding of
 * this very text by this model (what embedding it again gives, up to the model's own determinism);
 * `embed` gets the rest, in input order, and hands their rows to the sink it is given as they come.
 * With `write`, rows (taken back and new, in input order) go there batch by batch instead of being
 * returned, so the vectors of a large index never sit in memory at once.
 */
export async function embedReusing(
  texts: readonly TextToEmbed[],
  options: { identity: string; vectorSize: number; previous: PreviousVectors | undefined },
  embed: (texts: readonly TextToEmbed[], sink: Sink) => Promise<unknown>,
  write?: Sink,
): Promise<ReusingResult> {
  const keyOf = textKeys(options.identity)
  const flushRows = Math.max(1, Math.floor(FLUSH_FLOATS / options.vectorSize))
  const items = texts.filter((t) => t.text !== '').map((t) => ({ ...t, key: keyOf(t.text) }))
  const taken =
    options.previous === undefined
      ? new Map<string, TakenBack>()
      : await takeBack(items, options.previous, options.vectorSize)
  // Counted now: each taken-back vector is let go once written.
  const reused = taken.size
  const rows: EmbeddedRow[] = []
  const keys: ReusingResult['keys'] = []
  let next = 0
  let embedded = 0
  // Rows up to the first new one not embedded yet: taken-back rows in between go out with the new ones,
  // at most flushRows at a time (an update that changed little takes back nearly every row at once).
  const emit = async (fresh: readonly EmbeddedRow[]) => {
    let out: EmbeddedRow[] = []
    let k = 0
    for (; next < items.length; next++) {
      const item = items[next]!
      const back = taken.get(item.id)
      if (back === undefined && k === fresh.length) break
      // LanceDB's float32 copy goes out as it is; a snapshot's doubles become a number array for their flush.
      const reusedRow = back && (back.vector instanceof Float32Array ? back.vector : Array.from(back.vector))
      out.push(reusedRow === undefined ? fresh[k++]! : { id: item.id, vector: reusedRow })
      // A vector taken back was checked against its recorded key, which is therefore its key.
      keys.push({ id: item.id, text_key: item.key, vector_key: back?.vectorKey ?? vectorKey(out.at(-1)!.vector) })
      if (back !== undefined) taken.delete(item.id)
      if (out.length >= flushRows) out = await flush(out)
    }
    embedded += k
    await flush(out)
  }
  const flush = async (out: EmbeddedRow[]): Promise<EmbeddedRow[]> => {
    if (write === undefined) for (const row of out) rows.push(row)
    else if (out.length > 0) await write(out)
    return []
  }
  await embed(
    items.filter((t) => !taken.has(t.id)),
    (fresh) => emit(fresh),
  )
  await emit([])
  return { rows, keys, reused, embedded }
}

/** A vector taken back, with its key (the recorded one it was checked against). */
interface TakenBack {
  vector: ArrayLike<number>
  vectorKey: string
}

/** id → reusable vector. An id seen twice (now or before) is never reused: which vector is whose is unclear. */
async function takeBack(
  items: ReadonlyArray<TextToEmbed & { key: string }>,
  previous: PreviousVectors,
  vectorSize: number,
): Promise<Map<string, TakenBack>> {
  const recorded = onlyOnce(previous.keys)
  const current = onlyOnce(items)
  const candidates = [...current.values()].filter((t) => recorded.get(t.id)?.text_key === t.key)
  const out = new Map<string, TakenBack>()
  if (candidates.length === 0) return out
  const stored = await previous.read(candidates.map((t) => t.id))
  for (const { id } of candidates) {
    const vector = stored.get(id)
    const key = recorded.get(id)!.vector_key
    if (vector !== undefined && vector.length === vectorSize && vectorKey(vector) === key)
      out.set(id, { vector, vectorKey: key })
  }
  return out
}

function onlyOnce<T extends { id: string }>(rows: readonly T[]): Map<string, T> {
  const out = new Map<string, T>()
  const twice = new Set<string>()
  for (const row of rows) {
    const size = out.size
    // One lookup per row: the map does not grow when the id is already in it.
    if (out.set(row.id, row).size === size) twice.add(row.id)
  }
  for (const id of twice) out.delete(id)
  return out
}
