// `npm run bench:startup`: how long a command takes before it does anything, against bare `node`
// measured in the same run (interleaved, so load on the machine hits both alike).
//   graphrag --version / --help   target under 0.15 s (≈ 2× bare node, which is ~0.07 s idle)
//   graphrag query (local, demo)  target under 0.5 s  (≈ 7× bare node)
// The ratio is the verdict: absolute seconds depend on the machine and on what else runs on it.
// `node bench/startup.mjs [runs]` after `npm run build` (the script builds first).
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.argv[2] ?? 7)
const BIN = join(root, 'bin', 'graphrag.js')
const NODE_IDLE_SECONDS = 0.07

function time(args, label) {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    encoding: 'utf8',
  })
  const seconds = (performance.now() - started) / 1000
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr)
    throw new Error(`${label} failed with exit code ${result.status}`)
  }
  return seconds
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

const demo = join(mkdtempSync(join(tmpdir(), 'graphrag-startup-')), 'demo')
cpSync(join(root, 'fixtures', 'demo'), demo, {
  recursive: true,
  filter: (src) => !/\/(output|cache|logs)(\/|$)/.test(src.slice(root.length)),
})
process.stdout.write('indexing fixtures/demo once for the query row ... ')
time([BIN, 'index', '--root', demo], 'index')
console.log('done')

const cases = [
  { label: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { label: 'graphrag --version', args: [BIN, '--version'], target: 0.15 },
  { label: 'graphrag --help', args: [BIN, '--help'], target: 0.15 },
  {
    label: 'graphrag query -m local (demo)',
    args: [BIN, 'query', 'Who salvaged the ferry?', '--method', 'local', '--root', demo],
    target: 0.5,
  },
]
const samples = cases.map(() => [])
time(cases[0].args, 'warm-up')
for (let i = 0; i < RUNS; i++) cases.forEach((c, k) => samples[k].push(time(c.args, c.label)))
rmSync(dirname(demo), { recursive: true, force: true })

const base = median(samples[0])
let failed = 0
console.log(`\nmedian wall time over ${RUNS} interleaved runs; ratio = command / bare node in this run`)
cases.forEach((c, k) => {
  const m = median(samples[k])
  const ratio = m / base
  let verdict = ''
  if (c.target !== undefined) {
    const allowed = c.target / NODE_IDLE_SECONDS
    const met = ratio <= allowed
    if (!met) failed++
    verdict = `  target ${c.target} s ≈ ${allowed.toFixed(1)}× node: ${met ? 'met' : 'NOT met'}`
  }
  console.log(`${c.label.padEnd(34)} ${m.toFixed(3)} s  ${ratio.toFixed(2)}×${verdict}`)
})
if (failed > 0) process.exitCode = 1
