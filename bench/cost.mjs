// Lazy search cost benchmark (issue 39), against the fake OpenAI server (instant answers): model calls
// and tokens of (a) a standard index + global search and (b) the offline index (fast method, local
// hashing embedder, no model) + lazy search at relevance budgets 100, 500 and 1,500, per question type
// (local, global), with wall times and estimated USD (list prices; global search and lazy search's answer
// on gpt-4.1-mini, lazy search's relevance tests on gpt-4.1-nano); and the index cost of the fast method with model-written reports.
// Corpora: A Christmas Carol (../shared/corpora, one document) and, with --big (or --big-tokens N), a
// generated corpus of about N tokens (default 1,000,000): the book repeated, each copy's capitalised
// names suffixed with its number except the tenth of them every copy shares (see bigCorpus).
// Ends with lazy search's share of global search's tokens per budget and question type.
// Run: npm run bench:cost [-- --big [--big-tokens N] [--skip-carol] [--skip-fast-reports]
//   [--work-dir DIR (keep the indexes there and reuse them)] [--skip-queries (build the indexes only)]
//   [--lazy-over standard (lazy search over the standard index; no offline index built)]]
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runIndex } from '../dist/index/run/runner.js'
import { runQuery } from '../dist/query/index.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
// The compiled fake server finds ../shared from dist-test/, one level too deep: say where it is.
process.env.GRAPHRAG_SHARED_DIR ??= join(root, '..', 'shared')
if (!existsSync(fakePath)) execSync('npx tsc -p tsconfig.support.json', { cwd: root, stdio: 'inherit' })
const { startFakeLlm, fakeModelSettingsYaml } = await import(fakePath)

const args = process.argv.slice(2)
const flag = (name) => args.includes(name)
const value = (name, def) => {
  const at = args.indexOf(name)
  return at >= 0 ? Number(args[at + 1]) : def
}
const BUDGETS = [100, 500, 1500]
/** Share of the book's capitalised names that the generated corpus's copies keep unsuffixed (shared). */
const SHARED_NAMES = 0.1
// --work-dir DIR keeps the indexed projects in DIR and reuses them on a later run with the same corpus
// (a 5 M-token standard index takes long to build; the queries can be rerun after a change to search).
const WORK_DIR = (() => {
  const at = args.indexOf('--work-dir')
  return at >= 0 ? args[at + 1] : undefined
})()
const QUESTIONS = {
  local: ['What did Scrooge see in the door knocker?', 'Who is Tiny Tim and what happens to him?'],
  global: ['What are the main themes of the story?', 'How does Scrooge change over the course of the story?'],
}

// The standard index of the book replays the real model answers behind ../shared's reference index
// (its entities and reports), so global search reads reports of real size, not the fake's one-liners.
// The generated corpus gets no replay (it would answer every copy with the book's own entities and
// merge the copies into one graph) but replies of the sizes the reference measured
// (test/support/fake-llm/realistic.ts: entities and relationships per chunk, report lengths).
const fakes = []
async function startFake(replay) {
  const fake = await startFakeLlm({
    embeddingDimension: 8,
    replay: replay ? 'christmas-carol' : false,
    realistic: true,
  })
  fakes.push(fake)
  return fake
}

/** Settings of the standard index and of the offline index (with a chat model for queries) on `fake`. */
function settingsFor(fake) {
  const chat = fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })
  // Lazy search's relevance tests go to a cheaper model (gpt-4.1-nano) than the answer (gpt-4.1-mini, as global search).
  const relevanceModel = fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0, chatModel: 'gpt-4.1-nano' })
    .split('embedding_models:')[0]
    .replace('completion_models:\n  default_completion_model:', '  relevance_model:')
    .trimEnd()
  // The offline index's settings (as `graphrag init --offline` writes them) with a chat model added for queries.
  const offline = [
    'method: fast',
    chat.split('embedding_models:')[0].trimEnd(),
    relevanceModel,
    'lazy_search:\n  relevance_model_id: relevance_model',
    'embedding_models:\n  default_embedding_model:\n    model_provider: local\n    model: hashing-384\n    dimensions: 384',
    'community_reports:\n  completion_model_id: null',
    'vector_store:\n  vector_size: 384',
    '',
  ].join('\n')
  // The standard index's settings carry the relevance model too, for --lazy-over standard.
  const [models, embeddings] = chat.split('embedding_models:')
  const standard = [
    models.trimEnd(),
    relevanceModel,
    `embedding_models:${embeddings}`.trimEnd(),
    'lazy_search:\n  relevance_model_id: relevance_model',
    'vector_store:\n  vector_size: 8',
    '',
  ].join('\n')
  return { standard, offline }
}

