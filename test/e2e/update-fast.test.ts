/**
 * `graphrag update` with the fast method, offline, on a copy of fixtures/demo: equal to a full index
 * of the same inputs (communities and their reports as the update issue defines it, see
 * test/support/communities.ts: the update starts Leiden from the previous communities).
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { communityShape, exactTables } from '../support/communities.js'
import { indexedDemoCopy } from '../support/demo-index.js'
import { lanceRowCounts } from '../support/index-files.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const OFFLINE = { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined }

async function demoCopy(): Promise<string> {
  const root = join(await testdir({}), 'demo')
  await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
  for (const generated of ['output', 'cache', 'logs', '.output.run', 'update_output'])
    await rm(join(root, generated), { recursive: true, force: true })
  return root
}

describe('graphrag update, fast method, offline demo', () => {
  let root: string
  beforeAll(async () => {
    root = await indexedDemoCopy()
  }, 300_000)

  it('add one document and edit another (cache deleted): the tables equal a full index of the same inputs', async () => {
    await writeFile(
      join(root, 'input', '06-the-new-pier.txt'),
      'The harbour master opened the New Pier. Fishermen from Gull Point moored their boats there.\n',
    )
    const storm = join(root, 'input', '02-the-storm.txt')
    await writeFile(storm, `${await readFile(storm, 'utf8')}\nAfter the storm the harbour master counted the damage.\n`)
    await rm(join(root, 'cache'), { recursive: true, force: true })
    const run = await runCli(['update', '--root', root, '--method', 'fast'], { env: OFFLINE })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('Updated: 1 new, 1 edited, 0 deleted')

    const full = await demoCopy()
    await rm(join(full, 'input'), { recursive: true })
    await cp(join(root, 'input'), join(full, 'input'), { recursive: true })
    // The reference full index in process (no model, no key): the update above is the CLI run under test.
    await runIndex({ root: full, env: {}, skipValidation: true })
    expect(await exactTables(join(root, 'output'))).toEqual(await exactTables(join(full, 'output')))
    const [updated, reindexed] = [
      await communityShape(join(root, 'output')),
      await communityShape(join(full, 'output')),
    ]
    expect(updated.problems).toEqual([])
    expect(updated.communities.length).toBeGreaterThan(0)
    expect(updated.modularity).toBeGreaterThanOrEqual(0.99 * reindexed.modularity)
    const { community_full_content: reportVectors, ...vectors } = await lanceRowCounts(join(root, 'output', 'lancedb'))
    const { community_full_content: _f, ...fullVectors } = await lanceRowCounts(join(full, 'output', 'lancedb'))
    expect(vectors).toEqual(fullVectors)
    expect(reportVectors).toBe(updated.communities.length)
    const query = await runCliInProcess(
      ['query', '--root', root, '--method', 'local', 'What happened at the New Pier?'],
      {
        env: OFFLINE,
      },
    )
    expect(query.code, query.stderr).toBe(0)
  }, 300_000)
})
