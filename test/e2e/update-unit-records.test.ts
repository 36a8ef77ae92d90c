/**
 * An update with the LLM cache gone (`--no-cache`) replays every unchanged text unit's extraction
 * from the record model_replies carried (operations/extract-graph/unit-records.ts) instead of parsing
 * its replies again, extracts only the added document's units, and carries a record of every unit
 * into the new model_replies: the same rows a full index of the same inputs writes.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { MODEL_REPLIES, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { addedNameDocument, nameGraphCorpus } from '../support/name-graph-corpus.js'
import { testdir } from '../support/testdir.js'

const RECORDS = 'extract_graph/graph_extractions'

describe('graphrag update replays unchanged units from their records', () => {
  let llm: FakeLlm
  const roots: string[] = []
  const corpus = nameGraphCorpus(76, 5)
  const added = addedNameDocument(corpus, 2).text

  async function project(withAdded: boolean): Promise<string> {
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\nchunking:\n  type: sentence\n`,
    }
    for (const [d, text] of corpus.documents.entries()) files[`input/doc-${d}.txt`] = text
    if (withAdded) files['input/added.txt'] = added
    const root = await testdir(files)
    roots.push(root)
    return root
  }

  const output = (root: string) => new ParquetTableStore(join(root, 'output'))
  const records = async (root: string) =>
    (await output(root).read(MODEL_REPLIES)).filter((r) => r.partition === RECORDS).map((r) => [r.key, r.value])

  const extractionRows = async (root: string) =>
    (await output(root).read(MODEL_REPLIES)).filter((r) => r.workflow === 'extract_graph')

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => {
    await llm?.close()
    for (const root of roots) await rm(root, { recursive: true, force: true })
  })

  it('replays the previous units, extracts the added ones, and records what a full index records', async () => {
    const root = await project(false)
    await runIndex({ root, skipValidation: true, reporter: SILENT_REPORTER })
    const before = (await output(root).read(TEXT_UNITS)).length
    expect(await records(root)).toHaveLength(before)

    await rm(join(root, 'cache'), { recursive: true, force: true })
    await writeFile(join(root, 'input', 'added.txt'), added)
    const from = llm.requests.length
    await runUpdate({ root, skipValidation: true, cache: false, reporter: SILENT_REPORTER })
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.workflows.extract_graph.counters.replayed_units).toBe(before)
    const after = (await output(root).read(TEXT_UNITS)).length
    // Each added unit: its first answer and one gleaning.
    const extraction = llm.requests.slice(from).filter((r) => r.kind.startsWith('extract_graph'))
    expect(extraction).toHaveLength(2 * (after - before))

    const full = await project(true)
    await runIndex({ root: full, skipValidation: true, reporter: SILENT_REPORTER })
    expect(await records(root)).toHaveLength(after)
    // The answers the replayed records name are carried too: extract_graph's rows as a full index has them.
    expect(await extractionRows(root)).toEqual(await extractionRows(full))
  }, 240_000)
})
