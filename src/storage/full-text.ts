/**
 * A LanceDB table of ours with a native full-text (BM25) index over text unit text, beside the
 * reference's vector tables (which keep their layout). The table records a fingerprint of the
 * texts it was built from in its schema metadata, so a re-indexed corpus is noticed and rebuilt.
 */
import { createHash } from 'node:crypto'
import { Field, Schema, Utf8 } from './arrow.js'
import { StorageError } from '../errors.js'
import { loadLanceDb } from './vector-store.js'

export interface FullTextRow {
  id: string
  text: string
}

export interface FullTextHit {
  id: string
  /** BM25 score (higher is better). */
  score: number
}

/** What `prepareFullTextTable` found: a current table, one it (re)built, or none (missing or stale, and building is off). */
export type FullTextState = 'ready' | 'built' | 'missing' | 'stale'

const FINGERPRINT_KEY = 'graphrag_fulltext_fingerprint'

/** Identifies the rows (ids and texts, in order); stored in the table's schema metadata. */
function fullTextFingerprint(rows: readonly FullTextRow[]): string {
  const hash = createHash('sha256')
  for (const row of rows) hash.update(`${row.id}\u0000${row.text}\u0000`)
  return hash.digest('hex')
}

/** Makes sure `table` in `dbUri` indexes exactly `rows`; builds it when missing or stale and `build` is set. */
export async function prepareFullTextTable(
  dbUri: string,
  table: string,
  rows: readonly FullTextRow[],
  build: boolean,
): Promise<FullTextState> {
  const lance = await loadLanceDb()
  const db = await lance.connect(dbUri)
  try {
    const fingerprint = fullTextFingerprint(rows)
    let state: FullTextState = 'missing'
    if ((await db.tableNames()).includes(table)) {
      const existing = await db.openTable(table)
      const stored = (await existing.schema()).metadata.get(FINGERPRINT_KEY)
      existing.close()
      if (stored === fingerprint) return 'ready'
      state = 'stale'
    }
    if (!build) return state
    const schema = new Schema(
      [new Field('id', new Utf8(), false), new Field('text', new Utf8(), false)],
      new Map([[FINGERPRINT_KEY, fingerprint]]),
    )
    const created = await db.createTable(
      table,
      rows.map((r) => ({ id: r.id, text: r.text })),
      { mode: 'overwrite', schema },
    )
    // Positions are only needed for phrase queries, which search never sends.
    await created.createIndex('text', { config: lance.Index.fts({ withPosition: false }), replace: true })
    created.close()
    return 'built'
  } catch (cause) {
    throw new StorageError(`cannot build the full-text table ${table} in ${dbUri}`, { path: dbUri, cause })
  } finally {
    db.close()
  }
}

/** The k best BM25 matches of `query` (LanceDB's tokenizer: lower case, English stemming and stop words), best first, ties by id. */
export async function fullTextSearch(dbUri: string, table: string, query: string, k: number): Promise<FullTextHit[]> {
  const lance = await loadLanceDb()
  const db = await lance.connect(dbUri)
  try {
    const opened = await db.openTable(table)
    const rows = (await opened
      .query()
      .fullTextSearch(query, { columns: 'text' })
      .select(['id', '_score'])
      .limit(k)
      .toArray()) as Array<{ id: string; _score: number }>
    opened.close()
    return rows
      .map((r) => ({ id: String(r.id), score: r._score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  } catch (cause) {
    throw new StorageError(`full-text search in ${table} (${dbUri}) failed`, { path: dbUri, cause })
  } finally {
    db.close()
  }
}
