// Retrieval benchmark: recall@k of the search methods on questions written for the demo corpus,
// each with a known supporting passage (bench/retrieval-questions.json). The demo story is indexed
// offline (fast method, local hashing embedder) with 300-token chunks, so each question has one or
// two supporting units among ~45; a method's recall@k is the share of questions with a supporting
// passage among the first k of its context (text units in the method's order, then the reports it
// used). The ranking, matching and metrics are graphrag eval's (src/eval, docs/eval.md).
// Run: npm run bench:retrieval  [k list, e.g. 1,3,5,10]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { runIndex, runQuery } from '../dist/api.js'
import { loadCorpus } from '../dist/eval/corpus.js'
import { evidenceRecallAtK, reciprocalRank, supports } from '../dist/eval/metrics/retrieval.js'
import { retrievedPassages } from '../dist/eval/passages.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const KS = (process.argv[2] ?? '1,3,5,10').split(',').map(Number)
const { questions } = JSON.parse(readFileSync(join(root, 'bench', 'retrieval-questions.json'), 'utf8'))
/** Add a method here and it joins the table. */
const METHODS = ['basic', 'local', 'graph', 'hybrid']

const project = mkdtempSync(join(tmpdir(), 'graphrag-bench-retrieval-'))
try {
  cpSync(join(root, 'fixtures', 'demo', 'input'), join(project, 'input'), { recursive: true })
  const settings = readFileSync(join(root, 'fixtures', 'demo', 'settings.yaml'), 'utf8')
    .replace('size: 1200', 'size: 300')
    .replace('overlap: 100', 'overlap: 30')
  writeFileSync(join(project, 'settings.yaml'), settings)
  const started = performance.now()
  await runIndex({ root: project })
  const corpus = await loadCorpus(join(project, 'output'))
  console.log(
    `indexed the demo corpus: ${corpus.units.length} text units in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const supportable = questions.filter((q) =>
    corpus.units.some((u) => supports({ text: u.text, documents: [] }, q.support)),
  )
  console.log(
    `${questions.length} questions, ${supportable.length} with their support phrase inside one text unit (the others cannot be recalled)\n`,
  )

  const results = {}
  for (const method of METHODS) {
    const passages = []
    const timer = performance.now()
    for (const q of questions) {
      const result = await runQuery({ method, query: q.question, root: project })
      passages.push(retrievedPassages(result, corpus))
    }
    results[method] = { passages, ms: (performance.now() - timer) / questions.length }
  }

  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length
  const header = ['method', ...KS.map((k) => `recall@${k}`), 'MRR', 'ms/question']
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`)
  for (const [method, r] of Object.entries(results)) {
    const recall = KS.map((k) =>
      mean(r.passages.map((p, i) => evidenceRecallAtK(p, [questions[i].support], k))).toFixed(2),
    )
    const mrr = mean(r.passages.map((p, i) => reciprocalRank(p, [questions[i].support]))).toFixed(3)
    console.log(`| ${[method, ...recall, mrr, r.ms.toFixed(0)].join(' | ')} |`)
  }
  console.log('\nfirst supporting rank per question (∞ = not retrieved):')
  const firstRank = (passages, support) => {
    const rr = reciprocalRank(passages, [support])
    return rr === 0 ? '∞' : String(Math.round(1 / rr))
  }
  questions.forEach((q, i) =>
    console.log(
      `  ${METHODS.map((m) => `${m} ${firstRank(results[m].passages[i], q.support)}`).join(', ')}  ${q.question}`,
    ),
  )
} finally {
  rmSync(project, { recursive: true, force: true })
}
