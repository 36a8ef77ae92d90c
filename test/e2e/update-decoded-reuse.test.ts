/**
 * An update keeps the rows it decodes for the rest of its run (src/storage/decoded-tables.ts): the
 * entities and relationships several of its workflows read, of the previous index and of its own, are
 * copied from those rows instead of decoded again, and the tables it writes are kept as written, so
 * the update never decodes a table of its own. A full index keeps none.
 */
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import type { TableSchema } from '../../src/model/schema.js'
import { DecodedTableCache } from '../../src/storage/decoded-tables.js'
import { fileIdentity } from '../../src/storage/file-identity.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { addedNameDocument, nameGraphCorpus } from '../support/name-graph-corpus.js'
import { testdir } from '../support/testdir.js'

describe('graphrag update: tables decoded once per run', () => {
  let llm: FakeLlm
  let root = ''
  const hits = { index: [] as string[], update: [] as string[] }
  /** The identity of each table the update published (its own, not the previous index's). */
  const published = new Map<string, string>()
  let phase: keyof typeof hits = 'index'
  const originalGet = DecodedTableCache.prototype.get
  const originalSet = DecodedTableCache.prototype.set
  const originalSetWritten = DecodedTableCache.prototype.setWritten
  /** The identities of the files the update decoded (kept after a decode), and of those it kept as written. */
  const decodedFiles = new Set<string>()
  const writtenFiles = new Set<string>()

  beforeAll(async () => {
    DecodedTableCache.prototype.get = function (this: DecodedTableCache, id: string, schema: TableSchema) {
      const rows: unknown[] | undefined = Reflect.apply(originalGet, this, [id, schema])
      if (rows !== undefined) hits[phase].push(`${schema.name} ${id}`)
      return rows
    } as typeof originalGet
    DecodedTableCache.prototype.set = function (this: DecodedTableCache, id: string, ...rest: unknown[]) {
      if (phase === 'update') decodedFiles.add(id)
      return Reflect.apply(originalSet, this, [id, ...rest])
    } as typeof originalSet
    DecodedTableCache.prototype.setWritten = function (this: DecodedTableCache, id: string, ...rest: unknown[]) {
      if (phase === 'update') writtenFiles.add(id)
      return Reflect.apply(originalSetWritten, this, [id, ...rest])
    } as typeof originalSetWritten
    llm = await startFakeLlm({ embeddingDimension: 8 })
    const corpus = nameGraphCorpus(76, 5)
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\nchunking:\n  type: sentence\n`,
    }
    for (const [d, text] of corpus.documents.entries()) files[`input/doc-${d}.txt`] = text
    root = await testdir(files)
    await runIndex({ root, skipValidation: true, reporter: SILENT_REPORTER })
    phase = 'update'
    await writeFile(join(root, 'input', 'added.txt'), addedNameDocument(corpus, 2).text)
    const result = await runUpdate({ root, skipValidation: true, cache: false, reporter: SILENT_REPORTER })
    if (result.upToDate) throw new Error('the added document was not seen')
    const { outputDir } = result
    for (const name of ['entities', 'relationships', 'communities'])
      published.set(name, (await fileIdentity(join(outputDir, `${name}.parquet`))) ?? '')
  })
  afterAll(async () => {
    DecodedTableCache.prototype.get = originalGet
    DecodedTableCache.prototype.set = originalSet
    DecodedTableCache.prototype.setWritten = originalSetWritten
    await llm?.close()
    await rm(root, { recursive: true, force: true })
  })

  it('copies the entities, relationships and communities read again instead of decoding them', () => {
    const count = (name: string) => hits.update.filter((hit) => hit.startsWith(`${name} `)).length
    const own = (name: string) => hits.update.filter((hit) => hit === `${name} ${published.get(name)}`).length
    // The update's own entities: create_community_reports, create_final_text_units and the update_*
    // checks read them after create_communities decoded them; the previous ones are read again too.
    expect(own('entities')).toBeGreaterThanOrEqual(3)
    expect(count('entities')).toBeGreaterThan(own('entities'))
    expect(own('relationships')).toBeGreaterThanOrEqual(2)
    expect(count('relationships')).toBeGreaterThan(own('relationships'))
    expect(count('communities')).toBeGreaterThanOrEqual(1)
  })

  it('never decodes the entities, relationships and communities it wrote: their rows are kept as written', () => {
    for (const name of ['entities', 'relationships', 'communities']) {
      expect(writtenFiles, name).toContain(published.get(name))
      expect(decodedFiles, name).not.toContain(published.get(name))
    }
    // The previous index's tables are decoded (once each).
    expect(decodedFiles.size).toBeGreaterThan(0)
  })

  it('keeps nothing in a full index', () => {
    expect(hits.index).toEqual([])
  })
})
