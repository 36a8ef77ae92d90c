/** After `graphrag index` / `graphrag update` succeeded: bring hybrid search's full-text table up to date. */
import { configOf, type RunIndexOptions } from '../index/run/runner.js'
import { refreshFullTextTable } from '../query/hybrid/full-text-refresh.js'

export async function refreshFullTextAfterRun(options: RunIndexOptions): Promise<void> {
  try {
    const { settings } = configOf(options)
    const state = await refreshFullTextTable(settings)
    if (state === 'built')
      process.stderr.write(`Full-text table ${settings.hybrid_search.fts_table} rebuilt for hybrid search\n`)
  } catch (error) {
    // The index itself is complete; the next hybrid query rebuilds the table.
    process.stderr.write(
      `graphrag: warning: the full-text table was not refreshed (the next hybrid query rebuilds it): ${error instanceof Error ? error.message : String(error)}\n`,
    )
  }
}
