/** Wording helpers of the extractive report writer: display names, lists, data references, numbers. */

/** `BOB CRATCHIT` → `Bob Cratchit`, `COUNTING-HOUSE` → `Counting-House` (phrase words joined by `delimiter`). */
export function displayName(title: string, delimiter: string): string {
  const words = delimiter === '' ? [title] : title.split(delimiter)
  return words
    .map((word) =>
      word
        .split('-')
        .map((part) => (part.length === 0 ? part : part[0] + part.slice(1).toLowerCase()))
        .join('-'),
    )
    .join(' ')
}

/** `A`, `A and B`, `A, B and C`. */
export function listPhrase(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

/** `[Data: Sources (3, 5, 8, 13, 21, +more)]`: at most five ids, as the LLM reports cite text units. */
export function sourcesReference(ids: readonly number[]): string {
  if (ids.length === 0) return ''
  const shown = ids.slice(0, 5).join(', ')
  return ` [Data: Sources (${shown}${ids.length > 5 ? ', +more' : ''})]`
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/** Rounds to one decimal. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10
}
