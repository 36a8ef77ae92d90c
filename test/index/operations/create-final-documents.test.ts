import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DOCUMENTS, INPUT_DOCUMENTS, type InputDocumentRow } from '../../../src/model/documents.js'
import { BASE_TEXT_UNITS } from '../../../src/model/text-units.js'
import { createFinalDocuments } from '../../../src/index/operations/create-final-documents.js'
import { createBaseTextUnits } from '../../../src/index/workflows/create_base_text_units.js'
import { createFinalDocuments as createFinalDocumentsWorkflow } from '../../../src/index/workflows/create_final_documents.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'

const doc = (id: string, i: number): InputDocumentRow => ({
  id,
  text: `text ${id}`,
  title: `${id}.txt`,
  creation_date: '2026-01-01 00:00:00 +0000',
  raw_data: null,
  human_readable_id: i,
})

describe('create_final_documents operation', () => {
  it('lists text unit ids per document in text_units order, [] for documents without units, final column order', () => {
    const units = [
      { id: 'u1', document_id: 'b' },
      { id: 'u2', document_id: 'a' },
      { id: 'u3', document_id: 'b' },
    ]
    const rows = createFinalDocuments([doc('a', 0), doc('b', 1), doc('c', 2)], units)
    expect(rows.map((r) => r.text_unit_ids)).toEqual([['u2'], ['u1', 'u3'], []])
    expect(Object.keys(rows[0]!)).toEqual(DOCUMENTS.columns.map((c) => c.name))
    expect(rows[1]).toEqual({
      id: 'b',
      human_readable_id: 1,
      title: 'b.txt',
      text: 'text b',
      text_unit_ids: ['u1', 'u3'],
      creation_date: '2026-01-01 00:00:00 +0000',
      raw_data: null,
    })
  })
})

describe('the three foundation workflows over Parquet', () => {
  it('load → chunk → final documents, with progress per document', async () => {
    const t = await createTestContext({
      settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(join(PROJECT_ROOT, 'fixtures', 'inputs', 'text'))}\nchunking:\n  size: 8\n  overlap: 2\n  prepend_metadata: [title]\n`,
    })
    await loadInputDocuments.run(t.ctx)
    const chunked = await createBaseTextUnits.run(t.ctx)
    await createFinalDocumentsWorkflow.run(t.ctx)
    const units = await t.tables.read(BASE_TEXT_UNITS)
    const documents = await t.tables.read(DOCUMENTS)
    expect(chunked.rows).toEqual({ text_units: units.length })
    expect(documents.map((d) => d.title)).toEqual(['bom.txt', 'crlf.txt', 'harbour.txt', 'ferry.txt'])
    expect(documents.flatMap((d) => d.text_unit_ids)).toEqual(units.map((u) => u.id))
    expect(
      units.every((u) => u.text.startsWith(`title: ${documents.find((d) => d.id === u.document_id)!.title}.\n`)),
    ).toBe(true)
    expect(t.progress.find((p) => p.label === 'chunking documents')).toEqual({
      label: 'chunking documents',
      total: 4,
      done: 4,
    })
    // Reading the final table back with the interim schema still works (a resumed chunking run).
    expect((await t.tables.read(INPUT_DOCUMENTS)).map((d) => d.human_readable_id)).toEqual([0, 1, 2, 3])
  })

  it('the sentence chunker gives one unit per sentence', async () => {
    const t = await createTestContext({
      settingsYaml: 'chunking:\n  type: sentence\n',
      files: { 'input/a.txt': 'Mr. Fezziwig laughed. The fiddler played! Did they dance? Yes.' },
    })
    await loadInputDocuments.run(t.ctx)
    await createBaseTextUnits.run(t.ctx)
    expect((await t.tables.read(BASE_TEXT_UNITS)).map((u) => u.text)).toEqual([
      'Mr. Fezziwig laughed.',
      'The fiddler played!',
      'Did they dance?',
      'Yes.',
    ])
  })
})

describe('create_base_text_units on a large input', () => {
  it('gives the event loop back while it chunks, so progress and Ctrl-C are served', async () => {
    const t = await createTestContext()
    const words = Array.from({ length: 12_000 }, (_, i) => `word${i % 997}`).join(' ')
    const documents: InputDocumentRow[] = Array.from({ length: 24 }, (_, i) => ({
      id: `doc-${i}`,
      title: `doc-${i}.txt`,
      text: `${i} ${words}`,
      creation_date: '2026-01-01 00:00:00 +0000',
      raw_data: null,
      human_readable_id: i,
    }))
    await t.tables.write(INPUT_DOCUMENTS, documents)
    // What a timer saw of the chunking progress: a count strictly between 0 and 24 means it ran mid-way.
    const seen: number[] = []
    const timer = setInterval(() => seen.push(t.progress.find((p) => p.label === 'chunking documents')?.done ?? 0), 1)
    try {
      await createBaseTextUnits.run(t.ctx)
    } finally {
      clearInterval(timer)
    }
    expect(seen.some((done) => done > 0 && done < documents.length)).toBe(true)
  }, 30_000)
})
