/**
 * Where generate_text_embeddings finds an update's earlier vectors: the embedding_keys of the index
 * being continued (the work generation as seeded, read before this run rewrites it) and the vectors
 * themselves, read from the LanceDB table before it is replaced (or from the embeddings.<name>
 * snapshot when snapshots are on, whose doubles LanceDB's float32 copies would not reproduce).
 */
import { EMBEDDING_KEYS, type EmbeddingKeyRow } from '../../model/embedding-keys.js'
import { embeddingSnapshotTable, type EmbeddingName } from '../../model/embeddings.js'
import { MODEL_REPLIES } from '../../model/model-replies.js'
import { StorageError } from '../../errors.js'
import type { Table } from '../../storage/arrow.js'
import { readColumn } from '../../storage/arrow-columns.js'
import type { ColumnSink } from '../../storage/table-columns.js'
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
  const sink = new KeysByName()
  const rows = await ctx.tables.read(EMBEDDING_KEYS, { columns: sink })
  // A store that does not take a column sink (a test's wrapper) returned the rows instead.
  sink.rows(rows)
  return sink.byName
}

/**
 * embedding_keys gathered by name straight from the decoded batches. A read of rows would intern
 * every string up to 256 bytes, and the two keys are 64 distinct hex digits on every row: at 100,001
 * entities, 520,000 map entries that no two rows share (the largest item of an update's embeddings).
 */
class KeysByName implements ColumnSink {
  readonly byName = new Map<string, EmbeddingKeyRow[]>()
  private file = ''

  expect(_rowCount: number, file: string): void {
    this.file = file
  }

  arrow(table: Table, firstIndex: number, keep: ((index: number) => boolean) | undefined): void {
    const [name, id, textKey, vectorKey] = EMBEDDING_KEYS.columns.map((col) => {
      const vector = table.getChild(col.name)
      if (vector === null)
        throw new StorageError(`${this.file}: embedding_keys has no column ${col.name}`, { path: this.file })
      return readColumn(vector) as string[]
    })
    const rows: EmbeddingKeyRow[] = []
    for (let i = 0; i < table.numRows; i++)
      if (keep?.(firstIndex + i) ?? true)
        rows.push({ name: name![i]!, id: id![i]!, text_key: textKey![i]!, vector_key: vectorKey![i]! })
    this.rows(rows)
  }

  rows(rows: readonly Record<string, unknown>[]): void {
    for (const row of rows as readonly EmbeddingKeyRow[]) {
      const own = this.byName.get(row.name)
      if (own === undefined) this.byName.set(row.name, [row])
      else own.push(row)
    }
  }
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
