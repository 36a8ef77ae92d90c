/**
 * The model cache in packs through whole standard runs (fake model, 20 short documents): a run leaves
 * a few pack files, not a file per call, and every reply is in them when the run returns; a run on the
 * warm cache makes no model request and writes the same tables; so does one on the same entries in the
 * one-file-per-key layout of earlier versions.
 */
import { cp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tableHashes } from '../../src/index/run/resume.js'
import { runIndex } from '../../src/index/run/runner.js'
import { FileKeyValueStore } from '../../src/storage/key-value-store.js'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
}

describe('the model cache in packs, standard runs', () => {
  let fake: FakeLlm
  let root: string
  const cacheDir = () => join(root, 'cache')
  const requestsDuring = async (run: () => Promise<unknown>) => {
    const before = fake.requests.length
    await run()
    return fake.requests.slice(before).filter((r) => r.kind !== 'models').length
  }
  const indexFresh = async () => {
    await rm(join(root, 'output'), { recursive: true, force: true })
    await runIndex({ root, env: {}, skipValidation: true, method: 'standard' })
    return tableHashes(new ParquetTableStore(join(root, 'output')))
  }

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
    root = await testdir({ 'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl)}vector_store:\n  vector_size: 8\n` })
    await cp(join(PROJECT_ROOT, 'fixtures', 'update-corpus'), join(root, 'input'), { recursive: true })
  })
  afterAll(async () => fake?.close())

  it('cold, warm in packs and warm in the old layout: the same tables, no request once warm', async () => {
    let cold: Record<string, string> = {}
    const coldRequests = await requestsDuring(async () => (cold = await indexFresh()))
    // Every reply is in a pack when the run returns (the last workflow's too, flushed at its end).
    const files = await filesUnder(cacheDir())
    expect(files.length).toBeGreaterThan(0)
    expect(files.every((f) => f.split('/').pop()!.startsWith('.pack-'))).toBe(true)
    const partitions = files.map((f) => f.split('/').slice(0, -1).join('/'))
    expect(new Set(partitions).size).toBe(files.length)
    const entries = await Promise.all(
      partitions.map(async (p) => (await keyValueStoreAt(cacheDir()).child(p).keys()).length),
    )
    expect(entries.reduce((a, b) => a + b, 0)).toBeGreaterThan(files.length * 5)
    expect(coldRequests).toBeGreaterThan(20)

    let warm: Record<string, string> = {}
    expect(await requestsDuring(async () => (warm = await indexFresh()))).toBe(0)
    expect(warm).toEqual(cold)

    // The same entries as earlier versions wrote them, one file per key, and no pack.
    const packed = keyValueStoreAt(cacheDir())
    const old = new FileKeyValueStore(cacheDir())
    for (const partition of partitions)
      for (const key of await packed.child(partition).keys())
        await old.child(partition).set(key, (await packed.child(partition).get(key))!)
    for (const file of files) await rm(join(cacheDir(), file))
    let fromOld: Record<string, string> = {}
    expect(await requestsDuring(async () => (fromOld = await indexFresh()))).toBe(0)
    expect(fromOld).toEqual(cold)
  }, 300_000)

  it('a workflow ends with its replies written: every call of the last workflow is in the cache when the run returns', async () => {
    const workflows = ['load_input_documents', 'create_base_text_units', 'extract_graph']
    const solo = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl)}workflows: [${workflows.join(', ')}]\n`,
    })
    await cp(join(PROJECT_ROOT, 'fixtures', 'update-corpus'), join(solo, 'input'), { recursive: true })
    const calls = await requestsDuring(() => runIndex({ root: solo, env: {}, skipValidation: true }))
    expect(calls).toBeGreaterThan(20)
    expect(await keyValueStoreAt(join(solo, 'cache')).child('extract_graph').keys()).toHaveLength(calls)
  }, 300_000)
})
