// `npm run bench`: noun-phrase throughput (bench/nlp.mjs), PDF pages/s (bench/pdf.mjs) and the whole offline index of the demo
// corpus: a cold run (empty cache) and a warm re-run (--no-resume, cache kept) measured in the same
// process tree, with their ratio. Run after the build (npm run bench builds first).
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const RUNS = Number(process.argv[2] ?? 3)

function run(args, label) {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: root, env: { ...process.env, CI: 'true' }, encoding: 'utf8' })
  const seconds = (performance.now() - started) / 1000
  if (result.status !== 0) {
    process.stderr.write(result.stdout + result.stderr)
    throw new Error(`${label} failed with exit code ${result.status}`)
  }
  return { seconds, stdout: result.stdout, stderr: result.stderr }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

console.log('== noun-phrase extraction (extract_graph_nlp) ==')
process.stdout.write(run([join(root, 'bench', 'nlp.mjs')], 'nlp bench').stdout)

console.log('\n== PDF text extraction (input.type pdf) ==')
process.stdout.write(run([join(root, 'bench', 'pdf.mjs')], 'pdf bench').stdout)

console.log('\n== offline index of fixtures/demo (fast method, local embedder) ==')
const cold = []
const warm = []
for (let i = 0; i < RUNS; i++) {
  const dir = join(mkdtempSync(join(tmpdir(), 'graphrag-bench-')), 'demo')
  cpSync(join(root, 'fixtures', 'demo'), dir, {
    recursive: true,
    filter: (src) => !/\/(output|cache|logs)(\/|$)/.test(src.slice(root.length)),
  })
  cold.push(run([join(root, 'bin', 'graphrag.js'), 'index', '--root', dir], 'cold index').seconds)
  warm.push(run([join(root, 'bin', 'graphrag.js'), 'index', '--root', dir, '--no-resume'], 'warm index').seconds)
  rmSync(dirname(dir), { recursive: true, force: true })
}
const c = median(cold)
const w = median(warm)
console.log(
  `cold index (empty cache):      median ${c.toFixed(2)} s over ${RUNS} runs [${cold.map((s) => s.toFixed(2)).join(', ')}]`,
)
console.log(
  `warm re-run (--no-resume):     median ${w.toFixed(2)} s over ${RUNS} runs [${warm.map((s) => s.toFixed(2)).join(', ')}]`,
)
console.log(`warm / cold: ${(w / c).toFixed(2)}`)
console.log(`target: cold index under 60 s on 2 cores: ${c < 60 ? 'met' : 'NOT met'}`)
