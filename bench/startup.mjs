// `npm run bench:startup`: how long a command takes before it does anything, against bare `node`
// measured in the same run (interleaved, so load on the machine hits both alike).
//   graphrag --version / --help                           target under 0.15 s (≈ 2× bare node, ~0.07 s idle)
//   graphrag query -m basic / local / global (offline demo)  target under 0.5 s  (≈ 7× bare node)
// The ratio is the verdict: absolute seconds depend on the machine and on what else runs on it.
// Each row also gives the median CPU time (user + sys) of the command, which load from other
// processes on a shared machine disturbs much less than wall time (Linux: from /proc).
// `node bench/startup.mjs [runs]` after `npm run build` (the script builds first).
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.argv[2] ?? 7)
const BIN = join(root, 'bin', 'graphrag.js')
const NODE_IDLE_SECONDS = 0.07
const QUESTION = 'Who salvaged the ferry?'

/** User + sys seconds of this process's finished children (fields 16 and 17 of /proc/self/stat). */
function childCpuSeconds() {
  if (!existsSync('/proc/self/stat')) return Number.NaN
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/** Wall and CPU seconds of one `node args` run. */
function time(args, label) {
  const cpuBefore = childCpuSeconds()
  const started = performance.now()
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    encoding: 'utf8',
  })
  const wall = (performance.now() - started) / 1000
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr)
    throw new Error(`${label} failed with exit code ${result.status}`)
  }
  return { wall, cpu: childCpuSeconds() - cpuBefore }
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
process.stdout.write('indexing fixtures/demo once (offline) for the query rows ... ')
time([BIN, 'index', '--root', demo], 'index')
console.log('done')

const query = (method) => ({
  label: `graphrag query -m ${method} (demo)`,
  args: [BIN, 'query', QUESTION, '--method', method, '--root', demo],
  target: 0.5,
})
const cases = [
  { label: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { label: 'graphrag --version', args: [BIN, '--version'], target: 0.15 },
  { label: 'graphrag --help', args: [BIN, '--help'], target: 0.15 },
  query('basic'),
  query('local'),
  query('global'),
]
const samples = cases.map(() => [])
time(cases[0].args, 'warm-up')
for (let i = 0; i < RUNS; i++) cases.forEach((c, k) => samples[k].push(time(c.args, c.label)))
rmSync(dirname(demo), { recursive: true, force: true })

const base = median(samples[0].map((s) => s.wall))
const baseCpu = median(samples[0].map((s) => s.cpu))
let failed = 0
console.log(`\nmedians over ${RUNS} interleaved runs; ratio = command / bare node in this run`)
console.log(
  `${'command'.padEnd(34)} ${'wall'.padStart(7)}  ${'ratio'.padStart(6)}  ${'cpu'.padStart(7)}  ${'ratio'.padStart(6)}`,
)
cases.forEach((c, k) => {
  const wall = median(samples[k].map((s) => s.wall))
  const cpu = median(samples[k].map((s) => s.cpu))
  const ratio = wall / base
  let verdict = ''
  if (c.target !== undefined) {
    const allowed = c.target / NODE_IDLE_SECONDS
    const met = ratio <= allowed
    if (!met) failed++
    verdict = `  target ${c.target} s ≈ ${allowed.toFixed(1)}× node: ${met ? 'met' : 'NOT met'}`
  }
  const cpuRatio = Number.isNaN(cpu) ? '' : `${(cpu / baseCpu).toFixed(2)}×`
  console.log(
    `${c.label.padEnd(34)} ${wall.toFixed(3).padStart(5)} s  ${ratio.toFixed(2).padStart(5)}×  ${Number.isNaN(cpu) ? '    n/a' : `${cpu.toFixed(3)} s`}  ${cpuRatio.padStart(6)}${verdict}`,
  )
})
if (failed > 0) process.exitCode = 1
