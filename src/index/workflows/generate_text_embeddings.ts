/**
 * Workflow generate_text_embeddings: embeds the texts named in embed_text.names (any of the eight) into
 * LanceDB and records in embedding_keys which text each vector embeds; an update takes back the vectors
 * of unchanged texts from the previous index (previous-vectors.ts) and embeds only the others.
 */
import { isAbsolute, relative } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import type { EmbeddingModel } from '../../llm/types.js'
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { EMBEDDING_KEYS, type EmbeddingKeyRow } from '../../model/embedding-keys.js'
import { DOCUMENTS } from '../../model/documents.js'
import {
  DEFAULT_EMBEDDING_NAMES,
  EMBEDDING_NAMES,
  embeddingSnapshotTable,
  type EmbeddingName,
} from '../../model/embeddings.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns, type TableSchema } from '../../model/schema.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { openVectorStore, type VectorStore } from '../../storage/vector-store.js'
import {
  embedTexts,
  embeddingTexts,
  TEXT_COLUMNS,
  type EmbeddedRow,
  type EmbeddingSourceRows,
} from '../operations/embed-text.js'
import { embeddingsUsage } from '../operations/estimate-usage.js'
import { embedReusing, embeddingIdentity } from '../operations/reuse-embeddings.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'
import { embedOptions, embedTextModel } from './embedding-setup.js'
import { previousEmbeddingKeys, previousVectors } from './previous-vectors.js'
import { prefetchTextUnitEmbeddings } from './text-unit-embedding-prefetch.js'

/** The table each embedding's texts and ids come from. */
export const EMBEDDING_SOURCES = {
  entity_title: ENTITIES,
  entity_description: ENTITIES,
  relationship_description: RELATIONSHIPS,
  document_text: DOCUMENTS,
  text_unit_text: TEXT_UNITS,
  community_title: COMMUNITY_REPORTS,
  community_summary: COMMUNITY_REPORTS,
  community_full_content: COMMUNITY_REPORTS,
} as const satisfies Record<EmbeddingName, unknown>

async function readSource(ctx: WorkflowContext, name: EmbeddingName): Promise<EmbeddingSourceRows | undefined> {
  const schema: TableSchema = EMBEDDING_SOURCES[name]
  if (!(await ctx.tables.has(schema.name))) return undefined
  // Only the columns the text comes from: the text-unit and entity rows' id lists are not decoded.
  const rows = await ctx.tables.read(pickColumns(schema, ['id', ...TEXT_COLUMNS[name]]))
  // Every source table declares `id` a non-null string; the picked schema's type no longer says which.
  return { name, rows: rows as unknown as EmbeddingSourceRows['rows'] }
}

function embeddingName(name: string): EmbeddingName {
  if ((EMBEDDING_NAMES as readonly string[]).includes(name)) return name as EmbeddingName
  throw new ConfigError(`unknown embedding "${name}" (expected one of ${EMBEDDING_NAMES.join(', ')})`, {
    keyPath: 'embed_text.names',
  })
}

export const generateTextEmbeddings = defineWorkflow({
  name: 'generate_text_embeddings',
  reads: [TEXT_UNITS.name, ENTITIES.name, COMMUNITY_REPORTS.name, RELATIONSHIPS.name, DOCUMENTS.name],
  writes: [EMBEDDING_KEYS.name],
  fingerprint: (s) => ({ embed_text: s.embed_text, vector_store: s.vector_store, snapshots: s.snapshots.embeddings }),
  models: (s) => ({ chat: [], embedding: [s.embed_text.embedding_model_id] }),
  estimate: (x) =>
    embeddingsUsage(x, x.settings.embed_text.names ?? EMBEDDING_NAMES, {
      batchSize: x.settings.embed_text.batch_size,
      batchMaxTokens: x.settings.embed_text.batch_max_tokens,
    }),
  writesVectorStore: true,
  async run(ctx) {
    const settings = ctx.settings.embed_text
    const model = embedTextModel(ctx)
    const names = (settings.names ?? DEFAULT_EMBEDDING_NAMES).map(embeddingName)
    const previous = await previousEmbeddingKeys(ctx)
    const store = await openVectorStore(ctx.settings.vector_store.db_uri)
    try {
      // The names are independent: embedded side by side they share the model's slots, so the few
      // report texts need not wait for thousands of unit texts. Rows are listed in settings order.
      // Settled, not raced: the store is closed only once no name is still writing to it.
      const outcomes = await Promise.allSettled(
        names.map((name) => embedOne(ctx, name, model, store, previous?.get(name))),
      )
      const rows: Record<string, number> = {}
      const summary: Record<string, number> = {}
      const keys: EmbeddingKeyRow[] = []
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') throw outcome.reason
        if (outcome.value === undefined) continue
        const { name, table, keys: own, reused, embedded } = outcome.value
        rows[table] = own.length
        summary[`${name}_reused`] = reused
        summary[`${name}_embedded`] = embedded
        keys.push(...own.map((k) => ({ name, ...k })))
      }
      await ctx.tables.write(EMBEDDING_KEYS, keys)
      return { rows, summary }
    } finally {
      store.close()
    }
  },
  // A shard embeds its slice of the text units; the other names need the whole corpus extracted.
  prefetch: prefetchTextUnitEmbeddings,
})

