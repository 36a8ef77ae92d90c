// generate_text_embeddings reads only the columns TEXT_COLUMNS names: each name's text must come out
// the same from rows cut down to those columns as from whole rows.
import { describe, expect, it } from 'vitest'
import { EMBEDDING_NAMES } from '../../../src/model/embeddings.js'
import { embeddingTexts, TEXT_COLUMNS } from '../../../src/index/operations/embed-text.js'

/** A row with every column any source table has, each a distinct text. */
const WHOLE = Object.fromEntries(
  ['id', 'title', 'description', 'text', 'summary', 'full_content', 'source', 'target', 'document_id'].map((c) => [
    c,
    `${c} value`,
  ]),
) as { id: string } & Record<string, unknown>

describe('the columns each embedding reads', () => {
  it.each(EMBEDDING_NAMES)('%s: the text from its columns alone equals the text from the whole row', (name) => {
    const cut = Object.fromEntries(['id', ...TEXT_COLUMNS[name]].map((c) => [c, WHOLE[c]])) as typeof WHOLE
    const [fromCut] = embeddingTexts({ name, rows: [cut] })
    const [fromWhole] = embeddingTexts({ name, rows: [WHOLE] })
    expect(fromCut).toEqual(fromWhole)
    expect(fromWhole!.text).not.toBe('')
  })
})
