/**
 * What a curation update costs with a model (standard method, the fake model server, fixtures/demo):
 * after `graphrag curate merge`, the update asks no extraction again (answers come from the cache),
 * summarises only descriptions the merge changed, and writes reports only for the communities it
 * touches (new member sets, or a member whose description or relationships changed).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMUNITIES, ENTITIES, RELATIONSHIPS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo', 'input')

/** What a report reads of the index: entities and relationships as text, communities by members. */
async function snapshot(output: string) {
  const store = new ParquetTableStore(output)
  const entities = await store.read(ENTITIES)
  const titleOf = new Map(entities.map((e) => [e.id, e.title]))
  return {
    entities: new Map(entities.map((e) => [e.title, `${e.type}|${e.description}|${e.degree}`])),
    relationships: new Map(
      (await store.read(RELATIONSHIPS)).map((r) => [`${r.source}|${r.target}`, `${r.description}|${r.weight}`]),
    ),
    communities: (await store.read(COMMUNITIES)).map((c) => ({
      level: c.level,
      members: (c.entity_ids ?? []).map((id) => titleOf.get(id)!).sort(),
    })),
  }
}

/** Entity and relationship rows that differ between the two indexes (what summaries may be asked for). */
function changedRows(before: Awaited<ReturnType<typeof snapshot>>, after: Awaited<ReturnType<typeof snapshot>>) {
  let n = 0
  for (const [title, row] of after.entities) if (before.entities.get(title) !== row) n++
  for (const [pair, row] of after.relationships) if (before.relationships.get(pair) !== row) n++
  return n
}

/** Communities of the new index a change reaches: new member sets, or a member whose row or relationships changed. */
function touchedCommunities(before: Awaited<ReturnType<typeof snapshot>>, after: Awaited<ReturnType<typeof snapshot>>) {
  const changed = new Set<string>()
  for (const [title, row] of after.entities) if (before.entities.get(title) !== row) changed.add(title)
  for (const pair of new Set([...before.relationships.keys(), ...after.relationships.keys()]))
    if (before.relationships.get(pair) !== after.relationships.get(pair))
      for (const t of pair.split('|')) changed.add(t)
  const old = new Set(before.communities.map((c) => `${c.level}:${c.members.join('|')}`))
  return after.communities.filter(
    (c) => !old.has(`${c.level}:${c.members.join('|')}`) || c.members.some((t) => changed.has(t)),
  ).length
}

describe('curation update cost (standard method, fake model)', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  it('a merge re-asks no extraction, and its reports stay within the communities it touches', async () => {
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`,
    }
    for (const name of readdirSync(DEMO)) files[`input/${name}`] = readFileSync(join(DEMO, name), 'utf8')
    const root = await testdir(files)
    let from = llm.requests.length
    const index = await runCliInProcess(['index', '--root', root, '--skip-validation'])
    expect(index.code, index.stderr).toBe(0)
    const chat = (since: number) =>
      llm.requests.slice(since).filter((r) => r.kind !== 'embedding' && r.kind !== 'models')
    const fullCalls = chat(from).length
    const output = join(root, 'output')
    const before = await snapshot(output)
    const titles = (await new ParquetTableStore(output).read(ENTITIES)).map((e) => e.title)
    // Two entities of the fake's extraction (capitalised words of the demo).
    const [from1, into] = ['LENA', 'RUTH'].map((t) => titles.find((x) => x === t))
    expect(from1 && into, titles.join(', ')).toBeTruthy()

    const merge = await runCli(['curate', 'merge', from1!, '--into', into!, '--root', root])
    expect(merge.code, merge.stderr).toBe(0)
    from = llm.requests.length
    const update = await runCliInProcess(['update', '--root', root, '--skip-validation'])
    expect(update.code, update.stderr).toBe(0)
    const calls = chat(from)
    const kinds = (kind: string) => calls.filter((r) => r.kind === kind).length
    expect(kinds('extract_graph')).toBe(0)
    expect(kinds('extract_claims')).toBe(0)
    const after = await snapshot(output)
    const touched = touchedCommunities(before, after)
    expect(kinds('community_report')).toBeGreaterThan(0)
    // The report context follows Microsoft GraphRAG's rule of one relationship per entity (the first in
    // table order), so a merge can change which relationship an untouched community's entity shows: one
    // such community is allowed beyond those the merge reached.
    expect(kinds('community_report')).toBeLessThanOrEqual(touched + 1)
    expect(kinds('summarize_descriptions')).toBeLessThanOrEqual(changedRows(before, after))
    expect(calls.length).toBeLessThan(fullCalls / 2)
    console.log(
      `curation merge update: ${calls.length}/${fullCalls} chat calls (${kinds('summarize_descriptions')} summaries, ${kinds('community_report')} reports for ${touched} touched of ${after.communities.length} communities)`,
    )
  }, 120_000)
})
