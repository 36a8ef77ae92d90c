/**
 * Question entities → graph entities: exact match of normalised names and aliases, and word
 * n-grams of the question that are an entity's normalised name (so a name the extractor missed
 * still counts). What matches no name is left for the caller's nearest-vector fallback.
 */
import type { EntityRow } from '../../model/index.js'
import { EDGE_STOPWORDS, normalizeName } from '../../text/normalize-name.js'

export interface EntityAlias {
  title: string
  alias: string
}

export type NameIndex = ReadonlyMap<string, readonly EntityRow[]>

/** Normalised title and alias → entities (several when titles differ only in spelling). */
export function buildNameIndex(entities: readonly EntityRow[], aliases: readonly EntityAlias[] = []): NameIndex {
  const byTitle = new Map(entities.map((e) => [e.title, e]))
  const index = new Map<string, EntityRow[]>()
  const add = (name: string, entity: EntityRow) => {
    const key = normalizeName(name)
    if (key === '') return
    const list = index.get(key)
    if (list === undefined) index.set(key, [entity])
    else if (!list.includes(entity)) list.push(entity)
  }
  for (const e of entities) add(e.title, e)
  for (const a of aliases) {
    const entity = byTitle.get(a.title)
    if (entity !== undefined) add(a.alias, entity)
  }
  return index
}

const MAX_NGRAM = 6

/**
 * Entities whose key holds a name of two or more words as a whole-word run ("ferry cooperative"
 * in "aldwick ferry cooperative"); single words are too common to match this way.
 */
function containing(key: string, index: NameIndex): EntityRow[] | undefined {
  if (!key.includes(' ')) return undefined
  const out: EntityRow[] = []
  for (const [name, entities] of index) if (` ${name} `.includes(` ${key} `)) out.push(...entities)
  return out.length === 0 ? undefined : out
}

export interface EntityMatch {
  /** Matched entities, in order of first match. */
  matched: EntityRow[]
  /** Question entities that matched no name or alias. */
  unmatched: string[]
}

/** Matches the extracted names, then the question's n-grams (longest first); stopword-only n-grams are skipped. */
export function matchEntities(names: readonly string[], question: string, index: NameIndex): EntityMatch {
  const matched: EntityRow[] = []
  const take = (entities: readonly EntityRow[]) => {
    for (const e of entities) if (!matched.includes(e)) matched.push(e)
  }
  const unmatched: string[] = []
  for (const name of names) {
    const key = normalizeName(name)
    const found = index.get(key) ?? containing(key, index)
    if (found === undefined) unmatched.push(name)
    else take(found)
  }
  const words = normalizeName(question)
    .split(' ')
    .filter((w) => w !== '')
  for (let n = Math.min(MAX_NGRAM, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const gram = words.slice(i, i + n)
      if (gram.every((w) => EDGE_STOPWORDS.has(w))) continue
      const found = index.get(gram.join(' '))
      if (found !== undefined) take(found)
    }
  }
  return { matched, unmatched: [...new Set(unmatched)] }
}
