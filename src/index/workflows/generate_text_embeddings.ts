/** Workflow generate_text_embeddings: embeds unit texts, entity descriptions and reports into LanceDB. */
import { ConfigError } from '../../errors.js'
import type { EmbeddingModel } from '../../llm/types.js'
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { EMBEDDING_NAMES, embeddingSnapshotTable, type EmbeddingName } from '../../model/embeddings.js'
import { ENTITIES } from '../../model/entities.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { openVectorStore, type VectorStore } from '../../storage/vector-store.js'
import { embedTexts, embeddingTexts, type EmbeddingSourceRows } from '../operations/embed-text.js'
import type { Workflow, WorkflowContext } from '../workflow.js'

const SOURCES = { text_unit_text: TEXT_UNITS, entity_description: ENTITIES, community_full_content: COMMUNITY_REPORTS }

async function readSource(ctx: WorkflowContext, name: EmbeddingName): Promise<EmbeddingSourceRows | undefined> {
  if (!(await ctx.tables.has(SOURCES[name].name))) return undefined
  if (name === 'text_unit_text') return { name, rows: await ctx.tables.read(TEXT_UNITS) }
  if (name === 'entity_description') return { name, rows: await ctx.tables.read(ENTITIES) }
  return { name, rows: await ctx.tables.read(COMMUNITY_REPORTS) }
}

function embeddingName(name: string): EmbeddingName {
  if ((EMBEDDING_NAMES as readonly string[]).includes(name)) return name as EmbeddingName
  throw new ConfigError(`unknown embedding "${name}" (expected one of ${EMBEDDING_NAMES.join(', ')})`, { keyPath: 'embed_text.names' })
}

export const generateTextEmbeddings: Workflow = {
  name: 'generate_text_embeddings',
  reads: [TEXT_UNITS.name, ENTITIES.name, COMMUNITY_REPORTS.name],
  writes: [],
  vectorStore: 'writes',
  fingerprint: (s) => ({ embed_text: s.embed_text, vector_store: s.vector_store, snapshots: s.snapshots.embeddings }),
  async run(ctx) {
    const settings = ctx.settings.embed_text
    const model = ctx.models.embedding(settings.embedding_model_id, { keyPath: 'embed_text.embedding_model_id', cachePartition: settings.model_instance_name })
    const names = (settings.names ?? EMBEDDING_NAMES).map(embeddingName)
    const store = await openVectorStore(ctx.settings.vector_store.db_uri)
    try {
      // The names are independent: embedded side by side they share the model's slots, so the few
      // report texts need not wait for thousands of unit texts. Rows are listed in settings order.
      // Settled, not raced: the store is closed only once no name is still writing to it.
      const outcomes = await Promise.allSettled(names.map((name) => embedOne(ctx, name, model, store)))
      const rows: Record<string, number> = {}
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') throw outcome.reason
        if (outcome.value !== undefined) rows[outcome.value.table] = outcome.value.rows
      }
      return { rows }
    } finally {
      store.close()
    }
  },
}

/** Embeds one name into its LanceDB table (and the snapshot table when on); undefined when its source is absent. */
async function embedOne(
  ctx: WorkflowContext,
  name: EmbeddingName,
  model: EmbeddingModel,
  store: VectorStore,
): Promise<{ table: string; rows: number } | undefined> {
  const { embed_text: settings, vector_store: vs } = ctx.settings
  const source = await readSource(ctx, name)
  if (source === undefined) {
    ctx.stats.warning(`embedding ${name} skipped: table ${SOURCES[name].name} does not exist`)
    return undefined
  }
  const schema = vs.index_schema[name]
  const vectorSize = schema?.vector_size || vs.vector_size
  const vectorSizeKey = schema?.vector_size ? `vector_store.index_schema.${name}.vector_size` : 'vector_store.vector_size'
  const texts = embeddingTexts(source)
  const progress = ctx.progress(`embeddings ${name}`, texts.filter((t) => t.text !== '').length)
  const options = { name, vectorSize, vectorSizeKey, flushSize: settings.batch_size * 25 }
  const embedded = await embedTexts(texts, options, { model, signal: ctx.signal, onEmbedded: (n) => progress.tick(n) })
  progress.done()
  await store.replaceTable(schema?.index_name ?? name, embedded, ctx.clock.now(), { vectorSize })
  if (ctx.settings.snapshots.embeddings) {
    await ctx.tables.write(embeddingSnapshotTable(name), embedded.map((r) => ({ id: r.id, embedding: r.vector })))
  }
  return { table: `lancedb/${schema?.index_name ?? name}`, rows: embedded.length }
}
