// Noun-phrase extraction throughput (the fast method's extract_graph_nlp step) in words/s, on
// ../shared/corpora/a-christmas-carol.txt when present, else the demo corpus (fixtures/demo/input).
// Run after `npx tsc -p tsconfig.build.json`: node bench/nlp.mjs [repeats]
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { createNounPhraseExtractor, NOUN_PHRASE_PATTERN } from '../dist/index/operations/noun-phrases/extractor.js'
import { DEFAULT_EXCLUDE_NOUNS } from '../dist/config/sections/workflows.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const REPEATS = Number(process.argv[2] ?? 7)
const WARMUP = 3
const CHUNK_CHARS = 5000

function corpus() {
  const shared = resolve(
    process.env.GRAPHRAG_SHARED_DIR ?? join(root, '..', 'shared'),
    'corpora',
    'a-christmas-carol.txt',
  )
  if (existsSync(shared)) return { name: 'a-christmas-carol.txt', text: readFileSync(shared, 'utf8') }
  const dir = join(root, 'fixtures', 'demo', 'input')
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
  return {
    name: `fixtures/demo/input (${files.length} files)`,
    text: files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n\n'),
  }
}

/** ~5 KB chunks cut at whitespace, like text units of ~1200 tokens. */
function chunks(text) {
  const out = []
  let start = 0
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS)
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end)
      if (space > start) end = space
    }
    out.push(text.slice(start, end))
    start = end
  }
  return out
}

const { name, text } = corpus()
const parts = chunks(text)
const words = text.split(/\s+/).filter(Boolean).length
const extractor = createNounPhraseExtractor({
  exclude_nouns: [...DEFAULT_EXCLUDE_NOUNS],
  max_word_length: 15,
  word_delimiter: ' ',
  include_named_entities: true,
})

const loadStart = performance.now()
extractor.extract('Warm-up: Ebenezer Scrooge met Bob Cratchit.')
const loadMs = performance.now() - loadStart

// Bare wink (parse + pattern matches, no filtering) as a yardstick: on a busy machine both slow
// down together, so the ratio shows our own overhead.
const bare = winkNLP(model, ['sbd', 'pos', 'cer'])
bare.learnCustomEntities([{ name: 'np', patterns: [NOUN_PHRASE_PATTERN] }])
const bareRun = () => {
  for (const part of parts) bare.readDoc(part).customEntities().out(bare.its.span)
}

// JIT warm-up over the whole corpus: the first passes run several times slower.
for (let w = 0; w < WARMUP; w++) {
  for (const part of parts) extractor.extract(part)
  bareRun()
}

let phrases = 0
const times = []
const bareTimes = []
for (let r = 0; r < REPEATS; r++) {
  const t0 = performance.now()
  phrases = 0
  for (const part of parts) phrases += extractor.extract(part).length
  times.push((performance.now() - t0) / 1000)
  const t1 = performance.now()
  bareRun()
  bareTimes.push((performance.now() - t1) / 1000)
}
times.sort((a, b) => a - b)
bareTimes.sort((a, b) => a - b)
const median = times[Math.floor(times.length / 2)]
const bareMedian = bareTimes[Math.floor(bareTimes.length / 2)]
const rate = (seconds) => `${Math.round(words / seconds).toLocaleString('en-US')} words/s`
console.log(
  `noun phrases: ${name}, ${words.toLocaleString('en-US')} words in ${parts.length} chunks of ~${CHUNK_CHARS} chars`,
)
console.log(`  model load + first call: ${loadMs.toFixed(0)} ms`)
console.log(
  `  extractor: median of ${REPEATS} runs after ${WARMUP} warm-up passes ${median.toFixed(3)} s → ${rate(median)} (best ${rate(times[0])})`,
)
console.log(
  `  bare wink parse + matches, same runs: ${rate(bareMedian)} (best ${rate(bareTimes[0])}); extractor/bare = ${(bareMedian / median).toFixed(2)}`,
)
console.log(
  `  ${phrases.toLocaleString('en-US')} kept phrases (unique per chunk); RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
)
