// graphrag replies benchmark: the extraction replies collected in test/fixtures/replies (real replies
// quoted from public issue threads and caches, and constructed ones in the failure forms those threads
// report) read by our reader and by Microsoft GraphRAG 3.1.2's parsing rules (re-implemented below
// from its documented behaviour, as a baseline). Prints entity and relationship recall, spurious
// records, strengths read right, and unusable replies recognised. Run: npm run bench:replies
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const dir = join(root, 'test/fixtures/replies')
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
const template = readFileSync(join(root, 'prompts/extract_graph.txt'), 'utf8')

async function ourReader() {
  try {
    const { readGraphReply } = await import('../dist/index/operations/extract-graph/read-reply.js')
    return (reply, inputText) => readGraphReply(reply, { template, inputText })
  } catch {
    // Before the reply reader existed: the tuple parser alone.
    const { parseGraphReply } = await import('../dist/index/operations/extract-graph/parse.js')
    return (reply) => ({ ...parseGraphReply(reply), unusable: undefined })
  }
}

// Microsoft GraphRAG 3.1.2 (graph_extractor.py), spec §5.4: split on ##, strip one ( and ), split on <|>,
// keep '"entity"' records with >= 4 fields and '"relationship"' records with >= 5; weight float(last) or 1.
function referenceReader(reply) {
  const clean = (s) =>
    s
      .trim()
      .replace(
        /&(lt|gt|amp|quot|#39);/g,
        (m) => ({ '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'" })[m],
      )
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
  const out = { entities: [], relationships: [], dropped: [], defaultedWeights: 0, unusable: undefined }
  for (let record of reply.split('##').map((r) => r.trim())) {
    record = record.trim().replace(/^\(|\)$/g, '')
    if (record === '' || record === '<|COMPLETE|>') continue
    const attrs = record.split('<|>')
    if (attrs[0] === '"entity"' && attrs.length >= 4) {
      out.entities.push({ title: clean(attrs[1].toUpperCase()), type: clean(attrs[2].toUpperCase()) })
    } else if (attrs[0] === '"relationship"' && attrs.length >= 5) {
      const last = attrs[attrs.length - 1].trim()
      // Python float() accepts only a whole numeric string.
      const weight = /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(last) ? Number(last) : 1
      out.relationships.push({ source: clean(attrs[1].toUpperCase()), target: clean(attrs[2].toUpperCase()), weight })
    }
  }
  return out
}

const bare = (s) => s.replace(/^["'“”]+|["'“”]+$/g, '').trim()
const pairKey = (a, b) => [bare(a), bare(b)].sort().join(' | ')

function score(read, fixtures) {
  const t = {
    entities: 0,
    entitiesFound: 0,
    rels: 0,
    relsFound: 0,
    spurious: 0,
    weights: 0,
    weightsRight: 0,
    unusable: 0,
    unusableSeen: 0,
  }
  const misses = []
  for (const f of fixtures) {
    const got = read(f.reply, f.input_text)
    const titles = new Set(got.entities.map((e) => bare(e.title)))
    const pairs = new Map(got.relationships.map((r) => [pairKey(r.source, r.target), r.weight]))
    const wantTitles = new Set(f.expected.entities)
    const wantPairs = new Map(f.expected.relationships.map(([s, tg, w]) => [pairKey(s, tg), w]))
    if (f.expected.unusable) {
      t.unusable++
      if (got.unusable !== undefined) t.unusableSeen++
    }
    for (const title of wantTitles) {
      t.entities++
      if (titles.has(title)) t.entitiesFound++
      else misses.push(`${f.id}: entity ${title}`)
    }
    for (const [key, w] of wantPairs) {
      t.rels++
      if (pairs.has(key)) t.relsFound++
      else misses.push(`${f.id}: relationship ${key}`)
      if (w !== undefined && pairs.has(key)) {
        t.weights++
        if (pairs.get(key) === w) t.weightsRight++
        else misses.push(`${f.id}: weight of ${key} read as ${pairs.get(key)}, expected ${w}`)
      }
    }
    const spurious =
      [...titles].filter((x) => !wantTitles.has(x)).length + [...pairs.keys()].filter((k) => !wantPairs.has(k)).length
    if (spurious > 0) misses.push(`${f.id}: ${spurious} spurious records`)
    t.spurious += spurious
  }
  return { ...t, misses }
}

const pct = (a, b) => (b === 0 ? '   -' : `${((100 * a) / b).toFixed(0)}%`.padStart(4))
const readers = [
  ['graphrag (ours)', await ourReader()],
  ['Microsoft GraphRAG 3.1.2 rules', referenceReader],
]
const groups = [
  [
    'real replies (quoted from public caches and issue threads)',
    fixtures.filter((f) => f.source.kind !== 'constructed'),
  ],
  ['constructed replies (forms the threads report)', fixtures.filter((f) => f.source.kind === 'constructed')],
  ['all replies', fixtures],
]
const misses = []
for (const [title, group] of groups) {
  console.log(`\n${title}: ${group.length}`)
  console.log(
    'reader                           entity recall  relationship recall  strengths right  spurious  unusable recognised',
  )
  for (const [name, read] of readers) {
    const s = score(read, group)
    if (name === readers[0][0] && group === fixtures) misses.push(...s.misses)
    console.log(
      `${name.padEnd(32)} ${pct(s.entitiesFound, s.entities)} ${`(${s.entitiesFound}/${s.entities})`.padEnd(9)} ${pct(s.relsFound, s.rels)} ${`(${s.relsFound}/${s.rels})`.padEnd(15)} ${pct(s.weightsRight, s.weights)} ${`(${s.weightsRight}/${s.weights})`.padEnd(10)} ${String(s.spurious).padStart(8)}  ${s.unusableSeen}/${s.unusable}`,
    )
  }
}
if (process.argv.includes('--misses')) for (const m of misses) console.log(`  ${m}`)
