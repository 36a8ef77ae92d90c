// Retrieval benchmark: recall@k of the search methods on questions written for the demo corpus,
// each with a known supporting passage (bench/retrieval-questions.json). The demo story is indexed
// offline (fast method, local hashing embedder) with 300-token chunks, so each question has one or
// two supporting units among ~45; a method's recall@k is the share of questions with a supporting
// unit among the first k text units of its context. Run: npm run bench:retrieval  [k list, e.g. 1,3,5,10]
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ParquetTableStore, runIndex, runQuery, TEXT_UNITS } from '../dist/index.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const KS = (process.argv[2] ?? '1,3,5,10').split(',').map(Number)
const { questions } = JSON.parse(readFileSync(join(root, 'bench', 'retrieval-questions.json'), 'utf8'))

/**
 * Each method's retrieved text units, best first. Add a method here (e.g. graph) and it joins the table.
 * basic and local list their passages in context.sources ({id: human_readable_id, text}); hybrid names
 * its text units in hybrid.sources.
 */
const METHODS = {
  basic: (result) => (result.context.sources ?? []).map((s) => String(s.text)),
  local: (result) => (result.context.sources ?? []).map((s) => String(s.text)),
  graph: (result) => (result.context.sources ?? []).map((s) => String(s.text)),
  hybrid: (result, units) => result.hybrid.sources.filter((s) => s.kind === 'text_unit').map((s) => units.get(s.id)),
}

const project = mkdtempSync(join(tmpdir(), 'graphrag-bench-retrieval-'))
try {
  cpSync(join(root, 'fixtures', 'demo', 'input'), join(project, 'input'), { recursive: true })
  const settings = readFileSync(join(root, 'fixtures', 'demo', 'settings.yaml'), 'utf8')
    .replace('size: 1200', 'size: 300')
    .replace('overlap: 100', 'overlap: 30')
  writeFileSync(join(project, 'settings.yaml'), settings)
  const started = performance.now()
  await runIndex({ root: project })
  const rows = await new ParquetTableStore(join(project, 'output')).read(TEXT_UNITS)
  const units = new Map(rows.map((u) => [u.id, u.text]))
  console.log(
    `indexed the demo corpus: ${rows.length} text units in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  const supportable = questions.filter((q) => rows.some((u) => u.text.includes(q.support)))
  console.log(
    `${questions.length} questions, ${supportable.length} with their support phrase inside one text unit (the others cannot be recalled)\n`,
  )

  const results = {}
  for (const [method, retrieved] of Object.entries(METHODS)) {
    const firstHit = []
    const timer = performance.now()
    for (const q of questions) {
      const result = await runQuery({ method, query: q.question, root: project })
      const texts = retrieved(result, units)
      const at = texts.findIndex((t) => t?.includes(q.support))
      firstHit.push(at < 0 ? Infinity : at + 1)
    }
    results[method] = { firstHit, ms: (performance.now() - timer) / questions.length }
  }

  const header = ['method', ...KS.map((k) => `recall@${k}`), 'MRR', 'ms/question']
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`)
  for (const [method, r] of Object.entries(results)) {
    const recall = KS.map((k) => (r.firstHit.filter((h) => h <= k).length / questions.length).toFixed(2))
    const mrr = (r.firstHit.reduce((s, h) => s + (Number.isFinite(h) ? 1 / h : 0), 0) / questions.length).toFixed(3)
    console.log(`| ${[method, ...recall, mrr, r.ms.toFixed(0)].join(' | ')} |`)
  }
  console.log('\nfirst supporting rank per question (∞ = not retrieved):')
  questions.forEach((q, i) =>
    console.log(
      `  ${Object.keys(results)
        .map((m) => `${m} ${results[m].firstHit[i]}`)
        .join(', ')}  ${q.question}`,
    ),
  )
} finally {
  rmSync(project, { recursive: true, force: true })
}
