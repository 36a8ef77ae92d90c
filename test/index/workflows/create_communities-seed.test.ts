// cluster_graph.resolution and cluster_graph.min_community_size (seed design 001) through the
// create_communities workflow: accepted in settings.yaml, honoured by Leiden and the community builder.
import { describe, expect, it } from 'vitest'
import { createCommunities } from '../../../src/index/workflows/create_communities.js'
import { COMMUNITIES, ENTITIES, RELATIONSHIPS, type CommunityRow } from '../../../src/model/index.js'
import { createTestContext } from '../../support/workflow-context.js'

/** 24 triangles in a ring (one edge between neighbours), plus one separate pair X1–X2. */
function graph() {
  const pairs: [string, string][] = []
  for (let c = 0; c < 24; c++) {
    pairs.push([`C${c}N0`, `C${c}N1`], [`C${c}N0`, `C${c}N2`], [`C${c}N1`, `C${c}N2`])
    pairs.push([`C${c}N0`, `C${(c + 1) % 24}N1`])
  }
  pairs.push(['X1', 'X2'])
  const titles = [...new Set(pairs.flat())]
  const entities = titles.map((title, i) => ({
    id: `e${i}`,
    human_readable_id: i,
    title,
    type: 'THING',
    description: '',
    text_unit_ids: ['t1'],
    frequency: 1,
    degree: 1,
  }))
  const relationships = pairs.map(([source, target], i) => ({
    id: `r${i}`,
    human_readable_id: i,
    source,
    target,
    description: '',
    weight: 1,
    combined_degree: 2,
    text_unit_ids: ['t1'],
  }))
  return { entities, relationships }
}

async function communitiesWith(clusterGraph: string) {
  const size = clusterGraph.includes('max_cluster_size') ? '' : '  max_cluster_size: 100\n'
  const settingsYaml = `cluster_graph:\n  use_lcc: false\n${size}${clusterGraph}`
  const { ctx, tables } = await createTestContext({ settingsYaml })
  const { entities, relationships } = graph()
  await tables.write(ENTITIES, entities)
  await tables.write(RELATIONSHIPS, relationships)
  const result = await createCommunities.run(ctx)
  return { rows: await tables.read(COMMUNITIES), summary: result.summary ?? {} }
}

const levelZero = (rows: CommunityRow[]) => rows.filter((r) => r.level === 0)

describe('cluster_graph resolution and min_community_size', () => {
  it('a higher resolution gives more, smaller communities, the same ones on every run', async () => {
    const low = levelZero((await communitiesWith('  resolution: 0.3\n')).rows)
    const plain = levelZero((await communitiesWith('')).rows)
    const high = levelZero((await communitiesWith('  resolution: 4\n')).rows)
    expect(low.length).toBeLessThan(plain.length)
    expect(plain.length).toBeLessThan(high.length)
    // At γ = 4 every triangle is its own community (24), beside the pair.
    expect(high.length).toBe(25)
    const again = levelZero((await communitiesWith('  resolution: 4\n')).rows)
    expect(again.map((r) => r.entity_ids)).toEqual(high.map((r) => r.entity_ids))
  })

  it('min_community_size merges small communities into their best-linked neighbour and drops isolated ones', async () => {
    const { rows, summary } = await communitiesWith('  resolution: 4\n  min_community_size: 4\n')
    const level0 = levelZero(rows)
    expect(level0.every((r) => r.entity_ids.length >= 4)).toBe(true)
    // The pair has no neighbour: dropped, its members in no community.
    const ids = new Set(level0.flatMap((r) => r.entity_ids))
    const { entities } = graph()
    const pairIds = entities.filter((e) => e.title.startsWith('X')).map((e) => e.id)
    for (const id of pairIds) expect(ids.has(id)).toBe(false)
    expect(ids.size).toBe(entities.length - 2)
    expect(summary.small_communities_dropped).toBe(1)
    expect(Number(summary.small_communities_merged)).toBeGreaterThan(0)
    expect(level0.length).toBe(24 - Number(summary.small_communities_merged))
    const again = await communitiesWith('  resolution: 4\n  min_community_size: 4\n')
    expect(again.rows).toEqual(rows)
  })

  it('keeps the hierarchy whole when the floor folds communities of lower levels', async () => {
    const { rows, summary } = await communitiesWith('  max_cluster_size: 4\n  min_community_size: 3\n')
    const byNumber = new Map(rows.map((r) => [r.community, r]))
    expect(rows.some((r) => r.level > 0)).toBe(true)
    expect(Number(summary.small_communities_merged) + Number(summary.small_communities_dropped)).toBeGreaterThan(0)
    for (const r of rows) {
      expect(r.entity_ids.length).toBeGreaterThanOrEqual(3)
      if (r.level === 0) continue
      const parent = byNumber.get(r.parent)
      expect(parent?.level).toBe(r.level - 1)
      for (const id of r.entity_ids) expect(parent?.entity_ids).toContain(id)
      expect(parent?.children).toContain(r.community)
    }
  })

  it('the default keeps every community, as Microsoft GraphRAG does', async () => {
    const { rows, summary } = await communitiesWith('  resolution: 4\n')
    expect(levelZero(rows).some((r) => r.entity_ids.length === 2)).toBe(true)
    expect(summary.small_communities_merged).toBeUndefined()
  })

  it('leaves the new keys out of the resume fingerprint at their defaults, so older indexes resume', async () => {
    const plain = await createTestContext({ settingsYaml: '' })
    const tuned = await createTestContext({
      settingsYaml: 'cluster_graph:\n  resolution: 2\n  min_community_size: 3\n',
    })
    const print = (t: typeof plain) => createCommunities.fingerprint(t.ctx.settings) as Record<string, unknown>
    expect(Object.keys(print(plain))).not.toContain('resolution')
    expect(Object.keys(print(plain))).not.toContain('min_community_size')
    expect(print(tuned)).toMatchObject({ resolution: 2, min_community_size: 3 })
  })

  it('refuses a resolution of 0 with the key named', async () => {
    await expect(communitiesWith('  resolution: 0\n')).rejects.toThrow(/cluster_graph\.resolution/)
  })
})
