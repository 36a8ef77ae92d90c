/**
 * Workflow update_text_embeddings: generate_text_embeddings already replaced each LanceDB table with
 * the rows of the updated tables (vectors of unchanged texts taken back from the previous tables, see
 * previous-vectors.ts, or from the embedding cache); this checks that every vector table holds
 * exactly the ids of its table, so no vector of a deleted entity, text unit or report survives, and
 * records how many rows went away.
 */
import { WorkflowError } from '../../errors.js'
import { DEFAULT_EMBEDDING_NAMES, type EmbeddingName } from '../../model/embeddings.js'
import { column, defineTable } from '../../model/schema.js'
import { openVectorStore } from '../../storage/vector-store.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'
import { EMBEDDING_SOURCES } from './generate_text_embeddings.js'
import { currentRows, previousRows } from './update-previous.js'

const SOURCES = EMBEDDING_SOURCES

async function sourceIds(ctx: WorkflowContext, name: EmbeddingName, previous: boolean): Promise<string[]> {
  // The ids alone: the texts (reports' full content) are not decoded.
  const ids = defineTable(SOURCES[name].name, [column('id', 'string')] as const)
  const rows = previous ? await previousRows(ctx, ids) : await currentRows(ctx, ids)
  return rows.map((r) => r.id)
}

export const updateTextEmbeddings = defineWorkflow({
  name: 'update_text_embeddings',
  reads: [...new Set(Object.values(EMBEDDING_SOURCES).map((t) => t.name))],
  writes: [],
  fingerprint: (s) => ({ embed_text: s.embed_text.names, vector_store: s.vector_store.index_schema }),
  async run(ctx) {
    const { embed_text: settings, vector_store: vs } = ctx.settings
    const store = await openVectorStore(vs.db_uri)
    const summary: Record<string, number> = {}
    try {
      for (const name of (settings.names ?? DEFAULT_EMBEDDING_NAMES) as EmbeddingName[]) {
        const table = vs.index_schema[name]?.index_name ?? name
        if (!(await store.hasTable(table))) continue
        // One vector per row (rows, not distinct ids: report ids can repeat until issue 22.5 makes them unique).
        const rows = await sourceIds(ctx, name, false)
        const expected = new Set(rows)
        const stored = await store.ids(table)
        const stale = stored.filter((id) => !expected.has(id))
        if (stale.length > 0 || stored.length !== rows.length) {
          throw new WorkflowError(
            'update_text_embeddings',
            `LanceDB table ${table} in ${vs.db_uri} holds ${stored.length} rows for ${rows.length} rows of ${SOURCES[name].name} (${stale.length} stale ids, e.g. ${stale[0] ?? '-'})`,
          )
        }
        const removed = (await sourceIds(ctx, name, true)).filter((id) => !expected.has(id)).length
        summary[`${table}_rows`] = stored.length
        summary[`${table}_removed`] = removed
      }
    } finally {
      store.close()
    }
    return { summary }
  },
})
