/**
 * Issue 47 item 1, reduced drill on Azurite: LanceDB at `az://` changes only with a generation. A
 * run stopped right after its embeddings (before the publish) leaves the published tables and
 * vectors in agreement; the next run publishes both; old folders of vectors are collected.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { Interruption } from '../../src/index/run/interrupt.js'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'
import { runIndex } from '../../src/index/run/runner.js'
import { diagnose } from '../../src/server/diagnostics.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { readableIndex } from '../../src/storage/generations.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()

describe('LanceDB at az:// and the generations', () => {
  it('a run stopped after its embeddings leaves the published vectors matching the published tables', async () => {
    const { azurite } = servers
    const container = await azurite.container(`vectors${Date.now()}`)
    const blob = `  type: blob\n  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n`
    const root = await testdir({
      // The extra lines continue the offline settings' last section, vector_store, then add output_storage.
      'settings.yaml': `${offlineFastSettingsYaml([`  db_uri: az://${container}/vectors`])}output_storage:\n${blob}  base_dir: output\n`,
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
      'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
    })
    const published = async () => {
      const loaded = loadConfig({ root, env: {} })
      const { dbUri } = await readableIndex(
        loaded.settings.output_storage.base_dir,
        loaded.settings.vector_store.db_uri,
      )
      const report = await diagnose(loaded, new ModelProbe())
      const rows = (name: string) => report.tables.find((t) => t.name === name)?.rows
      const vectors = Array.isArray(report.vector_tables) ? report.vector_tables : []
      const stored = (name: string) => vectors.find((t) => t.name === name)?.rows
      return {
        dbUri,
        entities: rows('entities'),
        vectors: stored('entity_description'),
        units: rows('text_units'),
        unitVectors: stored('text_unit_text'),
      }
    }

    await runIndex({ root, env: {}, skipValidation: true })
    const first = await published()
    expect(first.dbUri).toMatch(new RegExp(`^az://${container}/vectors/\\.generations/[0-9TZ]+-[0-9a-f]{8}$`))
    expect(first.vectors).toBe(first.entities)
    expect(first.unitVectors).toBe(first.units)

    // More documents; the run is stopped once its embeddings are written, before it publishes.
    await writeFile(
      join(root, 'input', 'c.txt'),
      'Ada Quill kept the lighthouse on Tern Rocks for forty years with Bram Oake.\n',
    )
    const interruption = new Interruption()
    const reporter = {
      ...SILENT_REPORTER,
      workflowEnd(name: string) {
        if (name === 'generate_text_embeddings') interruption.request()
      },
    }
    await expect(runIndex({ root, env: {}, skipValidation: true, interrupt: interruption, reporter })).rejects.toThrow()
    expect(await published()).toEqual(first)

    await runIndex({ root, env: {}, skipValidation: true })
    const second = await published()
    expect(second.entities).toBeGreaterThan(first.entities!)
    expect(second.vectors).toBe(second.entities)
    expect(second.unitVectors).toBe(second.units)
    expect(second.dbUri).not.toBe(first.dbUri)

    // Only the published folder and the one it replaced are kept.
    const store = remoteLocation('x', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: '',
      connection_string: azurite.connectionString,
      container_name: container,
    }).store()
    const folders = new Set((await store.list('vectors/.generations/')).map((o) => o.key.split('/')[2]))
    expect([...folders].sort()).toEqual([first.dbUri, second.dbUri].map((u) => u!.split('/').pop()).sort())
  }, 180_000)
})
