/**
 * The reference's noun-phrase filter (regex_english extractor, spec §5.5 step 2): drop excluded
 * nouns, keep proper-noun / multi-word / hyphenated phrases of plain ASCII words, upper-case them.
 */

export interface PhraseFilterOptions {
  /** Words dropped from phrases, compared upper-cased (null: none). */
  readonly exclude_nouns: readonly string[] | null
  readonly max_word_length: number
  readonly word_delimiter: string
  /** Keep single-word phrases whose word is a proper noun. */
  readonly include_named_entities: boolean
}

const VALID_TOKEN = /^[a-zA-Z0-9-]+\n?$/

function isCompound(token: string): boolean {
  return token.split('-').filter((part) => part.length > 0).length >= 2
}

/**
 * Filters and formats one candidate phrase given as its words. `properNouns` holds the
 * upper-cased words tagged as proper nouns anywhere in the text. Returns undefined when the
 * phrase is rejected.
 */
export function normalizePhrase(
  words: readonly string[],
  properNouns: ReadonlySet<string>,
  excluded: ReadonlySet<string>,
  options: PhraseFilterOptions,
): string | undefined {
  const tokens = words.filter((w) => !excluded.has(w.toUpperCase()))
  if (tokens.length === 0) return undefined
  const proper = options.include_named_entities && tokens.some((t) => properNouns.has(t.toUpperCase()))
  if (!(proper || tokens.length > 1 || tokens.some(isCompound))) return undefined
  if (!tokens.every((t) => VALID_TOKEN.test(t) && t.length <= options.max_word_length)) return undefined
  return tokens.join(options.word_delimiter).replaceAll('\n', '').toUpperCase()
}

/** Python's `str(list)` of the upper-cased words, as the reference puts it in the cache key. */
export function pythonListRepr(words: readonly string[] | null): string {
  if (words === null) return 'None'
  return `[${words.map((w) => `'${w.toUpperCase().replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`).join(', ')}]`
}
