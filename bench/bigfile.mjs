// `npm run bench:bigfile`: peak memory of `graphrag index` on one very large input. Generates, in a temp
// folder, a one-line text of the given size (default 200 MB), the same text with line breaks, and a folder
// of 5 MB files of the same total; indexes each offline (`init --offline`) with the workflows that carry
// the whole text (load_input_documents, create_base_text_units, create_final_documents) under GNU time,
// and prints wall time, peak RSS and peak RSS over the input size.
// Usage: node bench/bigfile.mjs [MB, default 200] [--shapes one-line,multi-line,many-files]
//        [--baseline REF] (also run the build of a git ref, e.g. main, in the same run: the before figure)
//        [--keep] (leave the folders in place and print where)
import { execSync, spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'
import { timedRun } from './timed-run.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const positional = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
const MB = Number(positional[0] ?? 200)
const SHAPES = (option('--shapes') ?? 'one-line,multi-line,many-files').split(',')
const BASELINE = option('--baseline')
const KEEP = args.includes('--keep')
const WORKFLOWS = ['load_input_documents', 'create_base_text_units', 'create_final_documents']

/** A checkout of `ref` built with this project's node_modules, for the before figure. */
function buildRef(ref) {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-bigfile-build-'))
  execSync(`git archive ${ref} | tar -x -C ${dir}`, { cwd: root })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  // The ref's whole build (tsc, and the tokenizer's rank tables where the ref has them).
  spawnSync('npm', ['run', 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  return dir
}

/** Writes `mb` megabytes of generated text into `input` in the given shape; returns the bytes written. */
function writeInput(input, shape, mb) {
  mkdirSync(input, { recursive: true })
  const scratch = mkdtempSync(join(tmpdir(), 'graphrag-bench-bigfile-gen-'))
  // ~5.2 bytes a word-token of this generator; the sizes printed are those written, not assumed.
  const docTokens = shape === 'many-files' ? Math.round((5 * 1e6) / 5.2) : 1e12
  writeCorpus(scratch, { tokens: Math.round((mb * 1e6) / 5.2), seed: 7, docTokens })
  for (const name of readdirSync(scratch).sort()) {
    const text = readFileSync(join(scratch, name), 'utf8')
    writeFileSync(join(input, name), shape === 'one-line' ? text.replace(/\n+/g, ' ') : text)
  }
  rmSync(scratch, { recursive: true, force: true })
  return readdirSync(input).reduce((sum, name) => sum + statSync(join(input, name)).size, 0)
}

function run(build, argv) {
  return timedRun([process.execPath, join(build, 'bin', 'graphrag.js'), ...argv], { cwd: root })
}

async function indexOnce(build, shape, bytes, input) {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-bench-bigfile-'))
  await run(build, ['init', '--offline', '--root', dir])
  rmSync(join(dir, 'input'), { recursive: true, force: true })
  symlinkSync(input, join(dir, 'input'))
  const settings = readFileSync(join(dir, 'settings.yaml'), 'utf8').replace(/^workflows:.*$/m, '')
  writeFileSync(join(dir, 'settings.yaml'), `${settings}\nworkflows: [${WORKFLOWS.join(', ')}]\n`)
  const started = performance.now()
  const result = await run(build, ['index', '--root', dir])
  const wall = (performance.now() - started) / 1000
  if (result.code !== 0) throw new Error(`index of ${shape} failed (${result.code}):\n${result.stderr.slice(-4000)}`)
  const peakMb = result.peakMb
  const stats = JSON.parse(readFileSync(join(dir, 'output', 'stats.json'), 'utf8'))
  const perWorkflow = Object.entries(stats.workflows).map(
    ([name, w]) => `${name} ${w.overall.toFixed(1)} s, ${Math.round(w.peak_memory_bytes / 2 ** 20)} MB`,
  )
  if (KEEP) console.log(`(kept ${dir})`)
  else rmSync(dir, { recursive: true, force: true })
  return { wall, peakMb, ratio: peakMb / (bytes / 2 ** 20), perWorkflow }
}

const builds = [['this build', root]]
if (BASELINE !== undefined) builds.push([BASELINE, buildRef(BASELINE)])
const inputs = mkdtempSync(join(tmpdir(), 'graphrag-bench-bigfile-input-'))
console.log(`| input | build | wall | peak RSS | peak / input |\n| --- | --- | --- | --- | --- |`)
for (const shape of SHAPES) {
  const input = join(inputs, shape)
  const bytes = writeInput(input, shape, MB)
  const label = `${shape} ${(bytes / 2 ** 20).toFixed(0)} MB${shape === 'many-files' ? ` (${readdirSync(input).length} files)` : ''}`
  for (const [name, build] of builds) {
    const r = await indexOnce(build, shape, bytes, input)
    console.log(`| ${label} | ${name} | ${r.wall.toFixed(1)} s | ${r.peakMb.toFixed(0)} MB | ${r.ratio.toFixed(1)}× |`)
    console.log(`|   | per workflow: ${r.perWorkflow.join('; ')} | | | |`)
  }
  rmSync(input, { recursive: true, force: true })
}
rmSync(inputs, { recursive: true, force: true })
for (const [, build] of builds.slice(1)) rmSync(build, { recursive: true, force: true })
