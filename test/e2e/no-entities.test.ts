/**
 * extract_graph.enabled: false (seed design 000's entity-extraction switch) through the CLI and the
 * fake model server: the index holds text units, documents, embeddings and the chunk graph only,
 * the searches that need no entities answer, and the others say what is missing.
 */
import { access, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckQuery } from '../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { runQueryInProcess } from '../support/query-command.js'
import { testdir } from '../support/testdir.js'

const DOCS = {
  'input/harbour.txt':
    'Marta Quill keeps the records of Kettle Harbour. Captain Olsen brings the mail from North Pier. The Harbour Council meets in the Lantern Hall.',
  'input/market.txt':
    'Mayor Brandt closed the Fish Market for the winter. Captain Olsen and Mayor Brandt argued at Lantern Hall about the closure.',
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

describe('indexing without entity extraction (CLI, fake model)', () => {
  let fake: FakeLlm
  let root: string
  let index: CliResult
  const out = (name: string) => join(root, 'output', name)

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 16 })
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl),
      'chunking:\n  size: 20\n  overlap: 0',
      'vector_store:\n  vector_size: 16',
      'extract_graph:\n  enabled: false',
      'extract_claims:\n  enabled: true',
      '',
    ].join('\n')
    root = await testdir({ 'settings.yaml': settings, ...DOCS })
    index = await runCli(['index', '--root', root])
  }, 120_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('succeeds with text units, documents, embeddings and the chunk graph, and asks the model nothing', async () => {
    expect(index.code, index.stderr).toBe(0)
    expect(index.stderr).not.toContain('warning')
    for (const table of ['text_units', 'documents', 'chunk_edges'])
      expect(await exists(out(`${table}.parquet`)), table).toBe(true)
    for (const table of ['entities', 'relationships', 'communities', 'community_reports', 'covariates'])
      expect(await exists(out(`${table}.parquet`)), table).toBe(false)
    const [{ units, cited }] = await duckQuery(
      `SELECT count(*)::INTEGER AS units, sum(len(entity_ids))::INTEGER AS cited FROM read_parquet('${out('text_units.parquet')}')`,
    )
    expect(units).toBeGreaterThan(1)
    expect(cited).toBe(0)
    // Sequence edges link the units of each document.
    const [{ edges }] = await duckQuery(
      `SELECT count(*)::INTEGER AS edges FROM read_parquet('${out('chunk_edges.parquet')}') WHERE relation = 'sequence'`,
    )
    expect(edges).toBeGreaterThan(0)
    expect(fake.requests.filter((r) => r.kind !== 'embedding')).toEqual([])
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as { workflows: Record<string, unknown> }
    expect(Object.keys(stats.workflows)).toEqual([
      'load_input_documents',
      'create_base_text_units',
      'create_final_documents',
      'create_final_text_units',
      'generate_text_embeddings',
      'create_chunk_graph',
    ])
  })

  it('answers basic, graph and hybrid search; local search names the missing table', async () => {
    // In process (the search is what is tested; a CLI start costs seconds); local's refusal through the CLI.
    for (const method of ['basic', 'graph', 'hybrid'] as const) {
      const run = await runQueryInProcess(root, 'Who argued at Lantern Hall?', method)
      const result = JSON.parse(run.stdout) as { response: string }
      expect(result.response.length, method).toBeGreaterThan(0)
    }
    const local = await runCliInProcess(['query', 'Who argued?', '--root', root, '--method', 'local'])
    expect(local.code).not.toBe(0)
    expect(local.stderr).toContain('the index has no entities table')
  })

  it('refuses graphrag update with the setting named', async () => {
    const run = await runCliInProcess(['update', '--root', root])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('extract_graph.enabled: false')
  })

  it('the fast method skips its noun-phrase graph the same way', async () => {
    const fast = await runCliInProcess(['index', '--root', root, '--method', 'fast'])
    expect(fast.code, fast.stderr).toBe(0)
    expect(await exists(out('entities.parquet'))).toBe(false)
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as { workflows: Record<string, unknown> }
    expect(Object.keys(stats.workflows)).not.toContain('extract_graph_nlp')
  })
})
