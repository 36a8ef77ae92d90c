/**
 * `graphrag update` and the vector store, through the CLI and the fake model server: with the LLM
 * cache deleted and --no-cache, only texts that are new or changed reach the embedding model, the
 * rest are taken back from the previous LanceDB tables; every stored vector is the one embedding its
 * row's current text gives (an edited entity description gets a new one) and equals a full index's.
 */
import { readFileSync } from 'node:fs'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { embeddingTexts } from '../../src/index/operations/embed-text.js'
import { runIndex } from '../../src/index/run/runner.js'
import { EMBEDDING_SOURCES } from '../../src/index/workflows/generate_text_embeddings.js'
import { DEFAULT_EMBEDDING_NAMES, type EmbeddingName } from '../../src/model/embeddings.js'
import { ENTITIES } from '../../src/model/entities.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { runCli } from '../support/cli.js'
import {
  fakeEmbedding,
  fakeModelSettingsYaml,
  startFakeLlm,
  type FakeLlm,
  type Responder,
} from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const doc = (name: string) => readFileSync(join(CORPUS, name), 'utf8')
const DIMENSION = 8
const PAINTED = 'Captain Olsen painted the Fog Bell red.'

/**
 * The test server gives every mention the same description ("Olsen is mentioned in the text"); this
 * chunk gives OLSEN another one, so the update must summarise his descriptions again: same entity id,
 * new description, new vector.
 */
const paintedResponder: Responder = (req) =>
  req.kind === 'extract_graph' && req.messages.some((m) => m.content.includes(PAINTED))
    ? '("entity"<|>OLSEN<|>PERSON<|>Olsen painted the Fog Bell red)\n<|COMPLETE|>'
    : undefined

type Texts = Record<EmbeddingName, Map<string, string>>

/** id → embedded text of every non-empty row, per default embedding name. */
async function embeddedTexts(outputDir: string): Promise<Texts> {
  const tables = new ParquetTableStore(outputDir)
  const out = {} as Texts
  for (const name of DEFAULT_EMBEDDING_NAMES) {
    const rows = await tables.read(EMBEDDING_SOURCES[name])
    out[name] = new Map(embeddingTexts({ name, rows }).flatMap((t) => (t.text === '' ? [] : [[t.id, t.text]])))
  }
  return out
}

/** Every LanceDB vector, per table, by id. */
async function lanceVectors(outputDir: string): Promise<Record<string, Map<string, Float32Array>>> {
  const store = await openVectorStore(join(outputDir, 'lancedb'))
  try {
    const out: Record<string, Map<string, Float32Array>> = {}
    for (const name of await store.tableNames()) out[name] = await store.vectorsById(name)
    return out
  } finally {
    store.close()
  }
}

const float32 = (vector: readonly number[]) => Array.from(Float32Array.from(vector))

