/**
 * Issue 47 item 3, reduced drill on Azurite: `update` killed with -9 the moment its new generation
 * is published leaves the backup of the index it replaced whole in update_output_storage (it was
 * uploaded after the pointer moved, so a kill there left part of it, and the re-run, "up to date",
 * never sent the rest). Spawns the built CLI.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { readPointer } from '../../src/storage/object/generations.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { spawnCli } from '../support/index-files.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()

const SETTINGS = offlineFastSettingsYaml()

describe('update killed right after it publishes', () => {
  it('has uploaded the whole backup of the replaced index before moving the pointer', async () => {
    const { azurite } = servers
    const container = await azurite.container(`backup${Date.now()}`)
    const blob = (dir: string) =>
      `  type: blob\n  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n  base_dir: ${dir}\n`
    const root = await testdir({
      'settings.yaml': `${SETTINGS}output_storage:\n${blob('output')}update_output_storage:\n${blob('update_output')}`,
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
      'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
    })
    // In process: the update below is the CLI run under test.
    await runIndex({ root, skipValidation: true })
    const spec = {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      connection_string: azurite.connectionString,
      container_name: container,
    }
    const output = remoteLocation('output_storage', { ...spec, base_dir: 'output' })
    const before = (await readPointer(output))!.pointer.generation

    await writeFile(join(root, 'input', 'c.txt'), 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n')
    const update = spawnCli(['update', '--root', root, '--skip-validation'])
    let moved = false
    while (!moved && update.child.exitCode === null) {
      moved = (await readPointer(output))?.pointer.generation !== before
      if (!moved) await new Promise((r) => setTimeout(r, 10))
    }
    update.child.kill('SIGKILL')
    await update.exited
    expect(moved || update.child.exitCode === 0, update.stderr()).toBe(true)

    const store = output.store()
    const names = (keys: string[], prefix: string) =>
      keys
        .map((k) => k.slice(prefix.length))
        .filter((k) => k !== '.manifest.json')
        .sort()
    const replacedPrefix = `output/.generations/${before}/`
    const replaced = names(
      (await store.list(replacedPrefix)).map((o) => o.key),
      replacedPrefix,
    )
    const backups = (await store.list('update_output/')).map((o) => o.key)
    const stamp = backups[0]?.split('/')[1]
    const backupPrefix = `update_output/${stamp}/previous/`
    expect(replaced.length).toBeGreaterThan(5)
    expect(names(backups, backupPrefix)).toEqual(replaced)
  }, 180_000)
})
