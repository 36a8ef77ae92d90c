/**
 * `model_provider: local`: an offline, deterministic hashing embedder. It is LEXICAL, not semantic:
 * texts sharing words and word fragments end up close, but synonyms and paraphrases do not.
 * Features: lower-cased words plus character 3- and 4-grams of each word, TF-weighted (1 + ln tf),
 * hashed with signs into `dimension` buckets (default 384) and L2-normalised.
 */
import type { EmbedCall, EmbedReply, EmbedTransport } from './transport.js'

export const LOCAL_EMBEDDING_DIMENSION = 384

const WORD_WEIGHT = 1
const NGRAM_WEIGHT = 0.5

export function localEmbedder(dimension: number = LOCAL_EMBEDDING_DIMENSION): EmbedTransport {
  return {
    async embed(call: EmbedCall): Promise<EmbedReply> {
      return { vectors: call.input.map((text) => hashEmbedding(text, dimension)) }
    },
  }
}

function hashEmbedding(text: string, dimension: number): number[] {
  const counts = new Map<string, number>()
  const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1)
  for (const match of text
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0]
    add(`w:${word}`)
    const padded = `<${word}>`
    for (const n of [3, 4]) for (let i = 0; i + n <= padded.length; i++) add(`c:${padded.slice(i, i + n)}`)
  }
  // A text without letters or digits still gets a stable, non-zero vector.
  if (counts.size === 0 && text !== '') add(`raw:${text}`)
  const vector = new Array<number>(dimension).fill(0)
  for (const [feature, tf] of counts) {
    const h = fnv1a(feature)
    const weight = (feature.startsWith('c:') ? NGRAM_WEIGHT : WORD_WEIGHT) * (1 + Math.log(tf))
    // A second hash picks the sign, so colliding features tend to cancel instead of piling up.
    vector[h % dimension]! += (mix(h) & 1) === 0 ? weight : -weight
  }
  const norm = Math.sqrt(vector.reduce((s, x) => s + x * x, 0))
  return norm === 0 ? vector : vector.map((x) => x / norm)
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

function mix(h: number): number {
  let x = h ^ (h >>> 16)
  x = Math.imul(x, 0x7feb352d)
  x ^= x >>> 15
  return x >>> 0
}
