// graphrag update benchmark against the fake OpenAI server (instant answers), on two corpora of 20
// documents: the short documents of fixtures/update-corpus (about 15 words each, so community reports
// dominate the calls) and 20 generated documents of ~1,500 tokens (bench/corpus.mjs, seeded). For
// each: a cold full index of the 20 documents, then add-1 / edit-1 / delete-1 updates with the LLM
// cache disabled (--no-cache), so every answer not reused from the index's own model_replies table is
// a real call. Prints, per update: model calls, tokens and wall time next to the cold full index's,
// the share of community reports regenerated, how many reports were kept with renumbered citations
// (same community, same canonical context), how many were kept although their context changed
// (community_reports.update_max_context_change, default 0.15), and how many communities kept exactly
// their members. Each corpus runs twice: with the default, and with update_max_context_change: 0,
// where every report whose context changed is written again (as a full index would).
// Then the large-graph case (bench/update-large.mjs): one document added to an index of 100,000
// entities. `-- --large-only` runs only that; `-- --entities N` sets its size, `-- --rebuild` builds
// its base index again, `-- --twice` times a second update on top of the first.
// Run: npm run bench:update
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runIndex } from '../dist/index/run/runner.js'
import { runUpdate } from '../dist/index/run/update.js'
import { writeCorpus } from './corpus.mjs'
import { benchLargeGraph } from './update-large.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
if (!existsSync(fakePath)) execSync('npx tsc -p tsconfig.support.json', { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(fakePath)

const fake = await startFakeLlm({ embeddingDimension: 8 })
const settings = `${fakeModelSettingsYaml(fake.baseUrl)}vector_store:\n  vector_size: 8\n`

/** The two corpora: the short fixture documents (about 15 words each) and 20 generated documents of ~1,500 tokens. */
async function corpora() {
  const generated = await mkdtemp(join(tmpdir(), 'graphrag-bench-update-corpus-'))
  writeCorpus(generated, { tokens: 30_000, docTokens: 1_500, poolSize: 200, seed: 7 })
  const out = [
    ['fixtures/update-corpus (20 short documents)', join(root, 'fixtures', 'update-corpus')],
    ['generated (20 documents of ~1,500 tokens, bench/corpus.mjs)', generated],
  ]
  const carol = join(root, '..', 'shared', 'corpora', 'a-christmas-carol.txt')
  if (existsSync(carol)) out.push(['A Christmas Carol in 20 parts (../shared/corpora)', await splitText(carol, 20)])
  else console.log('(../shared absent: A Christmas Carol in 20 parts skipped)')
  return out
}

/** A real text cut at paragraph breaks into `parts` documents of about equal length. */
async function splitText(path, parts) {
  const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-update-corpus-'))
  const paragraphs = (await readFile(path, 'utf8')).split(/\n\s*\n/)
  const target = paragraphs.reduce((n, p) => n + p.length, 0) / parts
  let part = []
  let length = 0
  let index = 0
  const flush = () =>
    writeFile(join(dir, `part-${String(++index).padStart(2, '0')}.txt`), `${part.join('\n\n')}\n`).then(() => {
      part = []
      length = 0
    })
  for (const paragraph of paragraphs) {
    part.push(paragraph)
    length += paragraph.length
    if (length >= target && index < parts - 1) await flush()
  }
  if (part.length > 0) await flush()
  return dir
}

async function project(corpus, names, extra = '') {
  const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-update-'))
  await writeFile(join(dir, 'settings.yaml'), settings + extra)
  for (const name of names) await cp(join(corpus, name), join(dir, 'input', name))
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
    embeddedTexts: requests
      .filter((r) => r.kind === 'embedding')
      .reduce((n, r) => n + (Array.isArray(r.body.input) ? r.body.input.length : 1), 0),
    tokens: t.promptTokens + t.completionTokens,
    seconds,
    stats,
  }
}

/**
 * The edit adds a sentence naming one of the document's own capitalised names and a new one (the
 * fixture's: the school choir): at the start, where the test model (which extracts a chunk's first
 * names) sees it, so the edit changes the graph, and the chunks after it move.
 */
async function edited(path) {
  const text = await readFile(path, 'utf8')
  const [name = 'School'] = text.match(/\b[A-Z][a-z]{3,}\b/) ?? []
  return `The ${name} choir sang at the Lantern Festival.\n${text}`
}

/** The two settings each corpus is updated under. */
const MODES = [
  ['default (update_max_context_change: 0.15)', ''],
  ['exact (update_max_context_change: 0)', 'community_reports:\n  update_max_context_change: 0\n'],
]

async function bench(label, corpus) {
  const docs = (await readdir(corpus)).sort()
  const cold = await measure(async () => runIndex({ root: await project(corpus, docs), skipValidation: true }))
  const modes = []
  for (const [mode, extra] of MODES) {
    const dir = await project(corpus, docs.slice(0, 19), extra)
    await runIndex({ root: dir, skipValidation: true })
    const scenarios = [
      ['add-1', () => cp(join(corpus, docs[19]), join(dir, 'input', docs[19]))],
      ['edit-1', async () => writeFile(join(dir, 'input', docs[4]), await edited(join(corpus, docs[4])))],
      ['delete-1', () => rm(join(dir, 'input', docs[6]))],
    ]
    const rows = []
    for (const [name, change] of scenarios) {
      await change()
      const m = await measure(() => runUpdate({ root: dir, skipValidation: true, cache: false }))
      const reports = m.stats.workflows.update_community_reports.summary
      const communities = m.stats.workflows.update_communities.summary
      const made = m.stats.workflows.create_community_reports.summary
      const clustering = m.stats.workflows.create_communities.summary.clustering ?? 'from_scratch'
      // The update's own estimate (what its --dry-run prints), chat workflows only.
      const estimated = (m.stats.estimate ?? [])
        .filter((w) => w.workflow !== 'generate_text_embeddings')
        .reduce((n, w) => n + w.estimated.calls, 0)
      rows.push({ name, ...m, reports, communities, made, clustering, estimated })
    }
    modes.push([mode, rows])
  }
  print(label, cold, modes)
}

const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`)

function print(label, cold, modes) {
  console.log(`\n${label}`)
  console.log(
    `cold full index: ${cold.chat} chat calls (${cold.reportCalls} reports), ${cold.embedding} embedding calls (${cold.embeddedTexts} texts), ${cold.tokens} tokens, ${cold.seconds.toFixed(2)} s`,
  )
  for (const [mode, rows] of modes) {
    console.log(`update, ${mode}, --no-cache (reuse only through model_replies)`)
    console.log(
      '             chat calls (dry-run estimate)   embedding (texts)   tokens             wall            reports regenerated   renumbered   kept changed (max)   same members   clustering',
    )
    for (const r of rows) {
      const kept = `${r.made.kept_within_change ?? 0} (${(r.made.max_kept_change ?? 0).toFixed(3)})`
      console.log(
        `  ${r.name.padEnd(9)} ${String(r.chat).padStart(5)} (${pct(r.chat, cold.chat).padStart(7)}) (${String(r.estimated).padStart(4)})            ${String(r.embedding).padStart(4)} (${String(r.embeddedTexts).padStart(4)})   ${String(r.tokens).padStart(7)} (${pct(r.tokens, cold.tokens).padStart(7)})   ${r.seconds.toFixed(2)} s (${pct(r.seconds, cold.seconds)})   ${`${r.reportCalls}/${r.reports.reports} (${pct(r.reportCalls, r.reports.reports)})`.padStart(19)}   ${String(r.made.reused_renumbered ?? 0).padStart(10)}   ${kept.padStart(18)}   ${`${r.communities.communities_unchanged}/${r.reports.reports}`.padStart(12)}   ${r.clustering}`,
      )
    }
  }
}

const args = process.argv.slice(2)
const option = (name) => {
  const at = args.indexOf(name)
  return at < 0 ? undefined : args[at + 1]
}
if (!args.includes('--large-only')) for (const [label, corpus] of await corpora()) await bench(label, corpus)
await benchLargeGraph({
  fake,
  settings,
  entities: Number(option('--entities') ?? 100_000),
  rebuild: args.includes('--rebuild'),
  twice: args.includes('--twice'),
})
await fake.close()
