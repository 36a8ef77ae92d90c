// Lazy search cost benchmark (issue 39), against the fake OpenAI server (instant answers): model calls
// and tokens of (a) a standard index + global search and (b) the offline index (fast method, local
// hashing embedder, no model) + lazy search at relevance budgets 100, 500 and 1,500, per question type
// (local, global), with wall times and estimated USD (list prices; global search and lazy search's answer
// on gpt-4.1-mini, lazy search's relevance tests on gpt-4.1-nano); and the index cost of the fast method with model-written reports.
// Corpora: A Christmas Carol (../shared/corpora, one document) and,
// with --big, a generated corpus of about --big-tokens tokens (default 1,000,000): the book repeated,
// each copy's capitalised names suffixed so the copies do not merge into one graph.
// Run: npm run bench:cost [-- --big [--big-tokens N] [--skip-carol]]
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
  return { standard: `${chat}vector_store:\n  vector_size: 8\n`, offline }
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

/** A corpus of about `tokens` tokens: copies of the book, each copy's names suffixed with its number. */
async function bigCorpus(book, tokens, dir) {
  const bookTokens = book.length / 4
  const copies = Math.max(1, Math.round(tokens / bookTokens))
  for (let c = 0; c < copies; c++) {
    const varied = book.replace(/\b([A-Z][a-z]{3,})\b/g, (name) => `${name}${c === 0 ? '' : c}`)
    await writeParts(varied, 20, dir, `copy${String(c).padStart(2, '0')}`)
  }
  return copies
}

async function project(settings, corpusDir) {
  const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-cost-'))
  await writeFile(join(dir, 'settings.yaml'), settings)
  await execSync(`cp -r ${JSON.stringify(corpusDir)} ${JSON.stringify(join(dir, 'input'))}`)
  return dir
}

/** Model calls and tokens of an index run (stats.json), and its wall time. */
async function indexCost(dir, fake) {
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

async function bench(label, corpusDir, fake) {
  console.log(`\n## ${label}\n`)
  const settings = settingsFor(fake)
  const standard = await project(settings.standard, corpusDir)
  const offline = await project(settings.offline, corpusDir)
  // The fast method with model-written community reports (the settings without the null report model).
  const fastReports = await project(
    settings.offline.replace('community_reports:\n  completion_model_id: null\n', ''),
    corpusDir,
  )
  const idx = [
    ['standard index', await indexCost(standard, fake)],
    ['offline index (fast, no model)', await indexCost(offline, fake)],
    ['fast index, model-written reports', await indexCost(fastReports, fake)],
  ]
  console.log(
    "| index | model calls | model tokens | % of the standard index's tokens | wall s |\n|---|---:|---:|---:|---:|",
  )
  const base = idx[0][1].tokens
  for (const [name, c] of idx)
    console.log(
      `| ${name} | ${fmt(c.calls)} | ${fmt(c.tokens)} | ${((100 * c.tokens) / base).toFixed(1)} | ${fmt(c.seconds)} |`,
    )
  console.log(
    `\n| query (${QUESTIONS.local.length} questions per type) | type | calls | tokens | units tested | % of global's tokens | est. USD | % of global's USD | wall s |`,
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|')
  const breakdown = []
  for (const type of ['local', 'global']) {
    const global = await queryCost(standard, 'global', type)
    console.log(
      `| global search, standard index | ${type} | ${fmt(global.calls)} | ${fmt(global.tokens)} | — | 100 | ${global.cost.toFixed(4)} | 100 | ${fmt(global.seconds)} |`,
    )
    for (const budget of BUDGETS) {
      const lazy = await queryCost(offline, 'lazy', type, budget)
      const share = (100 * lazy.tokens) / global.tokens
      console.log(
        `| lazy search, offline index, budget ${budget} | ${type} | ${fmt(lazy.calls)} | ${fmt(lazy.tokens)} | ${fmt(lazy.tests)} | ${share.toFixed(1)} | ${lazy.cost.toFixed(4)} | ${((100 * lazy.cost) / global.cost).toFixed(1)} | ${fmt(lazy.seconds)} |`,
      )
      const parts = Object.entries(lazy.steps).map(([step, n]) => `${step} ${fmt(n)}`)
      breakdown.push(`- lazy, ${type}, budget ${budget}: ${parts.join(', ')}`)
    }
  }
  console.log(`\nLazy search tokens by step:\n${breakdown.join('\n')}`)
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
    await bench('A Christmas Carol', dir, await startFake(true))
  }
  if (flag('--big')) {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-bench-cost-big-'))
    const copies = await bigCorpus(book, value('--big-tokens', 1_000_000), dir)
    await bench(
      `Generated corpus: ${copies} varied copies of the book (about ${fmt((copies * book.length) / 4)} tokens)`,
      dir,
      await startFake(false),
    )
  }
}
for (const fake of fakes) await fake.close()
