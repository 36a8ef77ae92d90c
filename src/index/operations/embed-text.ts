/**
 * Text embeddings for the vector store: which text each embedding name embeds, and the embedding
 * of those texts in flushes (so progress moves) through the embedding model, which batches, windows
 * long texts and caches (a rerun only sends new or changed texts). Empty texts get no vector and
 * no row, as in the reference. A vector whose dimension differs from the configured size fails fast.
 */
import { ConfigError } from '../../errors.js'
import type { EmbeddingModel } from '../../llm/types.js'
import type { EmbeddingName } from '../../model/embeddings.js'
import { InOrderWriter } from './in-order-writer.js'

export interface TextToEmbed {
  id: string
  text: string
}

export interface EmbeddedRow {
  id: string
  /** The model's doubles, or their float32 copy with `float32` (what LanceDB stores, half the memory). */
  vector: number[] | Float32Array
}

/** Rows of the table an embedding reads (text_units, entities, relationships, documents or community_reports). */
export interface EmbeddingSourceRows {
  name: EmbeddingName
  rows: ReadonlyArray<{ readonly id: string; readonly [column: string]: unknown }>
}

const str = (value: unknown) => (typeof value === 'string' ? value : '')

/** The text each embedding embeds, as in the reference: one column, or `title:description` (no space) for entity_description. */
const TEXT_OF: Record<EmbeddingName, (row: EmbeddingSourceRows['rows'][number]) => string> = {
  entity_title: (r) => str(r.title),
  entity_description: (r) => `${str(r.title)}:${str(r.description)}`,
  relationship_description: (r) => str(r.description),
  document_text: (r) => str(r.text),
  text_unit_text: (r) => str(r.text),
  community_title: (r) => str(r.title),
  community_summary: (r) => str(r.summary),
  community_full_content: (r) => str(r.full_content),
}

/** The source columns TEXT_OF reads, besides `id`: all a name needs read of its table. */
export const TEXT_COLUMNS: Record<EmbeddingName, readonly string[]> = {
  entity_title: ['title'],
  entity_description: ['title', 'description'],
  relationship_description: ['description'],
  document_text: ['text'],
  text_unit_text: ['text'],
  community_title: ['title'],
  community_summary: ['summary'],
  community_full_content: ['full_content'],
}

export function embeddingTexts(source: EmbeddingSourceRows): TextToEmbed[] {
  const text = TEXT_OF[source.name]
  return source.rows.map((r) => ({ id: r.id, text: text(r) }))
}

export interface EmbedOptions {
  name: EmbeddingName
  /** The dimension the vector store expects. */
  vectorSize: number
  /** The settings key that sets vectorSize, named in the mismatch error. */
  vectorSizeKey: string
  /** Texts handed to the model per call (the model batches them further). */
  flushSize: number
  /**
   * Keep each vector as float32 from the moment its flush returns: the vector store rounds to float32
   * anyway, and the flushes waiting for their turn to be written then hold half as much.
   */
  float32?: boolean
}

export interface EmbedServices {
  model: EmbeddingModel
  signal?: AbortSignal
  onEmbedded?: (count: number) => void
  /**
   * Receives the rows flush by flush, in input order, one call at a time; embedTexts then returns no
   * rows, so only a few flushes of vectors are in memory at once, whatever the number of texts.
   */
  write?: (rows: EmbeddedRow[]) => Promise<void>
}

/**
 * Flushes in flight at once: enough that the model's slots stay busy while one flush's slowest batch
 * finishes (no barrier between flushes), few enough that queued work stays small.
 */
const FLUSHES_IN_FLIGHT = 4

/** Embeds the non-empty texts in input order (returned, or handed to `services.write`); rows with empty text are left out. */
export async function embedTexts(
  texts: readonly TextToEmbed[],
  options: EmbedOptions,
  services: EmbedServices,
): Promise<EmbeddedRow[]> {
  const items = texts.filter((t) => t.text !== '')
  const flushes: TextToEmbed[][] = []
  for (let start = 0; start < items.length; start += options.flushSize)
    flushes.push(items.slice(start, start + options.flushSize))
  const results: EmbeddedRow[][] = new Array<EmbeddedRow[]>(flushes.length)
  // Flushes finishing early wait for the ones before them; at most twice the flushes in flight wait.
  const ordered = services.write && new InOrderWriter(services.write, 2 * FLUSHES_IN_FLIGHT)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < flushes.length) {
      const at = next++
      try {
        await ordered?.room(at)
        const rows = await embedFlush(flushes[at]!, options, services)
        services.onEmbedded?.(flushes[at]!.length)
        if (ordered === undefined) results[at] = rows
        else await ordered.put(at, rows)
      } catch (error) {
        ordered?.stop(error)
        throw error
      }
    }
  }
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(FLUSHES_IN_FLIGHT, flushes.length) }, worker))
  // The first failure in input order, whichever settled first.
  for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason
  return results.flat()
}

async function embedFlush(
  flush: readonly TextToEmbed[],
  options: EmbedOptions,
  services: EmbedServices,
): Promise<EmbeddedRow[]> {
  const vectors = await services.model.embed(
    flush.map((t) => t.text),
    services.signal === undefined ? undefined : { signal: services.signal },
  )
  return flush.map((item, i) => {
    const vector = vectors[i]!
    if (vector.length !== options.vectorSize) {
      throw new ConfigError(
        `embedding model ${services.model.model} returned vectors of dimension ${vector.length} for ${options.name}, ` +
          `but ${options.vectorSizeKey} is ${options.vectorSize}; set it to ${vector.length}`,
        { keyPath: options.vectorSizeKey },
      )
    }
    return { id: item.id, vector: options.float32 ? new Float32Array(vector) : vector }
  })
}
