// `npm run bench:pipeline`: the standard method with claims on over a generated corpus (≥ 60 chunks) through
// the fake OpenAI-protocol server with a fixed per-call latency and 25 slots per model. Prints, per latency:
// wall time, the critical-path lower bound (longest chain of dependent calls × latency, or the slot capacity
// if that is longer, plus the non-model time measured with an instant model) and the share of slot-time used.
// Usage: node bench/pipeline.mjs [--tokens N] [--latencies 300,1000] [--save FILE] [--compare FILE]
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = parseArgs(process.argv.slice(2))
const SLOTS = 25
const TOKENS = Number(args.tokens ?? 90_000)
const LATENCIES = String(args.latencies ?? '300,1000')
  .split(',')
  .map(Number)
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
spawnSync('npx', ['tsc', '-p', 'tsconfig.support.json'], { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(fakePath)
const { ParquetTableStore } = await import(join(root, 'dist', 'storage', 'table-store.js'))
const { COMMUNITY_REPORTS, TEXT_UNITS } = await import(join(root, 'dist', 'model', 'index.js'))

function parseArgs(argv) {
  const out = {}
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1]
  return out
}

/** One index run in a fresh root (empty cache) against a server with `latency` ms per call. */
async function indexOnce(latency) {
  const fake = await startFakeLlm({ latency: { fixedMs: latency }, embeddingDimension: 32 })
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-pipeline-'))
  writeCorpus(join(dir, 'input'), { tokens: TOKENS, seed: 7, docTokens: 30_000 })
  const settings = [
    fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: SLOTS }),
    'extract_graph:\n  max_gleanings: 1',
    'extract_claims:\n  enabled: true\n  max_gleanings: 1',
    'vector_store:\n  vector_size: 32',
    '',
  ].join('\n')
  writeFileSync(join(dir, 'settings.yaml'), settings)
  const started = performance.now()
  const child = await spawnAsync([join(root, 'bin', 'graphrag.js'), 'index', '--root', dir, '--method', 'standard'])
  const wall = (performance.now() - started) / 1000
  await fake.close()
  if (child.code !== 0) throw new Error(`index failed (${child.code}):\n${child.stderr}`)
  const output = new ParquetTableStore(join(dir, 'output'))
  const stats = JSON.parse(readFileSync(join(dir, 'output', 'stats.json'), 'utf8'))
  const levels = new Set((await output.read(COMMUNITY_REPORTS)).map((r) => r.level)).size
  const chunks = (await output.read(TEXT_UNITS)).length
  rmSync(dir, { recursive: true, force: true })
  return { wall, requests: fake.requests, stats, levels, chunks }
}

function spawnAsync(argv) {
  return new Promise((done) => {
    import('node:child_process').then(({ spawn }) => {
      const child = spawn(process.execPath, argv, { cwd: root, env: { ...process.env, CI: 'true', NO_COLOR: '1' } })
      let stderr = ''
      child.stderr.on('data', (d) => (stderr += d))
      child.stdout.resume()
      child.on('close', (code) => done({ code, stderr }))
    })
  })
}

/**
 * Rounds of dependent calls on the longest chain: preflight; graph extraction with its gleanings, then a
 * description summary; (claims with their gleanings run beside it); one report per community level, each
 * level after its children; the report embeddings.
 */
function chainLength(requests, levels) {
  const count = (kind) => requests.filter((r) => r.kind === kind).length
  const perUnit = (first, ...more) =>
    count(first) === 0 ? 0 : 1 + Math.ceil(more.reduce((s, k) => s + count(k), 0) / count(first))
  const graph =
    perUnit('extract_graph', 'extract_graph_continue', 'extract_graph_loop') +
    (count('summarize_descriptions') > 0 ? 1 : 0)
  const claims = perUnit('extract_claims', 'extract_claims_continue', 'extract_claims_loop')
  return 1 + Math.max(graph, claims) + levels + 1
}

function measure(run, latency, nonModelSeconds) {
  const measured = run.requests.filter((r) => r.status === 200)
  const busy = measured.reduce((s, r) => s + (r.endedAt - r.startedAt), 0) / 1000
  const chat = measured.filter((r) => r.kind !== 'embedding').length
  const embedding = measured.length - chat
  const chain = chainLength(measured, run.levels)
  const capacity = (Math.max(Math.ceil(chat / SLOTS), Math.ceil(embedding / SLOTS)) * latency) / 1000
  const bound = Math.max((chain * latency) / 1000, capacity) + nonModelSeconds
  const peak = peakInFlight(measured)
  const perWorkflow = Object.fromEntries(
    Object.entries(run.stats.workflows).map(([name, w]) => [name, Number(w.overall.toFixed(2))]),
  )
  return {
    latency,
    chunks: run.chunks,
    calls: measured.length,
    chain,
    wall: run.wall,
    bound,
    ratio: run.wall / bound,
    used: busy / (SLOTS * run.wall),
    peak,
    perWorkflow,
  }
}

function peakInFlight(requests) {
  const events = requests
    .flatMap((r) => [
      [r.startedAt, 1],
      [r.endedAt, -1],
    ])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let peak = 0
  for (const [, d] of events) peak = Math.max(peak, (now += d))
  return peak
}

const instant = await indexOnce(0)
const nonModel = instant.wall
console.log(
  `corpus: ${TOKENS} tokens, ${instant.chunks} chunks; ${instant.requests.length} calls; non-model time (instant model) ${nonModel.toFixed(2)} s`,
)
const results = []
for (const latency of LATENCIES) results.push(measure(await indexOnce(latency), latency, nonModel))
const before =
  args.compare !== undefined && existsSync(args.compare) ? JSON.parse(readFileSync(args.compare, 'utf8')) : undefined
for (const r of results) {
  const b = before?.results.find((x) => x.latency === r.latency)
  const cell = (now, then, digits, unit = '') =>
    `${now.toFixed(digits)}${unit}${then === undefined ? '' : ` (before ${then.toFixed(digits)}${unit})`}`
  console.log(
    `\nlatency ${r.latency} ms, ${r.calls} calls, chain of ${r.chain} dependent calls, peak in flight ${r.peak} (limit ${SLOTS} per model)`,
  )
  console.log(`  wall            ${cell(r.wall, b?.wall, 2, ' s')}`)
  console.log(
    `  critical path   ${cell(r.bound, b?.bound, 2, ' s')}   wall / bound ${cell(r.ratio, b?.ratio, 2)}  (target ≤ 1.5)`,
  )
  console.log(`  slot-time used  ${cell(r.used * 100, b === undefined ? undefined : b.used * 100, 1, ' %')}`)
  console.log(
    `  per workflow    ${Object.entries(r.perWorkflow)
      .map(([n, s]) => `${n} ${s}`)
      .join(', ')}`,
  )
}
if (args.save !== undefined) writeFileSync(args.save, JSON.stringify({ tokens: TOKENS, nonModel, results }, null, 2))
