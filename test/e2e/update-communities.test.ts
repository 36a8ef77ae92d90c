/**
 * Community stability of `graphrag update` on the 20 documents of fixtures/update-corpus (the
 * bench:update corpus): adding the 20th document to an index of the other 19 keeps the communities
 * the change did not reach under their ids, more of them than a full index of the 20 documents has,
 * because Leiden starts from the previous communities; the result still passes the test
 * (valid hierarchy, connected, level-0 modularity within 1 % of the full index's).
 */
import { readdirSync } from 'node:fs'
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { communityShape, untouchedCommunities } from '../support/communities.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const DOCS = readdirSync(CORPUS).sort()

describe('graphrag update: communities the change did not reach', () => {
  let llm: FakeLlm
  const project = async (names: readonly string[]) => {
    const dir = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`,
    })
    for (const name of names) await cp(join(CORPUS, name), join(dir, 'input', name))
    return dir
  }
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  it('keep their ids after adding a document, where a full re-cluster reshuffles them', async () => {
    const root = await project(DOCS.slice(0, 19))
    await runIndex({ root, skipValidation: true })
    await cp(join(CORPUS, DOCS[19]!), join(root, 'input', DOCS[19]!))
    await runUpdate({ root, skipValidation: true, cache: false })
    const full = await project(DOCS)
    await runIndex({ root: full, skipValidation: true })

    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const summary = stats.workflows.create_communities.summary
    expect(summary.started_from_previous).toBe(true)
    // The previous communities projected onto the new graph, or re-clustered only where the change
    // reached them: never a whole-graph run.
    expect(['kept', 'local']).toContain(summary.clustering)
    const untouched = await untouchedCommunities(stats.update.backup, join(root, 'output'), join(full, 'output'))
    expect(untouched.untouched).toBeGreaterThan(0)
    expect(untouched.keptById).toBe(untouched.untouched)
    expect(untouched.inFullIndex).toBeLessThan(untouched.untouched)
    expect(summary.communities_kept_number).toBeGreaterThanOrEqual(untouched.keptById)
    expect(stats.workflows.update_communities.summary.communities_unchanged).toBe(summary.communities_kept_number)

    const [updated, reindexed] = [
      await communityShape(join(root, 'output')),
      await communityShape(join(full, 'output')),
    ]
    expect(updated.problems).toEqual([])
    expect(updated.modularity).toBeGreaterThanOrEqual(0.99 * reindexed.modularity)
  }, 120_000)
})
