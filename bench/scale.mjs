// `npm run bench:scale`: indexes generated corpora (distinct text from a seeded generator) with the standard
// method and an instant fake model; prints wall time, peak RSS of the index process and time per workflow.
// Usage: node bench/scale.mjs [sizes in tokens, comma-separated; default 1000000,10000000] [--save FILE]
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'))
const saveAt = process.argv.indexOf('--save')
const SIZES = (positional[0] ?? '1000000,10000000').split(',').map(Number)
const VECTOR_SIZE = 1536
spawnSync('npx', ['tsc', '-p', 'tsconfig.support.json'], { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(
  join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
)

/** Runs the CLI under /usr/bin/time -v (GNU time) for the peak RSS of the index process itself. */
function indexProcess(dir) {
  return new Promise((done) => {
    const argv = [process.execPath, join(root, 'bin', 'graphrag.js'), 'index', '--root', dir, '--method', 'standard']
    const child = spawn('/usr/bin/time', ['-v', ...argv], {
      cwd: root,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    })
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    child.stdout.resume()
    child.on('close', (code) => done({ code, stderr }))
  })
}

async function scaleOnce(tokens) {
  const fake = await startFakeLlm({ embeddingDimension: VECTOR_SIZE })
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-scale-'))
  writeCorpus(join(dir, 'input'), { tokens, seed: 11 })
  writeFileSync(
    join(dir, 'settings.yaml'),
    [
      fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 25 }),
      `vector_store:\n  vector_size: ${VECTOR_SIZE}`,
      '',
    ].join('\n'),
  )
  const started = performance.now()
  const run = await indexProcess(dir)
  const wall = (performance.now() - started) / 1000
  const calls = fake.requests.length
  await fake.close()
  if (run.code !== 0) throw new Error(`index of ${tokens} tokens failed (${run.code}):\n${run.stderr.slice(-4000)}`)
  const peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? NaN)
  const stats = JSON.parse(readFileSync(join(dir, 'output', 'stats.json'), 'utf8'))
  rmSync(dir, { recursive: true, force: true })
  const perWorkflow = Object.fromEntries(
    Object.entries(stats.workflows).map(([n, w]) => [
      n,
      { seconds: Number(w.overall.toFixed(2)), peakMb: Math.round(w.peak_memory_bytes / 2 ** 20) },
    ]),
  )
  return { tokens, wall, peakMb: Math.round(peakKb / 1024), calls, perWorkflow }
}

const results = []
for (const tokens of SIZES) {
  const r = await scaleOnce(tokens)
  results.push(r)
  console.log(
    `\n${(tokens / 1e6).toFixed(1)} M tokens: wall ${r.wall.toFixed(1)} s, peak RSS ${r.peakMb} MB (target < 1536 MB), ${r.calls} model calls`,
  )
  for (const [name, w] of Object.entries(r.perWorkflow))
    console.log(`  ${name.padEnd(28)} ${String(w.seconds).padStart(8)} s  peak ${w.peakMb} MB`)
}
if (results.length > 1) {
  const [a, b] = [results[0], results.at(-1)]
  console.log(
    `\ntime per token grows ×${(b.wall / b.tokens / (a.wall / a.tokens)).toFixed(2)} from ${a.tokens} to ${b.tokens} tokens (≤ 1 is linear or better)`,
  )
}
if (saveAt > 0) writeFileSync(process.argv[saveAt + 1], JSON.stringify(results, null, 2))
