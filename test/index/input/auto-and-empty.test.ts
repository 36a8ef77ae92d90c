import { describe, expect, it } from 'vitest'
import { INPUT_DOCUMENTS } from '../../../src/model/documents.js'
import { column, defineTable } from '../../../src/model/schema.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { makeDocx, makePdf, makeXlsx } from '../../support/documents.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

async function load(dir: string, input: Record<string, string> = {}) {
  const lines = Object.entries(input)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}\n`)
    .join('')
  const t = await createTestContext({
    settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(dir)}\n${lines ? `input:\n${lines}` : ''}`,
  })
  const result = await loadInputDocuments.run(t.ctx)
  return { rows: await t.tables.read(INPUT_DOCUMENTS), stats: t.stats, result }
}

describe('load_input_documents: inputs that used to vanish without a word', () => {
  it('skips an empty or blank .txt with a warning instead of indexing an empty document', async () => {
    const dir = await testdir({
      'empty.txt': '',
      'blank.txt': ' \n\t\n',
      'bom-only.txt': '\uFEFF',
      'story.txt': 'Once upon a time.',
    })
    const { rows, stats, result } = await load(dir)
    expect(rows.map((r) => r.title)).toEqual(['story.txt'])
    expect(stats.warnings).toEqual([
      'skipped input file blank.txt: empty file',
      'skipped input file bom-only.txt: empty file',
      'skipped input file empty.txt: empty file',
    ])
    expect(result.summary).toEqual({ files: 1, skipped_files: 3 })
  })

  it('skips a 0-byte or header-only csv with a warning; it does not count as read', async () => {
    const dir = await testdir({ 'empty.csv': '', 'header.csv': 'id,text\n', 'rows.csv': 'id,text\n1,A row.\n' })
    const { rows, stats, result } = await load(dir, { type: 'csv' })
    expect(rows.map((r) => r.text)).toEqual(['A row.'])
    expect(stats.warnings).toEqual([
      'skipped input file empty.csv: empty file',
      'skipped input file header.csv: no rows',
    ])
    expect(stats.counters).toEqual({ input_warnings: 2, input_files_skipped: 2 })
    expect(result.summary).toEqual({ files: 1, skipped_files: 2 })
  })

  it('names the files input.type leaves out in one notice (hidden files excepted), not counted as input warnings', async () => {
    const dir = await testdir({
      'a.txt': 'Text.',
      'b.md': '# B',
      'report.pdf': 'x',
      'sub/c.docx': 'x',
      '.DS_Store': 'x',
    })
    const { rows, stats } = await load(dir)
    expect(rows.map((r) => r.title)).toEqual(['a.txt'])
    expect(stats.warnings).toEqual([
      '3 input file(s) not read, they do not match input.type text (file_pattern .*\\.txt$): b.md, report.pdf, sub/c.docx; set input.type: auto to read every supported format',
    ])
    expect(stats.counters).toEqual({})
  })
})

describe('input.type auto', () => {
  it('reads each file by its extension: txt, md, csv, json, jsonl, parquet, pdf, docx, xlsx, html', async () => {
    const table = defineTable('input', [column('text', 'string')] as const)
    const dir = await testdir({
      'a.txt': 'Plain text.',
      'b.md': '# Heading\n\nMarkdown body.',
      'c.csv': 'text,kind\nA csv row.,note\n',
      'd.json': JSON.stringify({ text: 'A json object.' }),
      'e.jsonl': '{"text": "A jsonl line."}\n',
      'f.parquet': encodeParquet(table, [{ text: 'A parquet row.' }]),
      'g.pdf': await makePdf({ pages: [['A PDF page.']] }),
      'h.docx': await makeDocx(),
      'i.xlsx': await makeXlsx(),
      'J.HTML': '<p>An HTML page.</p>',
      'notes.xyz': 'unknown format',
    })
    const { rows, stats } = await load(dir, { type: 'auto' })
    expect(rows.map((r) => r.title)).toEqual([
      'J.HTML',
      'a.txt',
      'b.md',
      'c.csv',
      'd.json',
      'e.jsonl',
      'f.parquet',
      'g.pdf',
      'h.docx',
      'i.xlsx',
    ])
    const text = Object.fromEntries(rows.map((r) => [r.title, r.text]))
    expect(text).toMatchObject({
      'J.HTML': 'An HTML page.',
      'a.txt': 'Plain text.',
      'b.md': '# Heading\n\nMarkdown body.',
      'c.csv': 'A csv row.',
      'd.json': 'A json object.',
      'e.jsonl': 'A jsonl line.',
      'f.parquet': 'A parquet row.',
      'g.pdf': 'A PDF page.',
    })
    expect(text['h.docx']).toMatch(/^Harbour Minutes\n\n/)
    expect(text['i.xlsx']).toMatch(/^Sheet: Ships\n/)
    // One raw_data struct holds every file's fields; a row has null for the others' fields.
    expect(rows.find((r) => r.title === 'c.csv')!.raw_data).toMatchObject({
      text: 'A csv row.',
      kind: 'note',
      page_count: null,
    })
    expect(rows.find((r) => r.title === 'g.pdf')!.raw_data).toMatchObject({ page_count: 1 })
    expect(stats.warnings).toEqual([
      expect.stringMatching(/^1 input file\(s\) not read, no reader for their type .*: notes\.xyz$/),
    ])
  })
})
