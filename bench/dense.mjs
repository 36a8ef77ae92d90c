// `npm run bench:dense`: the fast method (offline default, no model) on a generated dense corpus (issue 42:
// a main cast of 20 names recurring in every text unit, so the noun-phrase pairs run to millions). Prints
// peak RSS and wall time of the index process, then each workflow's time and peak RSS from stats.json.
// Usage: node bench/dense.mjs [tokens; default 300000] [--keep] (leave the folder in place and print where)
//        [--heap-prof] (node --heap-prof into <folder>/profile, implies --keep)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'
import { timedRun } from './timed-run.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const tokens = Number(args.find((a) => !a.startsWith('--')) ?? 300_000)
const HEAP_PROF = args.includes('--heap-prof')
const KEEP = HEAP_PROF || args.includes('--keep')
const cli = join(root, 'bin', 'graphrag.js')
const env = { GRAPHRAG_API_KEY: '', OPENAI_API_KEY: '' }

const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-dense-'))
// The corpus of docs/performance.md's dense section: seed 11, a main cast of 20 (words at 0.75 a token).
writeCorpus(join(dir, 'input'), { tokens, seed: 11, recurring: 20 })
const init = spawnSync(process.execPath, [cli, 'init', '--offline', '--root', dir], { env: { ...process.env, ...env } })
if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`)
const profile = HEAP_PROF ? ['--heap-prof', `--heap-prof-dir=${join(dir, 'profile')}`] : []
const started = performance.now()
const run = await timedRun([process.execPath, ...profile, cli, 'index', '--root', dir], { cwd: root, env })
const wall = (performance.now() - started) / 1000
if (run.code !== 0) throw new Error(`index failed (${run.code}):\n${run.stderr.slice(-4000)}`)
const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(run.stderr)?.[1] ?? NaN)
const stats = JSON.parse(readFileSync(join(dir, 'output', 'stats.json'), 'utf8'))
const mb = (bytes) => Math.round(bytes / 2 ** 20)
console.log(
  `dense corpus, ${tokens} tokens: peak ${Math.round(run.peakMb)} MB, wall ${wall.toFixed(1)} s, CPU (user) ${cpu} s`,
)
for (const [name, w] of Object.entries(stats.workflows ?? {}))
  console.log(
    `  ${name.padEnd(28)} ${w.overall.toFixed(1).padStart(7)} s  peak ${mb(w.peak_memory_bytes)} MB  rows ${JSON.stringify(w.rows ?? {})}`,
  )
if (KEEP) console.log(`(kept ${dir})`)
else rmSync(dir, { recursive: true, force: true })
