// graphrag update benchmark on the 20 documents of fixtures/update-corpus, against the fake OpenAI
// server (instant answers): a cold full index of the 20 documents, then add-1 / edit-1 / delete-1
// updates with the LLM cache disabled (--no-cache), so every answer not reused from the index's own
// model_replies table is a real call. Prints, per update: model calls, tokens and wall time next to
// the cold full index's, the share of community reports regenerated, and how many communities kept
// exactly their members (a report can only be reused when its community did and its context, read
// with human_readable_ids replaced by identities, did not change), and how many reports were kept
// with renumbered citations.
// Run: npm run bench:update
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runIndex } from '../dist/index/run/runner.js'
import { runUpdate } from '../dist/index/run/update.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
if (!existsSync(fakePath)) execSync('npx tsc -p tsconfig.support.json', { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(fakePath)

const CORPUS = join(root, 'fixtures', 'update-corpus')
const DOCS = (await readdir(CORPUS)).sort()
const fake = await startFakeLlm({ embeddingDimension: 8 })
const settings = `${fakeModelSettingsYaml(fake.baseUrl)}vector_store:\n  vector_size: 8\n`

async function project(names) {
  const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-update-'))
  await writeFile(join(dir, 'settings.yaml'), settings)
  for (const name of names) await cp(join(CORPUS, name), join(dir, 'input', name))
  return dir
}

/** Calls the server saw and tokens the run reported, while `fn` ran. */
async function measure(fn) {
  const from = fake.requests.length
  const started = performance.now()
  const result = await fn()
  const seconds = (performance.now() - started) / 1000
  const requests = fake.requests.slice(from)
  const stats = JSON.parse(await readFile(join(result.outputDir, 'stats.json'), 'utf8'))
  const t = stats.llm_totals
  return {
    chat: requests.filter((r) => r.kind !== 'embedding' && r.kind !== 'models').length,
    reportCalls: requests.filter((r) => r.kind === 'community_report').length,
    embedding: requests.filter((r) => r.kind === 'embedding').length,
    tokens: t.promptTokens + t.completionTokens,
    seconds,
    stats,
  }
}

const cold = await measure(async () => runIndex({ root: await project(DOCS), skipValidation: true }))

const dir = await project(DOCS.slice(0, 19))
await runIndex({ root: dir, skipValidation: true })
const scenarios = [
  ['add-1', () => cp(join(CORPUS, DOCS[19]), join(dir, 'input', DOCS[19]))],
  [
    'edit-1',
    async () =>
      writeFile(
        join(dir, 'input', DOCS[4]),
        `${await readFile(join(CORPUS, DOCS[4]), 'utf8')}The school choir sang at the Lantern Festival.\n`,
      ),
  ],
  ['delete-1', () => rm(join(dir, 'input', DOCS[6]))],
]
const rows = []
for (const [label, change] of scenarios) {
  await change()
  const m = await measure(() => runUpdate({ root: dir, skipValidation: true, cache: false }))
  const reports = m.stats.workflows.update_community_reports.summary
  const communities = m.stats.workflows.update_communities.summary
  const renumbered = m.stats.workflows.create_community_reports.summary.reused_renumbered ?? 0
  rows.push({ label, ...m, reports, communities, renumbered })
}

const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`)
console.log(
  `cold full index (20 documents): ${cold.chat} chat calls, ${cold.embedding} embedding calls, ${cold.tokens} tokens, ${cold.seconds.toFixed(2)} s`,
)
console.log(
  'update (--no-cache: reuse only through model_replies)   chat calls        embedding   tokens             wall            reports regenerated (report calls)   renumbered   communities with the same members',
)
for (const r of rows) {
  console.log(
    `  ${r.label.padEnd(9)} ${String(r.chat).padStart(5)} (${pct(r.chat, cold.chat).padStart(7)})   ${String(r.embedding).padStart(4)}   ${String(r.tokens).padStart(7)} (${pct(r.tokens, cold.tokens).padStart(7)})   ${r.seconds.toFixed(2)} s (${pct(r.seconds, cold.seconds)})   ${r.reportCalls}/${r.reports.reports} (${pct(r.reportCalls, r.reports.reports)})   ${String(r.renumbered).padStart(10)}   ${r.communities.communities_unchanged}/${r.reports.reports}`,
  )
}
await fake.close()
