// `npm run bench:scale`: indexes generated corpora (distinct text from a seeded generator) with the standard
// method and an instant fake model, two kinds at each size: `recurring` (a main cast of 20 names recurs
// across every document, as real corpora's main entities do) and `distinct` (no recurring names); prints
// wall time, CPU time and peak RSS of the index process, the files in its model cache and the time per
// workflow, then, for two sizes or more, each workflow's time per token relative to the smallest size.
// Usage: node bench/scale.mjs [sizes in tokens, comma-separated; default 1000000,10000000] [--save FILE]
//        [--corpus recurring|distinct] (one kind only) [--keep] (leave each corpus folder and index in
//        place and print where) [--profile] (node --cpu-prof into <folder>/profile, implies --keep)
//        [--update] (then add one ~1,500-token document and time `graphrag update` the same way: wall,
//        peak RSS, model calls)
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'
import { timedRun } from './timed-run.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const positional = args.filter((a, i) => !a.startsWith('--') && !['--save', '--corpus'].includes(args[i - 1]))
const saveAt = args.indexOf('--save')
const corpusAt = args.indexOf('--corpus')
/** Names recurring across every document, per corpus kind. */
const CORPORA = { recurring: 20, distinct: 0 }
const KINDS = corpusAt >= 0 ? [args[corpusAt + 1]] : Object.keys(CORPORA)
for (const kind of KINDS) if (!(kind in CORPORA)) throw new Error(`--corpus: ${kind} is not one of recurring, distinct`)
const PROFILE = args.includes('--profile')
const KEEP = PROFILE || args.includes('--keep')
const UPDATE = args.includes('--update')
const SIZES = (positional[0] ?? '1000000,10000000').split(',').map(Number)
const VECTOR_SIZE = 1536
spawnSync('npx', ['tsc', '-p', 'tsconfig.support.json'], { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(
  join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
)
// Sizes are real tokens of the chunker's encoding, so "10 M" is ten times "1 M" whatever the names cost.
const { getTokenizer } = await import(join(root, 'dist', 'llm', 'tokenizer.js'))
const tokenizer = getTokenizer('o200k_base')

/** Runs the CLI under /usr/bin/time -v (GNU time) for the peak RSS of the index process itself. */
function indexProcess(dir, command = 'index') {
  const profile = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'profile')}`] : []
  const argv = [
    process.execPath,
    ...profile,
    join(root, 'bin', 'graphrag.js'),
    command,
    '--root',
    dir,
    ...(command === 'index' ? ['--method', 'standard'] : ['--skip-validation']),
  ]
  return timedRun(argv, { cwd: root })
}

/** Files under the cache folder: one per model call before cache packs, a few per workflow since. */
function countFiles(dir) {
  let files = 0
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) files++
  return files
}

async function scaleOnce(tokens, kind) {
  const fake = await startFakeLlm({ embeddingDimension: VECTOR_SIZE })
  // The server records every request; the bench only needs their number, not their bodies in its memory.
  const counted = { calls: 0 }
  const count = () => {
    counted.calls += fake.requests.length
    fake.requests.length = 0
    return counted.calls
  }
  const drain = setInterval(count, 1000)
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-scale-'))
  writeCorpus(join(dir, 'input'), {
    tokens,
    seed: 11,
    countTokens: (t) => tokenizer.count(t),
    recurring: CORPORA[kind],
  })
  writeFileSync(
    join(dir, 'settings.yaml'),
    [
      fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 25 }),
      `vector_store:\n  vector_size: ${VECTOR_SIZE}`,
      '',
    ].join('\n'),
  )
  const started = performance.now()
  // The fake model server runs in this process: its CPU time while the index runs shares the 2 cores.
  const benchCpuBefore = process.cpuUsage()
  const run = await indexProcess(dir)
  const wall = (performance.now() - started) / 1000
  const benchCpu = process.cpuUsage(benchCpuBefore)
  const fakeCpu = Number(((benchCpu.user + benchCpu.system) / 1e6).toFixed(1))
  const calls = count()
  if (run.code !== 0) throw new Error(`index of ${tokens} tokens failed (${run.code}):\n${run.stderr.slice(-4000)}`)
  const stats = JSON.parse(readFileSync(join(dir, 'output', 'stats.json'), 'utf8'))
  const cacheFiles = countFiles(join(dir, 'cache'))
  counted.calls = 0
  const update = UPDATE ? await updateOnce(dir, count) : undefined
  clearInterval(drain)
  await fake.close()
  if (KEEP) console.log(`(kept ${dir})`)
  else rmSync(dir, { recursive: true, force: true })
  const perWorkflow = Object.fromEntries(
    Object.entries(stats.workflows).map(([n, w]) => [
      n,
      { seconds: Number(w.overall.toFixed(2)), peakMb: Math.round(w.peak_memory_bytes / 2 ** 20) },
    ]),
  )
  const rowsOf = (table) => Object.values(stats.workflows).find((w) => w.rows?.[table] !== undefined)?.rows[table]
  const chunks = rowsOf('text_units')
  const edgesPerChunk = Number((rowsOf('chunk_edges') / chunks).toFixed(2))
  const cpu = Number(run.cpuSeconds.toFixed(1))
  return {
    tokens,
    kind,
    wall,
    cpu,
    fakeCpu,
    peakMb: Math.round(run.peakMb),
    calls,
    cacheFiles,
    chunks,
    edgesPerChunk,
    perWorkflow,
    update,
  }
}

/** Adds one generated document of ~1,500 tokens (another seed) and times `graphrag update`. */
async function updateOnce(dir, count) {
  const extra = mkdtempSync(join(tmpdir(), 'graphrag-bench-scale-extra-'))
  writeCorpus(extra, { tokens: 3000, docTokens: 1500, seed: 99, countTokens: (t) => tokenizer.count(t) })
  copyFileSync(join(extra, readdirSync(extra).sort()[0]), join(dir, 'input', 'zz-added.txt'))
  rmSync(extra, { recursive: true, force: true })
  const started = performance.now()
  const run = await indexProcess(dir, 'update')
  const wall = (performance.now() - started) / 1000
  if (run.code !== 0) throw new Error(`update failed (${run.code}):\n${run.stderr.slice(-4000)}`)
  return { wall, peakMb: Math.round(run.peakMb), calls: count() }
}

/** Each workflow's seconds at every size, and its time per token relative to the first size. */
function printRatios(results) {
  console.log(`\n${results[0].kind} corpus:`)
  const [first] = results
  const sizes = results.map((r) => `${(r.tokens / 1e6).toFixed(1)} M`.padStart(9))
  const ratios = results.slice(1).map((r) => `per-token ×${(r.tokens / first.tokens).toFixed(0)}`.padStart(15))
  console.log(`\n${'workflow'.padEnd(28)} ${sizes.join(' ')} ${ratios.join(' ')}`)
  const row = (name, seconds) => {
    const cells = seconds.map((s) => (s === undefined ? '-' : s.toFixed(2)).padStart(9))
    const growth = results.slice(1).map((r, i) => {
      const [a, b] = [seconds[0], seconds[i + 1]]
      if (a === undefined || b === undefined || a < 0.05) return '-'.padStart(15)
      return (b / r.tokens / (a / first.tokens)).toFixed(2).padStart(15)
    })
    console.log(`${name.padEnd(28)} ${cells.join(' ')} ${growth.join(' ')}`)
  }
  for (const name of Object.keys(results.at(-1).perWorkflow))
    row(
      name,
      results.map((r) => r.perWorkflow[name]?.seconds),
    )
  row(
    'wall',
    results.map((r) => r.wall),
  )
  console.log('(time per token at a size over time per token at the first: ≤ 1 is linear or better)')
}

const results = []
for (const kind of KINDS) {
  const ofKind = []
  for (const tokens of SIZES) {
    const r = await scaleOnce(tokens, kind)
    ofKind.push(r)
    console.log(
      `\n${(tokens / 1e6).toFixed(1)} M tokens, ${kind} corpus: wall ${r.wall.toFixed(1)} s, CPU ${r.cpu} s (fake model server ${r.fakeCpu} s), peak RSS ${r.peakMb} MB (target < 1024 MB), ${r.calls} model calls, ${r.cacheFiles} cache files, ${r.chunks} chunks, ${r.edgesPerChunk} chunk edges per chunk`,
    )
    for (const [name, w] of Object.entries(r.perWorkflow))
      console.log(`  ${name.padEnd(28)} ${String(w.seconds).padStart(8)} s  peak ${w.peakMb} MB`)
    if (r.update !== undefined)
      console.log(
        `  then graphrag update adding one ~1,500-token document: wall ${r.update.wall.toFixed(1)} s, peak RSS ${r.update.peakMb} MB, ${r.update.calls} model calls`,
      )
  }
  if (ofKind.length > 1) printRatios(ofKind)
  results.push(...ofKind)
}
if (saveAt >= 0) writeFileSync(args[saveAt + 1], JSON.stringify(results, null, 2))