describe('graphrag update: embeddings', () => {
  let llm: FakeLlm
  let root: string
  const settings = () => `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: ${DIMENSION}\n`
  const output = () => join(root, 'output')
  /** The texts the embedding model received since request `from`. */
  const embeddedSince = (from: number) =>
    llm.requests
      .slice(from)
      .filter((r) => r.kind === 'embedding')
      .flatMap((r) => (r.body as { input: string[] }).input)

  /** An update with the cache folder deleted and --no-cache: nothing but the index itself to reuse from. */
  async function updateWithoutCache(): Promise<{ sent: string[]; stderr: string; before: Texts; after: Texts }> {
    const before = await embeddedTexts(output())
    await rm(join(root, 'cache'), { recursive: true, force: true })
    const from = llm.requests.length
    const run = await runCli(['update', '--root', root, '--skip-validation', '--no-cache'])
    expect(run.code, run.stderr).toBe(0)
    return { sent: embeddedSince(from), stderr: run.stderr, before, after: await embeddedTexts(output()) }
  }

  /** Every stored vector is the server's vector of its row's current text, and LanceDB holds exactly the rows. */
  async function expectVectorsOfCurrentTexts(texts: Texts): Promise<void> {
    const vectors = await lanceVectors(output())
    for (const name of DEFAULT_EMBEDDING_NAMES) {
      expect([...vectors[name]!.keys()].sort(), name).toEqual([...texts[name].keys()].sort())
      for (const [id, text] of texts[name])
        expect(Array.from(vectors[name]!.get(id) ?? []), `${name} ${id}`).toEqual(
          float32(fakeEmbedding(text, DIMENSION)),
        )
    }
  }

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: DIMENSION, responders: [paintedResponder] })
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of ['01-harbour.txt', '02-council.txt', '03-saltmill.txt', '04-lighthouse.txt', '05-school.txt'])
      files[`input/${name}`] = doc(name)
    root = await testdir(files)
    // In process: the updates below are the CLI runs under test.
    await runIndex({ root, skipValidation: true })
  }, 120_000)
  afterAll(async () => llm?.close())

  it('without the LLM cache embeds only new and changed texts; an edited entity description gets a new vector', async () => {
    await writeFile(join(root, 'input', '06-market.txt'), doc('06-market.txt'))
    await writeFile(join(root, 'input', '07-paint.txt'), `${PAINTED}\n`)
    await writeFile(
      join(root, 'input', '01-harbour.txt'),
      `${doc('01-harbour.txt')}Marta Quill rang the Fog Bell at noon.\n`,
    )
    const { sent, before, after } = await updateWithoutCache()

    const changed = (name: EmbeddingName) =>
      [...after[name]].filter(([id, text]) => before[name].get(id) !== text).map(([, text]) => text)
    const expected = DEFAULT_EMBEDDING_NAMES.flatMap((name) => [...new Set(changed(name))])
    const rows = DEFAULT_EMBEDDING_NAMES.reduce((n, name) => n + after[name].size, 0)
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.length).toBeLessThan(rows / 2)
    expect(sent.sort()).toEqual(expected.sort())

    const stats = JSON.parse(await readFile(join(output(), 'stats.json'), 'utf8'))
    const summary = stats.workflows.generate_text_embeddings.summary
    for (const name of DEFAULT_EMBEDDING_NAMES) {
      expect(summary[`${name}_embedded`], name).toBe(changed(name).length)
      expect(summary[`${name}_reused`], name).toBe(after[name].size - changed(name).length)
    }

    // An entity that was there before with another description: same id, new text, new vector.
    const entities = await new ParquetTableStore(output()).read(ENTITIES)
    const edited = entities.filter((e) => {
      const old = before.entity_description.get(e.id)
      return old !== undefined && old !== after.entity_description.get(e.id)
    })
    expect(edited.map((e) => e.title)).toContain('OLSEN')
    await expectVectorsOfCurrentTexts(after)
  }, 120_000)

  it('LanceDB equals that of a full index of the same inputs', async () => {
    const fresh = await testdir({ 'settings.yaml': settings() })
    await cp(join(root, 'input'), join(fresh, 'input'), { recursive: true })
    await runIndex({ root: fresh, skipValidation: true })
    expect(await lanceVectors(output())).toEqual(await lanceVectors(join(fresh, 'output')))
  }, 120_000)

  it('an index without embedding_keys (built by an older graphrag): says so once and embeds every text again', async () => {
    await rm(join(output(), 'embedding_keys.parquet'))
    await rm(join(root, 'input', '02-council.txt'))
    const { sent, stderr, after } = await updateWithoutCache()
    expect(stderr.match(/no embedding_keys table/g)).toHaveLength(1)
    const all = DEFAULT_EMBEDDING_NAMES.flatMap((name) => [...new Set(after[name].values())])
    expect(sent.sort()).toEqual(all.sort())
    await expectVectorsOfCurrentTexts(after)
    // The update wrote the table again: the next update reuses.
    await writeFile(join(root, 'input', '02-council.txt'), doc('02-council.txt'))
    const next = await updateWithoutCache()
    expect(next.sent.length).toBeLessThan(all.length / 2)
  }, 120_000)
})
