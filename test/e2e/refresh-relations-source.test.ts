/**
 * `graphrag refresh-relations --source/--window/--truncate` (seed design 000's refresh_relations
 * utility) end to end: CLI over dist/, the fake model server's typed-edge replies (each unit of a
 * batch elaborates the one before it), chunk_edges.parquet read back with DuckDB.
 */
import { join } from 'node:path'
import { beforeAll, afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckQuery } from '../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

// Each sentence names its topic twice, so no chunk of one document repeats one of the other.
const sentences = (topic: string) =>
  [
    `The ${topic} guild keeps its ledgers in the old tower by the river gate of the ${topic}.`,
    `Every spring the ${topic} guild elects a warden who signs the ${topic} ledgers at dawn.`,
    `The warden of the ${topic} guild also settles disputes between ${topic} members.`,
    `Members of the ${topic} guild pay their dues at midsummer in ${topic} silver.`,
    `Old ${topic} masters teach the apprentices of the ${topic} guild in winter.`,
    `The ${topic} guild hall burned once and was rebuilt by ${topic} hands in stone.`,
  ].join(' ')

const SETTINGS = (url: string) =>
  [
    fakeModelSettingsYaml(url),
    'chunking:\n  size: 20\n  overlap: 0',
    'extract_graph:\n  max_gleanings: 0',
    'vector_store:\n  vector_size: 32',
    // Shared-entity edges off: the typed edges are the ones under test.
    'chunk_graph:\n  llm_edges: true\n  shared_entity_edges: false\n  max_edges_per_chunk: 0',
    '',
  ].join('\n')

// The first refresh-relations is spawned; the set-up index and the other runs ask the same commands in process
// (runCliInProcess: same main(), output and exit codes, no Node start-up per run).
describe('graphrag refresh-relations --source, --window, --truncate (CLI, fake model)', () => {
  let fake: FakeLlm
  let root: string
  const out = (name: string) => join(root, 'output', name)
  /** The typed edges as "source→target" human-readable ids, per document title of the source unit. */
  const typedEdges = async (title: string) =>
    (
      await duckQuery(
        `SELECT s.human_readable_id::INTEGER AS s, t.human_readable_id::INTEGER AS t FROM read_parquet('${out('chunk_edges.parquet')}') e JOIN read_parquet('${out('text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${out('text_units.parquet')}') t ON t.id = e.target_id JOIN read_parquet('${out('documents.parquet')}') d ON d.id = s.document_id WHERE e.origin = 'llm' AND d.title = '${title}' ORDER BY s, t`,
      )
    ).map((r) => `${r.s}→${r.t}`)

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 32 })
    root = await testdir({
      'settings.yaml': SETTINGS(fake.baseUrl),
      'input/alpha.txt': sentences('weavers'),
      'input/beta.txt': sentences('potters'),
    })
    const index = await runCliInProcess(['index', '--root', root])
    expect(index.code, index.stderr).toBe(0)
  }, 180_000)

  afterAll(async () => {
    await fake?.close()
  })

  it("--source rebuilds one document's typed edges with --window as the batch size and keeps the other's", async () => {
    const alphaBefore = await typedEdges('alpha.txt')
    const betaBefore = await typedEdges('beta.txt')
    // Batches of 5 without overlap: four consecutive pairs per batch of five units.
    expect(alphaBefore.length).toBeGreaterThanOrEqual(5)
    const before = fake.requests.length
    const run = await runCli(['refresh-relations', '--root', root, '--source', 'alpha.txt', '--window', '2'])
    expect(run.code, run.stderr).toBe(0)
    const calls = fake.requests.slice(before).filter((r) => r.kind === 'chunk_graph')
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) expect(JSON.stringify(call.body)).not.toContain('potters')
    // Batches of two (units 0-1, 2-3, …): only the pairs inside one batch are linked now; the last
    // batch equals the old run's widened last batch, so its reply came from the cache.
    const alphaAfter = await typedEdges('alpha.txt')
    expect(alphaAfter).toEqual(alphaBefore.filter((edge) => Number(edge.split('→')[0]) % 2 === 1))
    expect(alphaAfter.length).toBeLessThan(alphaBefore.length)
    expect(await typedEdges('beta.txt')).toEqual(betaBefore)
  }, 120_000)

  it('--truncate cuts each unit shown to the model to that many tokens', async () => {
    const before = fake.requests.length
    const run = await runCliInProcess(['refresh-relations', '--root', root, '--source', 'beta.txt', '--truncate', '3'])
    expect(run.code, run.stderr).toBe(0)
    const calls = fake.requests.slice(before).filter((r) => r.kind === 'chunk_graph')
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) {
      const text = JSON.stringify(call.body)
      expect(text).toContain('…')
      expect(text).not.toContain('keeps its ledgers')
    }
  }, 120_000)

  it('names a --source no document has, and refuses a --window under 2', async () => {
    const unknown = await runCliInProcess(['refresh-relations', '--root', root, '--source', 'gamma.txt'])
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain('chunk_graph.refresh_documents: no document has the id or title "gamma.txt"')
    const small = await runCliInProcess(['refresh-relations', '--root', root, '--window', '1'])
    expect(small.code).not.toBe(0)
    expect(small.stderr).toContain("option '--window <units>' argument '1' is invalid")
    // New units without the documents they belong to mean nothing: refused, naming both keys.
    const stray = await runCliInProcess(['refresh-relations', '--root', root], {
      env: { GRAPHRAG_CHUNK_GRAPH__REFRESH_NEW_UNITS: '2' },
    })
    expect(stray.code).not.toBe(0)
    expect(stray.stderr).toContain('chunk_graph.refresh_new_units: needs chunk_graph.refresh_documents')
  }, 60_000)
})
