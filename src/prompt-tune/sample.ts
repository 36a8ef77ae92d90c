/**
 * The sample prompt-tune learns from: the input loaded and chunked by the same loader and chunker
 * as `graphrag index` (chunk size and overlap from the command line), then selected.
 */
import type { Settings } from '../config/schema.js'
import { InputError, InternalError } from '../errors.js'
import { loadDocuments } from '../index/input/load-documents.js'
import { chunkDocuments } from '../index/operations/chunk-text.js'
import { getTokenizer } from '../llm/tokenizer.js'
import type { EmbeddingModel } from '../llm/types.js'
import { indicesWithoutEmbeddings, nearestToCentres, type SelectionMethod } from './select.js'

export interface SampleChunk {
  /** Position among all chunks of the corpus (0-based). */
  index: number
  documentId: string
  documentTitle: string
  text: string
  nTokens: number
}

export interface SelectionOptions {
  method: SelectionMethod
  limit: number
  nSubsetMax: number
  k: number
  seed: number
}

export interface Corpus {
  documents: number
  chunks: SampleChunk[]
}

export async function loadCorpus(
  settings: Settings,
  chunking: { size: number; overlap: number },
  onWarning: (m: string) => void,
): Promise<Corpus> {
  const { documents } = await loadDocuments(
    { ...settings.input, baseDir: settings.input_storage.base_dir },
    { onWarning },
  )
  const titles = new Map(documents.map((d) => [d.id, d.title]))
  const rows = chunkDocuments(
    documents,
    { ...settings.chunking, ...chunking },
    getTokenizer(settings.chunking.encoding_model),
  )
  const chunks = rows.map((r, index) => ({
    index,
    documentId: r.document_id,
    documentTitle: titles.get(r.document_id) ?? '',
    text: r.text,
    nTokens: r.n_tokens,
  }))
  if (chunks.length === 0)
    throw new InputError(`no text to learn from: the documents in ${settings.input_storage.base_dir} are empty`)
  return { documents: documents.length, chunks }
}

/** Chunks chosen without embeddings; for `auto`, the candidates that would be embedded. */
export function candidates(corpus: Corpus, options: SelectionOptions): SampleChunk[] {
  return indicesWithoutEmbeddings(
    options.method,
    corpus.chunks.length,
    options.limit,
    options.nSubsetMax,
    options.seed,
  ).map((i) => corpus.chunks[i]!)
}

/** The final sample: for `auto`, embeds the candidates and keeps the chunk nearest each of k k-means centres. */
export async function selectSample(
  corpus: Corpus,
  options: SelectionOptions,
  embedder: EmbeddingModel | undefined,
): Promise<SampleChunk[]> {
  const pool = candidates(corpus, options)
  if (options.method !== 'auto') return pool
  if (embedder === undefined) throw new InternalError('auto selection was started without an embedding model')
  const vectors = await embedder.embed(pool.map((c) => c.text))
  return nearestToCentres(vectors, options.k, options.seed).map((i) => pool[i]!)
}