interface EmbeddedName {
  name: EmbeddingName
  table: string
  keys: Array<Omit<EmbeddingKeyRow, 'name'>>
  reused: number
  embedded: number
}

/**
 * Embeds one name into its LanceDB table (and the snapshot table when on), taking back the vectors
 * `previousKeys` proves unchanged; undefined when its source is absent.
 */
async function embedOne(
  ctx: WorkflowContext,
  name: EmbeddingName,
  model: EmbeddingModel,
  store: VectorStore,
  previousKeys: EmbeddingKeyRow[] | undefined,
): Promise<EmbeddedName | undefined> {
  const { embed_text: settings, vector_store: vs } = ctx.settings
  const source = await readSource(ctx, name)
  if (source === undefined) {
    // With entity extraction off the entity and report tables are absent by design: no warning.
    if (ctx.settings.extract_graph.enabled)
      ctx.stats.warning(`embedding ${name} skipped: table ${EMBEDDING_SOURCES[name].name} does not exist`)
    return undefined
  }
  const texts = embeddingTexts(source)
  const table = vs.index_schema[name]?.index_name ?? name
  const total = texts.filter((t) => t.text !== '').length
  const progress = ctx.progress(`embeddings ${name}`, total)
  // Snapshots keep the model's doubles, which a float32 copy would not reproduce.
  const options = { ...embedOptions(ctx.settings, name), float32: !ctx.settings.snapshots.embeddings }
  const { vectorSize } = options
  // Present: ctx.models.embedding above fails on an unknown id.
  const modelSettings = ctx.settings.embedding_models[settings.embedding_model_id]!
  // The previous vectors are read here, before the first flush overwrites the table they are in.
  const previous = await previousVectors(ctx, previousKeys, name, { store, table })
  const writer = store.writeTable(table, ctx.clock.now(), { vectorSize })
  // Rows go to LanceDB flush by flush (all vectors at once took more memory than the rest of the run),
  // unless the store is one queries may read during the run: its table is still replaced in one commit.
  const held: EmbeddedRow[] | undefined = writesInPlace(ctx.settings) ? undefined : []
  const snapshot: Array<{ id: string; embedding: number[] }> | undefined = ctx.settings.snapshots.embeddings
    ? []
    : undefined
  const write = async (rows: EmbeddedRow[]) => {
    // With snapshots on, float32 is off: the rows carry the model's doubles (arrays), kept as they are.
    if (snapshot !== undefined)
      for (const r of rows)
        snapshot.push({ id: r.id, embedding: Array.isArray(r.vector) ? r.vector : Array.from(r.vector) })
    if (held === undefined) await writer.add(rows)
    else for (const r of rows) held.push(r)
  }
  const result = await embedReusing(
    texts,
    { identity: embeddingIdentity(modelSettings, settings.batch_max_tokens, vectorSize), vectorSize, previous },
    (rest, sink) => {
      progress.tick(total - rest.length)
      return embedTexts(rest, options, {
        model,
        signal: ctx.signal,
        onEmbedded: (n) => progress.tick(n),
        write: sink,
      })
    },
    write,
  )
  progress.done()
  if (held !== undefined) await writer.add(held)
  await writer.finish()
  if (snapshot !== undefined) await ctx.tables.write(embeddingSnapshotTable(name), snapshot)
  return { name, table: `lancedb/${table}`, keys: result.keys, reused: result.reused, embedded: result.embedded }
}

/**
 * Whether the vector store lies inside the folder this run writes its tables to (the work generation
 * by default, published as a whole when the run succeeds), where no query sees a table half-written.
 */
function writesInPlace(settings: Settings): boolean {
  const rel = relative(settings.output_storage.base_dir, settings.vector_store.db_uri)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
