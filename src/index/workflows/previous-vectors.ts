/**
 * Where generate_text_embeddings finds an update's earlier vectors: the embedding_keys of the index
 * being continued (the work generation as seeded, read before this run rewrites it) and the vectors
 * themselves, read from the LanceDB table before it is replaced (or from the embeddings.<name>
 * snapshot when snapshots are on, whose doubles LanceDB's float32 copies would not reproduce).
 */
import { EMBEDDING_KEYS, type EmbeddingKeyRow } from '../../model/embedding-keys.js'
import { embeddingSnapshotTable, type EmbeddingName } from '../../model/embeddings.js'
import { MODEL_REPLIES } from '../../model/model-replies.js'
import type { VectorStore } from '../../storage/vector-store.js'
import type { PreviousVectors } from '../operations/reuse-embeddings.js'
import type { WorkflowContext } from '../workflow.js'

/** Above this many ids one scan of the table beats one filtered query per chunk of ids. */
const READ_ALL_ABOVE = 256

/** The earlier embedding_keys by name; undefined when this is not an update or the index has none. */
export async function previousEmbeddingKeys(ctx: WorkflowContext): Promise<Map<string, EmbeddingKeyRow[]> | undefined> {
  if (ctx.previousTables === undefined) return undefined
  if (!(await ctx.tables.has(EMBEDDING_KEYS.name))) {
    // An index without model_replies (Microsoft GraphRAG's) got one notice for every model answer already.
    if (await ctx.previousTables.has(MODEL_REPLIES.name)) {
      ctx.stats.warning(
        'the previous index has no embedding_keys table (built by an older graphrag): its vectors cannot be matched to their texts, so every text is embedded again (or taken from the LLM cache)',
      )
    }
    return undefined
  }
  const byName = new Map<string, EmbeddingKeyRow[]>()
  for (const row of await ctx.tables.read(EMBEDDING_KEYS)) {
    const rows = byName.get(row.name) ?? []
    rows.push(row)
    byName.set(row.name, rows)
  }
  return byName
}

export async function previousVectors(
  ctx: WorkflowContext,
  keys: readonly EmbeddingKeyRow[] | undefined,
  name: EmbeddingName,
  lance: { store: VectorStore; table: string },
): Promise<PreviousVectors | undefined> {
  if (keys === undefined || keys.length === 0) return undefined
  if (ctx.settings.snapshots.embeddings) {
    const snapshot = embeddingSnapshotTable(name)
    if (!(await ctx.tables.has(snapshot.name))) return undefined
    return {
      keys,
      async read(ids) {
        const wanted = new Set(ids)
        const rows = (await ctx.tables.read(snapshot)).filter((r) => wanted.has(r.id))
        return new Map(rows.map((r) => [r.id, r.embedding]))
      },
    }
  }
  if (!(await lance.store.hasTable(lance.table))) return undefined
  return {
    keys,
    read: (ids) => lance.store.vectorsById(lance.table, ids.length > READ_ALL_ABOVE ? undefined : ids),
  }
}
