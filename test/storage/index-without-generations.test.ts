/**
 * Issue 47 item 13: an index in a container with its tables directly under base_dir and no
 * generations (as Microsoft GraphRAG writes it) is refused in one message naming its az:// location
 * and what to set, not "no index yet" naming the local mirror folder. An empty store stays "no index".
 */
import { describe, expect, it } from 'vitest'
import { validateSettings } from '../../src/config/validate.js'
import { readableIndexDir } from '../../src/storage/generations.js'
import { remoteAt } from '../../src/storage/object/remote.js'
import { useObjectStoreServers } from '../support/object-stores.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()

describe('an index in a container without generations', () => {
  it('is refused naming its az:// location and what to set; an empty container is simply no index', async () => {
    const container = await servers.azurite.container(`msindex${Date.now()}`)
    const output = { type: 'blob', connection_string: servers.azurite.connectionString, container_name: container }
    const result = validateSettings(
      { output_storage: { ...output, base_dir: 'ke4d/output' } },
      { root: await testdir() },
    )
    if (!result.ok) throw new Error(result.errors.join('\n'))
    const mirror = result.settings.output_storage.base_dir
    expect(await readableIndexDir(mirror)).toBe(mirror)

    await remoteAt(mirror)!.store().put('ke4d/output/text_units.parquet', 'PAR1')
    const error = await readableIndexDir(mirror).then(
      () => undefined,
      (e: unknown) => e as Error,
    )
    expect(error?.message).toMatch(
      new RegExp(
        `^az://${container}/ke4d/output holds an index without generations \\(its tables directly under output_storage\\.base_dir, as Microsoft GraphRAG writes them\\); .*set output_storage\\.type: file`,
      ),
    )
    expect(error?.message).not.toContain('.graphrag')
  })
})
