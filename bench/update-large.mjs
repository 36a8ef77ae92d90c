// The large-graph case of bench:update: one document added to an index of ≥ 100,000 entities with the
// instant fake model. The corpus is generated so the fake model (which extracts the first six
// capitalised names of a chunk, chained by relationships) yields five new entities per sentence and
// links each sentence to a name of an earlier one, with one chunk per sentence (chunking.type:
// sentence). The base index is built once per set of parameters and kept under the temp folder
// (graphrag-bench-update-large-<entities>); each run updates a copy of it with --no-cache, so every
// answer not reused from the index's own model_replies is a real call. Prints the update's wall time,
// its model calls by kind, and its time per workflow; with `twice`, the same for a second update (one
// more document) on top of the first.
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runIndex } from '../dist/index/run/runner.js'
import { runUpdate } from '../dist/index/run/update.js'

const DOCUMENTS = 100

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const { nameGraphCorpus, addedNameDocument } = await import(
  join(root, 'dist-test', 'test', 'support', 'name-graph-corpus.js')
)

async function buildBase(dir, entities, settings) {
  const { documents } = nameGraphCorpus(entities, DOCUMENTS)
  await mkdir(join(dir, 'input'), { recursive: true })
  await writeFile(join(dir, 'settings.yaml'), settings)
  for (const [d, text] of documents.entries())
    await writeFile(join(dir, 'input', `doc-${String(d).padStart(3, '0')}.txt`), text)
  const started = performance.now()
  await runIndex({ root: dir, skipValidation: true })
  return (performance.now() - started) / 1000
}

export async function benchLargeGraph({ fake, settings, entities = 100_000, rebuild = false, twice = false }) {
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
    console.log(`\nlarge graph: ${baseEntities} entities in the base index (${built}; ${base})`)
    const corpus = nameGraphCorpus(entities, DOCUMENTS)
    await timedUpdate(work, fake, 'add-1', 'doc-added.txt', addedNameDocument(corpus, 20).text)
    // A second update replays what the first recorded (report fingerprints: a base index built before
    // them records them on its first update), as every later update of an index does.
    if (twice) {
      const second = addedNameDocument({ ...corpus, names: corpus.names + 100 }, 20).text
      await timedUpdate(work, fake, 'then add-1 more', 'doc-added-2.txt', second)
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/** Adds one document of 20 sentences (100 new entities, 20 existing ones named) and times `update --no-cache`. */
async function timedUpdate(work, fake, label, file, text) {
  await writeFile(join(work, 'input', file), text)
  const from = fake.requests.length
  const started = performance.now()
  const cpuAtStart = process.cpuUsage()
  const result = await runUpdate({ root: work, skipValidation: true, cache: false })
  const seconds = (performance.now() - started) / 1000
  // CPU time says more than wall on a shared machine (this process's: the fake model's answers included).
  const cpu = process.cpuUsage(cpuAtStart)
  const requests = fake.requests.slice(from)
  const byKind = {}
  for (const r of requests) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1
  const embedded = requests
    .filter((r) => r.kind === 'embedding')
    .reduce((n, r) => n + (Array.isArray(r.body.input) ? r.body.input.length : 1), 0)
  const after = JSON.parse(await readFile(join(result.outputDir, 'stats.json'), 'utf8'))
  console.log(
    `${label} (20 chunks, 100 new entities, 20 existing ones named), --no-cache: ${seconds.toFixed(1)} s wall, ${requests.length} requests ${JSON.stringify(byKind)}, ${embedded} texts embedded`,
  )
  const times = Object.entries(after.workflows)
    .map(([name, w]) => [name, w.overall])
    .sort((a, b) => b[1] - a[1])
  const inWorkflows = times.reduce((sum, [, s]) => sum + s, 0)
  console.log(
    `  CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user + sys); ${inWorkflows.toFixed(1)} s in the workflows, ${(seconds - inWorkflows).toFixed(1)} s outside them (planning, backup, model_replies, resume records, publishing)`,
  )
  console.log(`  time per workflow: ${times.map(([n, s]) => `${n} ${s.toFixed(2)} s`).join(', ')}`)
}
