/**
 * A generated corpus whose graph size is set exactly, for update scaling (bench/update-large.mjs and
 * test/index/run/update-scaling.test.ts). The fake model extracts a chunk's first six capitalised
 * names and chains them with relationships; with one chunk per sentence (chunking.type: sentence),
 * each sentence here names one entity of a recent sentence (the graph stays connected, in
 * neighbourhoods, as communities need) and five new ones, so the corpus yields 1 + 5 × sentences
 * entities.
 */

const SYLLABLES = ['ka', 'lo', 'mi', 'te', 'sa', 'vo', 'el', 'du', 'ri', 'ba', 'ne', 'th', 'gr', 'pe', 'za', 'wo']

/** The i-th name: five two-letter syllables from i's base-16 digits, so names are distinct up to 16⁵. */
function nameOf(i: number): string {
  let s = ''
  for (let k = 0, n = i; k < 5; k++, n = Math.floor(n / 16)) s += SYLLABLES[n % 16]
  return s[0]!.toUpperCase() + s.slice(1)
}

/** A seeded linear congruential generator: the same corpus every time, not good randomness. */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const sentence = (names: readonly string[]) =>
  `${names[0]} met ${names[1]} near ${names[2]}, then ${names[3]} and ${names[4]} saw ${names[5]} at the market.`

export interface NameGraphCorpus {
  /** The documents' texts, in order. */
  documents: string[]
  /** Names used: the next new name is nameOf(names). */
  names: number
}

/** At least `entities` entities in `documentCount` documents of about equal length. */
export function nameGraphCorpus(entities: number, documentCount: number): NameGraphCorpus {
  const random = lcg(11)
  const count = Math.ceil((entities - 1) / 5)
  const sentences: string[] = []
  let next = 1
  for (let k = 0; k < count; k++) {
    // A name of one of the last 40 sentences.
    const earlier = k === 0 ? 0 : 1 + 5 * Math.max(0, k - 1 - Math.floor(random() * 40)) + Math.floor(random() * 5)
    sentences.push(sentence([earlier, next, next + 1, next + 2, next + 3, next + 4].map(nameOf)))
    next += 5
  }
  const perDoc = Math.ceil(sentences.length / documentCount)
  const documents = Array.from({ length: documentCount }, (_, d) =>
    sentences.slice(d * perDoc, (d + 1) * perDoc).join(' '),
  ).filter((text) => text !== '')
  return { documents, names: next }
}

/**
 * A document to add: `count` sentences, each naming one existing entity (spread evenly over the
 * corpus) and five new ones. Returns the text and the titles (upper case, as extracted) it names.
 */
export function addedNameDocument(corpus: NameGraphCorpus, count: number): { text: string; titles: string[] } {
  const sentences: string[] = []
  const titles: string[] = []
  for (let k = 0; k < count; k++) {
    const existing = Math.floor(((k + 0.5) * (corpus.names - 1)) / count)
    const names = [existing, ...[0, 1, 2, 3, 4].map((j) => corpus.names + 5 * k + j)].map(nameOf)
    sentences.push(sentence(names))
    titles.push(...names.map((n) => n.toUpperCase()))
  }
  return { text: sentences.join(' '), titles }
}
