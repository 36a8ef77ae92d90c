/**
 * Per-text-unit noun phrases through the `extract_noun_phrases` cache: key = SHA-512 of the text
 * plus the extractor key (as the reference), value = the JSON list of phrases.
 */
import { createHash } from 'node:crypto'
import type { KeyValueStore } from '../../../storage/key-value-store.js'
import type { NounPhraseExtractor } from '../../../text/noun-phrases/extractor.js'

export interface TextUnitPhrases {
  readonly id: string
  readonly phrases: string[]
}

function nounPhraseCacheKey(text: string, extractorKey: string): string {
  return createHash('sha512')
    .update(text + extractorKey, 'utf8')
    .digest('hex')
}

function parseCached(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) && parsed.every((p) => typeof p === 'string') ? parsed : undefined
  } catch {
    return undefined
  }
}

/** Phrases per text unit, in input order; `onUnit` is called after each unit (progress). */
export async function extractNounPhrases(
  units: ReadonlyArray<{ id: string; text: string }>,
  extractor: NounPhraseExtractor,
  cache: KeyValueStore,
  onUnit: (cached: boolean) => void = () => {},
): Promise<TextUnitPhrases[]> {
  const out: TextUnitPhrases[] = []
  for (const unit of units) {
    const key = nounPhraseCacheKey(unit.text, extractor.key)
    let phrases = parseCached(await cache.get(key))
    const hit = phrases !== undefined
    if (phrases === undefined) {
      phrases = extractor.extract(unit.text)
      await cache.set(key, JSON.stringify(phrases))
    }
    out.push({ id: unit.id, phrases })
    onUnit(hit)
  }
  return out
}
