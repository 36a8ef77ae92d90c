// graphrag export benchmark: a seeded planted-partition index (communities of 50, average degree 6,
// two community levels, a report per top community) written as Parquet, then every export format
// timed on it, with the HTML page's size. Run: npm run bench:export [-- nodes] (default 10000).
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runExport } from '../dist/export/index.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS } from '../dist/model/index.js'
import { ParquetTableStore } from '../dist/storage/index.js'
import { seededRng } from '../dist/query/rng.js'

const N = Number(process.argv[2] ?? 10_000)
const GROUP = 50

async function writeIndex(dir) {
  const rand = seededRng(7)
  const title = (i) => `ENTITY ${i}`
  const edges = new Map()
  for (let i = 0; i < N; i++) {
    for (let k = 0; k < 3; k++) {
      const inside = rand() < 0.8
      const j = inside ? Math.floor(i / GROUP) * GROUP + Math.floor(rand() * GROUP) : Math.floor(rand() * N)
      if (j !== i && j < N) edges.set(i < j ? `${i}-${j}` : `${j}-${i}`, [Math.min(i, j), Math.max(i, j)])
    }
  }
  const degree = new Array(N).fill(0)
  for (const [a, b] of edges.values()) degree[a]++, degree[b]++
  const entities = degree.map((d, i) => ({
    id: `e${i}`,
    human_readable_id: i,
    title: title(i),
    type: 'THING',
    description: `Entity ${i}, a member of group ${Math.floor(i / GROUP)}.`,
    text_unit_ids: [],
    frequency: 1,
    degree: d,
  }))
  const relationships = [...edges.values()].map(([a, b], i) => ({
    id: `r${i}`,
    human_readable_id: i,
    source: title(a),
    target: title(b),
    description: `${a} relates to ${b}`,
    weight: 1 + Math.floor(rand() * 5),
    combined_degree: degree[a] + degree[b],
    text_unit_ids: [],
  }))
  const top = Math.ceil(N / (GROUP * 4))
  const community = (c, level, parent, members) => ({
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level,
    parent,
    children: [],
    title: `Community ${c}`,
    entity_ids: members,
    relationship_ids: [],
    text_unit_ids: [],
    period: '2026-01-01',
    size: members.length,
  })
  const ids = (from, to) => entities.slice(from, to).map((e) => e.id)
  const communities = []
  for (let c = 0; c < top; c++) communities.push(community(c, 0, -1, ids(c * GROUP * 4, (c + 1) * GROUP * 4)))
  for (let g = 0; g < Math.ceil(N / GROUP); g++)
    communities.push(community(top + g, 1, Math.floor(g / 4), ids(g * GROUP, (g + 1) * GROUP)))
  const reports = communities
    .filter((c) => c.level === 0)
    .map((c) => ({
      id: `cr${c.community}`,
      human_readable_id: c.community,
      community: c.community,
      level: 0,
      parent: -1,
      children: [],
      title: `Report ${c.community}`,
      summary: 'A summary.',
      full_content: '',
      rank: 5,
      rating_explanation: '',
      findings: [],
      full_content_json: '{}',
      period: '2026-01-01',
      size: c.size,
    }))
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, entities)
  await store.write(RELATIONSHIPS, relationships)
  await store.write(COMMUNITIES, communities)
  await store.write(COMMUNITY_REPORTS, reports)
  return { nodes: entities.length, edges: relationships.length }
}

const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-export-'))
try {
  const size = await writeIndex(dir)
  console.log(`index: ${size.nodes} entities, ${size.edges} relationships`)
  for (const format of ['html', 'graphml', 'gexf', 'json', 'csv']) {
    const start = process.hrtime.bigint()
    const result = await runExport({ format, dataDir: dir, out: join(dir, 'out', format) })
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    const bytes = (await Promise.all(result.files.map((f) => stat(f)))).reduce((sum, s) => sum + s.size, 0)
    console.log(`${format.padEnd(8)} ${seconds.toFixed(2)} s (read, layout, write)  ${(bytes / 1e6).toFixed(1)} MB`)
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