/** The text cut at paragraph breaks into `parts` documents of about equal length, written to `dir`. */
async function writeParts(text, parts, dir, prefix = 'part') {
  await mkdir(dir, { recursive: true })
  const paragraphs = text.split(/\n\s*\n/)
  const target = text.length / parts
  let part = []
  let length = 0
  let index = 0
  for (const [i, paragraph] of paragraphs.entries()) {
    part.push(paragraph)
    length += paragraph.length
    if ((length >= target && index < parts - 1) || i === paragraphs.length - 1) {
      await writeFile(join(dir, `${prefix}-${String(++index).padStart(3, '0')}.txt`), `${part.join('\n\n')}\n`)
      part = []
      length = 0
    }
  }
}

/** A stable number in [0, 1) of a string (FNV-1a), to pick the names the copies share. */
function hashUnit(text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h / 2 ** 32
}

/**
 * A corpus of about `tokens` tokens: copies of the book, each copy's names suffixed with its number,
 * except one name in ten (picked by a hash of the name), which every copy shares. Without shared
 * names the copies were disconnected graphs, and the standard index clusters only the largest
 * connected component (cluster_graph.use_lcc, as Microsoft's): one copy's communities, so global
 * search read one book's reports whatever the corpus size. A news corpus shares its people and
 * places across articles; the shared names make the copies one graph, as there.
 */
async function bigCorpus(book, tokens, dir) {
  const bookTokens = book.length / 4
  const copies = Math.max(1, Math.round(tokens / bookTokens))
  for (let c = 0; c < copies; c++) {
    const varied = book.replace(/\b([A-Z][a-z]{3,})\b/g, (name) =>
      c === 0 || hashUnit(name) < SHARED_NAMES ? name : `${name}${c}`,
    )
    await writeParts(varied, 20, dir, `copy${String(c).padStart(3, '0')}`)
  }
  return copies
}

/** A project folder with `settings` (rewritten every run: the fake's port changes) and the corpus as input. */
async function project(settings, corpusDir, name) {
  const dir = WORK_DIR === undefined ? await mkdtemp(join(tmpdir(), 'graphrag-bench-cost-')) : join(WORK_DIR, name)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'settings.yaml'), settings)
  if (!existsSync(join(dir, 'input')))
    execSync(`cp -r ${JSON.stringify(corpusDir)} ${JSON.stringify(join(dir, 'input'))}`)
  return dir
}

/** Model calls and tokens of an index run, and its wall time; read back when --work-dir holds the index already. */
async function indexCost(dir, fake) {
  const saved = join(dir, 'bench-index-cost.json')
  if (WORK_DIR !== undefined && existsSync(saved)) return { ...JSON.parse(await readFile(saved, 'utf8')), reused: true }
  const cost = await buildIndex(dir, fake)
  await writeFile(saved, JSON.stringify(cost))
  return cost
}

async function buildIndex(dir, fake) {
  const from = fake.requests.length
  const started = performance.now()
  const result = await runIndex({ root: dir, skipValidation: true })
  const seconds = (performance.now() - started) / 1000
  const t = JSON.parse(await readFile(join(result.outputDir, 'stats.json'), 'utf8')).llm_totals
  const chatCalls = fake.requests.slice(from).filter((r) => r.kind !== 'embedding' && r.kind !== 'models').length
  return { calls: chatCalls, tokens: t.promptTokens + t.completionTokens, seconds }
}

/** Chat calls and tokens of one query per question of `type`, summed, and the wall time. */
async function queryCost(dir, method, type, budget) {
  let calls = 0
  let tokens = 0
  let tests = 0
  let cost = 0
  const steps = {}
  const started = performance.now()
  for (const query of QUESTIONS[type]) {
    const r = await runQuery({ method, root: dir, query, ...(budget === undefined ? {} : { budget }) })
    calls += r.usage.calls
    tokens += r.usage.promptTokens + r.usage.completionTokens
    tests += r.lazy?.tests ?? 0
    cost += r.usage.costUsd ?? Number.NaN
    for (const [step, u] of Object.entries(r.usage.byStep))
      steps[step] = (steps[step] ?? 0) + u.promptTokens + u.completionTokens
  }
  return { calls, tokens, tests, cost, steps, seconds: (performance.now() - started) / 1000 }
}

const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 1 })

