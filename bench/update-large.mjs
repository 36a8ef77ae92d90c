// The large-graph case of bench:update: one document added to an index of ≥ 100,000 entities with the
// instant fake model. The corpus is generated so the fake model (which extracts the first six
// capitalised names of a chunk, chained by relationships) yields five new entities per sentence and
// links each sentence to a name of an earlier one, with one chunk per sentence (chunking.type:
// sentence). The base index is built once per set of parameters and kept under the temp folder
// (graphrag-bench-update-large-<entities>); each run updates a copy of it with --no-cache, so every
// answer not reused from the index's own model_replies is a real call. Prints the update's wall time,
// its model calls by kind, and its time per workflow.
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runIndex } from '../dist/index/run/runner.js'
import { runUpdate } from '../dist/index/run/update.js'

const SYLLABLES = ['ka', 'lo', 'mi', 'te', 'sa', 'vo', 'el', 'du', 'ri', 'ba', 'ne', 'th', 'gr', 'pe', 'za', 'wo']
const DOCUMENTS = 100

/** The i-th name: five two-letter syllables from i's base-16 digits, so names are distinct up to 16⁵. */
function nameOf(i) {
  let s = ''
  for (let k = 0, n = i; k < 5; k++, n = Math.floor(n / 16)) s += SYLLABLES[n % 16]
  return s[0].toUpperCase() + s.slice(1)
}

/** A seeded linear congruential generator (the bench needs the same corpus every time, not good randomness). */
function rng(seed) {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const sentence = ([a, b, c, d, e, f]) => `${a} met ${b} near ${c}, then ${d} and ${e} saw ${f} at the market.`

/** Sentences whose first name is an earlier sentence's (the graph stays connected) and five new ones. */
function corpusSentences(entities) {
  const random = rng(11)
  const count = Math.ceil((entities - 1) / 5)
  const out = []
  let next = 1
  for (let k = 0; k < count; k++) {
    // A name of one of the last 40 sentences: neighbourhoods, as communities need.
    const earlier = k === 0 ? 0 : 1 + 5 * Math.max(0, k - 1 - Math.floor(random() * 40)) + Math.floor(random() * 5)
    const names = [earlier, next, next + 1, next + 2, next + 3, next + 4].map(nameOf)
    next += 5
    out.push(sentence(names))
  }
  return { sentences: out, names: next }
}

async function buildBase(dir, entities, settings) {
  const { sentences } = corpusSentences(entities)
  await mkdir(join(dir, 'input'), { recursive: true })
  await writeFile(join(dir, 'settings.yaml'), settings)
  const perDoc = Math.ceil(sentences.length / DOCUMENTS)
  for (let d = 0; d < DOCUMENTS; d++)
    await writeFile(
      join(dir, 'input', `doc-${String(d).padStart(3, '0')}.txt`),
      sentences.slice(d * perDoc, (d + 1) * perDoc).join(' '),
    )
  const started = performance.now()
  await runIndex({ root: dir, skipValidation: true })
  return (performance.now() - started) / 1000
}

/** The added document: 20 sentences, each naming one existing entity (spread over the corpus) and five new ones. */
function addedDocument(entities) {
  const { names } = corpusSentences(entities)
  const out = []
  for (let k = 0; k < 20; k++) {
    const existing = Math.floor(((k + 0.5) * (names - 1)) / 20)
    out.push(sentence([existing, ...[0, 1, 2, 3, 4].map((j) => names + 5 * k + j)].map(nameOf)))
  }
  return out.join(' ')
}

export async function benchLargeGraph({ fake, settings, entities = 100_000, rebuild = false }) {
  const settingsYaml = `${settings}chunking:\n  type: sentence\n`
  const base = join(tmpdir(), `graphrag-bench-update-large-${entities}`)
  let built = 'kept from an earlier run'
  if (rebuild || !existsSync(join(base, 'output', 'stats.json'))) {
    await rm(base, { recursive: true, force: true })
    const from = fake.requests.length
    const seconds = await buildBase(base, entities, settingsYaml)
    built = `built in ${seconds.toFixed(1)} s, ${fake.requests.length - from} requests`
  }
  const stats = JSON.parse(await readFile(join(base, 'output', 'stats.json'), 'utf8'))
  const baseEntities = stats.workflows.finalize_graph?.rows?.entities ?? '?'
  const work = join(tmpdir(), `graphrag-bench-update-large-run-${process.pid}`)
  await rm(work, { recursive: true, force: true })
  for (const part of ['input', 'output']) await cp(join(base, part), join(work, part), { recursive: true })
  try {
    // This run's fake server (another port: api_base is no part of any cache key or fingerprint).
    await writeFile(join(work, 'settings.yaml'), settingsYaml)
    await writeFile(join(work, 'input', 'doc-added.txt'), addedDocument(entities))
    const from = fake.requests.length
    const started = performance.now()
    const result = await runUpdate({ root: work, skipValidation: true, cache: false })
    const seconds = (performance.now() - started) / 1000
    const requests = fake.requests.slice(from)
    const byKind = {}
    for (const r of requests) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1
    const embedded = requests
      .filter((r) => r.kind === 'embedding')
      .reduce((n, r) => n + (Array.isArray(r.body.input) ? r.body.input.length : 1), 0)
    const after = JSON.parse(await readFile(join(result.outputDir, 'stats.json'), 'utf8'))
    console.log(`\nlarge graph: ${baseEntities} entities in the base index (${built}; ${base})`)
    console.log(
      `add-1 (20 chunks, 100 new entities, 20 existing ones named), --no-cache: ${seconds.toFixed(1)} s wall, ${requests.length} requests ${JSON.stringify(byKind)}, ${embedded} texts embedded`,
    )
    const times = Object.entries(after.workflows)
      .map(([name, w]) => [name, w.overall])
      .sort((a, b) => b[1] - a[1])
    console.log(`  time per workflow: ${times.map(([n, s]) => `${n} ${s.toFixed(2)} s`).join(', ')}`)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}
