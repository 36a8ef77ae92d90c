// `npm run bench:storage`: the standard index (instant fake model) of the demo corpus and of a generated
// corpus (~1 M tokens by default) with inputs, output, cache, logs and LanceDB on a local folder, on
// Azurite (Azure Blob) and on s3rver (S3), all started here on 127.0.0.1; wall time and peak RSS of the
// index process side by side, with each store's wall time relative to local disk.
// Usage: [BENCH_CORPORA=demo|generated] node bench/storage.mjs [generated corpus size in tokens; default 1000000]
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeCorpus } from './corpus.mjs'
import { timedRun } from './timed-run.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const TOKENS = Number(process.argv[2] ?? 1_000_000)
const VECTOR_SIZE = 1536
spawnSync('npx', ['tsc', '-p', 'tsconfig.support.json'], { cwd: root, stdio: 'inherit' })
const support = (path) => import(join(root, 'dist-test', path))
const { startFakeLlm, fakeModelSettingsYaml } = await support('test/support/fake-llm/index.js')
const { startAzurite, startS3Server } = await support('test/support/object-stores.js')
const { AzureBlobStore } = await support('src/storage/object/azure-blob.js')
const { S3Store } = await support('src/storage/object/s3.js')
const { getTokenizer } = await import(join(root, 'dist', 'llm', 'tokenizer.js'))
const tokenizer = getTokenizer('o200k_base')

const [fake, azurite, s3] = await Promise.all([
  startFakeLlm({ embeddingDimension: VECTOR_SIZE }),
  startAzurite(),
  startS3Server(),
])
const drain = setInterval(() => (fake.requests.length = 0), 1000)
Object.assign(process.env, s3.env)

function files(dir) {
  const out = []
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const abs = join(at, entry.name)
      if (entry.isDirectory()) walk(abs)
      else out.push(relative(dir, abs))
    }
  }
  walk(dir)
  return out
}

/** The storage sections of settings.yaml for one backend ('' for local folders). */
function storageYaml(type, keys) {
  if (type === 'file') return ''
  const indent = (text, by) => text.replace(/^/gm, by)
  const section = (name, base) => `${name}:\n  type: ${type}\n  base_dir: ${base}\n${indent(keys, '  ')}\n`
  return [
    section('input_storage', 'input'),
    section('output_storage', 'output'),
    section('reporting', 'logs'),
    `cache:\n  type: json\n  storage:\n    type: ${type}\n    base_dir: cache\n${indent(keys, '    ')}\n`,
  ].join('')
}

async function backend(name, corpusDir) {
  const id = `bench${Date.now()}${Math.floor(Math.random() * 1e6)}`
  if (name === 'local') return { type: 'file', keys: '' }
  let store
  let keys
  if (name === 'azurite') {
    await azurite.container(id)
    store = new AzureBlobStore({ connectionString: azurite.connectionString, containerName: id })
    keys = `connection_string: "${azurite.connectionString}"\ncontainer_name: ${id}`
  } else {
    await s3.bucket(id)
    store = new S3Store({ bucket: id, endpointUrl: s3.endpoint })
    keys = `bucket: ${id}\nendpoint_url: ${s3.endpoint}`
  }
  const names = files(corpusDir)
  for (let i = 0; i < names.length; i += 16)
    await Promise.all(names.slice(i, i + 16).map((f) => store.put(`input/${f}`, readFileSync(join(corpusDir, f)))))
  return { type: name === 'azurite' ? 'blob' : 's3', keys }
}

function indexProcess(dir, env) {
  const argv = [process.execPath, join(root, 'bin', 'graphrag.js'), 'index', '--root', dir, '--method', 'standard']
  return timedRun(argv, { cwd: root, env })
}

async function measure(corpus, corpusDir, name) {
  const dir = mkdtempSync(join(tmpdir(), `graphrag-bench-storage-${name}-`))
  const b = await backend(name, corpusDir)
  if (b.type === 'file') cpSync(corpusDir, join(dir, 'input'), { recursive: true })
  writeFileSync(
    join(dir, 'settings.yaml'),
    `${fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 25 })}vector_store:\n  vector_size: ${VECTOR_SIZE}\n${storageYaml(b.type, b.keys)}`,
  )
  const started = performance.now()
  const run = await indexProcess(dir, s3.env)
  const wall = (performance.now() - started) / 1000
  if (run.code !== 0) throw new Error(`${corpus} on ${name} failed (${run.code}):\n${run.stderr.slice(-3000)}`)
  const peakMb = Math.round(run.peakMb)
  rmSync(dir, { recursive: true, force: true })
  return { corpus, name, wall, peakMb }
}

const generated = mkdtempSync(join(tmpdir(), 'graphrag-bench-storage-corpus-'))
writeCorpus(generated, { tokens: TOKENS, seed: 11, countTokens: (t) => tokenizer.count(t) })
// BENCH_CORPORA=generated measures the generated corpus only (the demo corpus is fixed costs alone).
const corpora = [
  ['demo', join(root, 'fixtures', 'demo', 'input')],
  [`generated ${(TOKENS / 1e6).toFixed(1)} M tokens`, generated],
].filter(
  ([name]) =>
    process.env.BENCH_CORPORA === undefined || process.env.BENCH_CORPORA.split(',').some((c) => name.startsWith(c)),
)
const results = []
try {
  for (const [corpus, dir] of corpora) {
    const bytes = files(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0)
    console.log(`\n== ${corpus} (${files(dir).length} files, ${(bytes / 2 ** 20).toFixed(1)} MB) ==`)
    let local
    // BENCH_STORES=local,azurite measures those only (local first: the ratios are to it).
    for (const name of ['local', 'azurite', 's3rver'].filter(
      (n) => process.env.BENCH_STORES === undefined || process.env.BENCH_STORES.split(',').includes(n),
    )) {
      const r = await measure(corpus, dir, name)
      local ??= r.wall
      results.push(r)
      console.log(
        `${name.padEnd(8)} wall ${r.wall.toFixed(1).padStart(6)} s (${(r.wall / local).toFixed(2)}x local)   peak RSS ${String(r.peakMb).padStart(5)} MB`,
      )
    }
  }
} finally {
  clearInterval(drain)
  rmSync(generated, { recursive: true, force: true })
  await Promise.all([fake.close(), azurite.stop(), s3.stop()])
}