/** The three indexes of one corpus and their model cost (the fast index with model reports unless --skip-fast-reports). */
async function indexes(slug, corpusDir, fake) {
  const settings = settingsFor(fake)
  const standard = await project(settings.standard, corpusDir, `${slug}-standard`)
  const idx = [['standard index', await indexCost(standard, fake)]]
  // --lazy-over standard: lazy search over the standard index (no offline index is built): its
  // query cost on the same index global search reads, where building the offline index takes too long.
  const lazyOverStandard = args.includes('--lazy-over') && args[args.indexOf('--lazy-over') + 1] === 'standard'
  const offline = lazyOverStandard ? standard : await project(settings.offline, corpusDir, `${slug}-offline`)
  if (!lazyOverStandard) idx.push(['offline index (fast, no model)', await indexCost(offline, fake)])
  if (!flag('--skip-fast-reports') && !lazyOverStandard) {
    // The fast method with model-written community reports (the settings without the null report model).
    const withReports = settings.offline.replace('community_reports:\n  completion_model_id: null\n', '')
    idx.push([
      'fast index, model-written reports',
      await indexCost(await project(withReports, corpusDir, `${slug}-fast-reports`), fake),
    ])
  }
  console.log(
    "| index | model calls | model tokens | % of the standard index's tokens | wall s |\n|---|---:|---:|---:|---:|",
  )
  const base = idx[0][1].tokens
  for (const [name, c] of idx)
    console.log(
      `| ${name}${c.reused ? ' (reused)' : ''} | ${fmt(c.calls)} | ${fmt(c.tokens)} | ${((100 * c.tokens) / base).toFixed(1)} | ${fmt(c.seconds)} |`,
    )
  return { standard, offline, lazyIndex: lazyOverStandard ? 'standard index' : 'offline index' }
}

async function bench(label, slug, corpusDir, fake) {
  console.log(`\n## ${label}\n`)
  const { standard, offline, lazyIndex } = await indexes(slug, corpusDir, fake)
  if (flag('--skip-queries')) return
  const perQuestion = QUESTIONS.local.length
  console.log(
    `\n| query (${perQuestion} questions per type) | type | calls | tokens | units tested | % of global's tokens | est. USD | % of global's USD | wall s |`,
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|')
  const breakdown = []
  const ratios = []
  for (const type of ['local', 'global']) {
    const global = await queryCost(standard, 'global', type)
    console.log(
      `| global search, standard index | ${type} | ${fmt(global.calls)} | ${fmt(global.tokens)} | — | 100 | ${global.cost.toFixed(4)} | 100 | ${fmt(global.seconds)} |`,
    )
    for (const budget of BUDGETS) {
      const lazy = await queryCost(offline, 'lazy', type, budget)
      const share = (100 * lazy.tokens) / global.tokens
      console.log(
        `| lazy search, ${lazyIndex}, budget ${budget} | ${type} | ${fmt(lazy.calls)} | ${fmt(lazy.tokens)} | ${fmt(lazy.tests)} | ${share.toFixed(1)} | ${lazy.cost.toFixed(4)} | ${((100 * lazy.cost) / global.cost).toFixed(1)} | ${fmt(lazy.seconds)} |`,
      )
      const parts = Object.entries(lazy.steps).map(([step, n]) => `${step} ${fmt(n)}`)
      breakdown.push(`- lazy, ${type}, budget ${budget}: ${parts.join(', ')}`)
      ratios.push({ type, budget, lazy: lazy.tokens / perQuestion, global: global.tokens / perQuestion, share })
    }
  }
  console.log(`\nLazy search tokens by step:\n${breakdown.join('\n')}`)
  console.log('\n| budget | type | lazy tokens per question | global tokens per question | lazy / global | ≤ 5 %? |')
  console.log('|---:|---|---:|---:|---:|---|')
  for (const budget of BUDGETS)
    for (const r of ratios.filter((x) => x.budget === budget))
      console.log(
        `| ${budget} | ${r.type} | ${fmt(r.lazy)} | ${fmt(r.global)} | ${r.share.toFixed(1)} % | ${r.share <= 5 ? 'yes' : 'no'} |`,
      )
}

const carol = join(root, '..', 'shared', 'corpora', 'a-christmas-carol.txt')
if (!existsSync(carol)) {
  console.log('../shared/corpora/a-christmas-carol.txt is absent: nothing to measure')
} else {
  const book = await readFile(carol, 'utf8')
  if (!flag('--skip-carol')) {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-cost-carol-'))
    // One document, chunked as the reference index was, so every replayed answer matches its text unit.
    await writeParts(book, 1, dir)
    await bench('A Christmas Carol', 'carol', dir, await startFake(true))
  }
  if (flag('--big') || flag('--big-tokens')) {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-cost-big-'))
    const tokens = value('--big-tokens', 1_000_000)
    const copies = await bigCorpus(book, tokens, dir)
    await bench(
      `Generated corpus: ${copies} varied copies of the book, ${100 * SHARED_NAMES} % of its names shared (about ${fmt((copies * book.length) / 4)} tokens)`,
      `big-${tokens}`,
      dir,
      await startFake(false),
    )
  }
}
for (const fake of fakes) await fake.close()
