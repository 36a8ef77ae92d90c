// After an update, diagnostics shows the full-text table's row count of the new text units, not the
// previous generation's: index and update rebuild the table when hybrid search had built one.
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { TEXT_UNITS } from '../../src/model/index.js'
import { fullTextRows, refreshFullTextTable } from '../../src/query/hybrid/full-text-refresh.js'
import { diagnose } from '../../src/server/diagnostics.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { prepareFullTextTable } from '../../src/storage/full-text.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { writeHybridIndex } from '../query/support/hybrid-index.js'
import { testdir } from '../support/testdir.js'

const OFFLINE = [
  'completion_models: {}',
  'embedding_models:',
  '  default_embedding_model:',
  '    model_provider: local',
  '    model: hashing-384',
  '    dimensions: 4',
  '',
].join('\n')

async function ftsRows(root: string): Promise<number | undefined> {
  const report = await diagnose(loadConfig({ root, env: {} }), new ModelProbe())
  const tables = report.vector_tables as Array<{ name: string; rows: number }>
  return tables.find((t) => t.name === 'text_unit_text_fts')?.rows
}

describe('full-text table after an index or update run', () => {
  it('is rebuilt from the new text units, so diagnostics counts them', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE })
    const output = join(root, 'output')
    await writeHybridIndex(output)
    const { settings } = loadConfig({ root, env: {} })
    const store = new ParquetTableStore(output)
    // The first hybrid query builds the table over the six text units.
    const units = await store.read(TEXT_UNITS)
    await prepareFullTextTable(join(output, 'lancedb'), 'text_unit_text_fts', fullTextRows(units), true)
    expect(await ftsRows(root)).toBe(6)

    // An update leaves four text units.
    await store.write(TEXT_UNITS, units.slice(0, 4))
    expect(await refreshFullTextTable(settings)).toBe('built')
    expect(await ftsRows(root)).toBe(4)
    expect(await refreshFullTextTable(settings)).toBe('ready')
  })

  it('is not created when hybrid search never built one', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE })
    await writeHybridIndex(join(root, 'output'))
    expect(await refreshFullTextTable(loadConfig({ root, env: {} }).settings)).toBe('absent')
    expect(await ftsRows(root)).toBeUndefined()
  })
})
