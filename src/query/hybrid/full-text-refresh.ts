/**
 * After an index or update run: the full-text table of hybrid search (ours, built on first use) is
 * rebuilt from the new text units when it exists, so it never indexes a previous generation's text
 * (diagnostics would show its stale row count, and the next hybrid query would pay for the rebuild).
 */
import { resolve } from 'node:path'
import type { Settings } from '../../config/index.js'
import { prepareFullTextTable, type FullTextState } from '../../storage/full-text.js'
import { openVectorStore } from '../../storage/vector-store.js'
import type { TextUnitRow } from '../../model/index.js'
import { loadTables } from '../load-index.js'

/** The rows the full-text table indexes: each text unit's id and text. */
export function fullTextRows(
  units: ReadonlyArray<Pick<TextUnitRow, 'id' | 'text'>>,
): Array<{ id: string; text: string }> {
  return units.map((u) => ({ id: u.id, text: u.text ?? '' }))
}

/** 'absent' when no full-text table was built yet (nothing to refresh), else what preparing it did. */
export async function refreshFullTextTable(settings: Settings): Promise<FullTextState | 'absent'> {
  const s = settings.hybrid_search
  const dbUri = settings.vector_store.db_uri
  const store = await openVectorStore(dbUri)
  let present: boolean
  try {
    present = await store.hasTable(s.fts_table)
  } finally {
    store.close()
  }
  if (!present || !s.build_fts) return 'absent'
  const { text_units } = await loadTables(resolve(settings.output_storage.base_dir), ['text_units'])
  return prepareFullTextTable(dbUri, s.fts_table, fullTextRows(text_units), true)
}
