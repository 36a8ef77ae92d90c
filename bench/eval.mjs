// Eval benchmark: indexes the question packs' corpora offline (fast method, local hashing embedder,
// no chat model: fixtures/demo/settings.yaml) in temp folders and reports the retrieval metrics of
// every search method by question type (evidence recall@k, MRR, answer-token recall, latency).
// The packs are fixtures/eval/*.json; A Christmas Carol is read from ../shared/corpora and skipped
// with a notice when absent. Run: npm run bench:eval  [pack names, e.g. demo]
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadConfig, runIndex } from '../dist/api.js'
import { readQuestions } from '../dist/eval/questions.js'
import { runEval } from '../dist/eval/run.js'
import { allTables, renderMarkdown } from '../dist/eval/tables.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const PACKS = [
  { name: 'demo', questions: 'demo-questions.json', input: join(root, 'fixtures', 'demo', 'input') },
  {
    name: 'christmas-carol',
    questions: 'christmas-carol-questions.json',
    input: join(root, '..', 'shared', 'corpora', 'a-christmas-carol.txt'),
  },
]
const wanted = process.argv[2]?.split(',')

for (const pack of PACKS.filter((p) => wanted === undefined || wanted.includes(p.name))) {
  if (!existsSync(pack.input)) {
    console.log(`## ${pack.name}\n\nskipped: ${pack.input} is absent\n`)
    continue
  }
  const project = mkdtempSync(join(tmpdir(), `graphrag-bench-eval-${pack.name}-`))
  try {
    mkdirSync(join(project, 'input'))
    if (pack.input.endsWith('.txt')) copyFileSync(pack.input, join(project, 'input', 'a-christmas-carol.txt'))
    else cpSync(pack.input, join(project, 'input'), { recursive: true })
    writeFileSync(join(project, 'settings.yaml'), readFileSync(join(root, 'fixtures', 'demo', 'settings.yaml'), 'utf8'))
    const started = performance.now()
    await runIndex({ root: project })
    const indexSeconds = (performance.now() - started) / 1000
    const questions = readQuestions(join(root, 'fixtures', 'eval', pack.questions))
    const { settings } = loadConfig({ root: project })
    const result = await runEval({
      targets: [{ label: pack.name, settings }],
      methods: (await import('../dist/query/methods.js')).SEARCH_METHODS,
      questions,
      pairwise: false,
      concurrency: 1,
    })
    console.log(`## ${pack.name}: ${questions.length} questions, indexed offline in ${indexSeconds.toFixed(1)} s\n`)
    for (const table of allTables(result)) console.log(`${renderMarkdown(table)}\n`)
  } finally {
    rmSync(project, { recursive: true, force: true })
  }
}
