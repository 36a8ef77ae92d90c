/**
 * SOURCE_DATE_EPOCH pins the run date written into the communities' `period` column (the
 * reproducible-builds convention), so runs on either side of midnight UTC — two CI jobs, shards and
 * their final run — give the same bytes. Spawns the built CLI on a small offline project.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { artifactClock, SYSTEM_CLOCK } from '../../src/index/workflow.js'
import { COMMUNITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { parquetHashes } from '../support/index-files.js'
import { testdir } from '../support/testdir.js'

const TEXT =
  'Captain Elsa Marr sailed the Windward from Harrowmere to the Northern Isles.\n' +
  'Tobias Venn, the harbour master of Harrowmere, logged the Windward and Captain Elsa Marr.\n' +
  'Ada Quill of Tern Rocks lit the lamp when the Windward passed the Northern Isles.\n'

describe('artifactClock', () => {
  it('is the wall clock without SOURCE_DATE_EPOCH, the named second with it', () => {
    expect(artifactClock({})).toBe(SYSTEM_CLOCK)
    expect(artifactClock({ SOURCE_DATE_EPOCH: ' ' })).toBe(SYSTEM_CLOCK)
    expect(artifactClock({ SOURCE_DATE_EPOCH: '86399' }).now().toISOString()).toBe('1970-01-01T23:59:59.000Z')
    expect(artifactClock({ SOURCE_DATE_EPOCH: '86400' }).now().toISOString()).toBe('1970-01-02T00:00:00.000Z')
  })

  it('refuses a value that is not whole seconds, naming the variable', () => {
    for (const bad of ['-1', '1.5', '2026-11-29', 'now'])
      expect(() => artifactClock({ SOURCE_DATE_EPOCH: bad })).toThrow(/SOURCE_DATE_EPOCH must be whole seconds/)
  })
})

describe('graphrag index with SOURCE_DATE_EPOCH', () => {
  const indexAt = async (epoch: string) => {
    const root = await testdir({ 'settings.yaml': offlineFastSettingsYaml(), 'input/a.txt': TEXT })
    const run = await runCli(['index', '--root', root, '--skip-validation'], { env: { SOURCE_DATE_EPOCH: epoch } })
    expect(run.code, run.stderr).toBe(0)
    return join(root, 'output')
  }

  it('stamps that date as the period whatever the wall clock says, and two runs give the same bytes', async () => {
    const [a, b] = await Promise.all([indexAt('31536000'), indexAt('31536000')])
    const communities = await new ParquetTableStore(a).read(COMMUNITIES)
    expect(communities.length).toBeGreaterThan(0)
    expect(new Set(communities.map((c) => c.period))).toEqual(new Set(['1971-01-01']))
    expect(await parquetHashes(b)).toEqual(await parquetHashes(a))
  })

  it('refuses a malformed value before any workflow runs', async () => {
    const root = await testdir({ 'settings.yaml': offlineFastSettingsYaml(), 'input/a.txt': TEXT })
    const run = await runCli(['index', '--root', root, '--skip-validation'], {
      env: { SOURCE_DATE_EPOCH: 'yesterday' },
    })
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/SOURCE_DATE_EPOCH must be whole seconds/)
    expect(run.stderr).not.toMatch(/looks like a bug/i)
  })
})
