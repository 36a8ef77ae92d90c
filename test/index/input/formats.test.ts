import { beforeAll, describe, expect, it } from 'vitest'
import { INPUT_DOCUMENTS } from '../../../src/model/documents.js'
import { metadataPrefix } from '../../../src/index/operations/chunk-text.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { makeDocx, makePdf, makeXlsx } from '../../support/documents.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

/** Runs load_input_documents over `dir` with extra `input:` settings lines; returns rows and stats. */
async function load(dir: string, input: Record<string, string>) {
  // `$` starts an environment placeholder in settings; `$$` is a literal one.
  const lines = Object.entries(input)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v).replace(/\$/g, '$$$$')}\n`)
    .join('')
  const t = await createTestContext({
    settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(dir)}\ninput:\n${lines}`,
  })
  const result = await loadInputDocuments.run(t.ctx)
  return { rows: await t.tables.read(INPUT_DOCUMENTS), stats: t.stats, result }
}

const PARAGRAPH =
  'The harbour council met on Monday to discuss the ferry timetable, the budget of the old lighthouse and the repairs of the pier.'

describe('pdf input', () => {
  let dir: string
  beforeAll(async () => {
    dir = await testdir({
      'report.pdf': await makePdf({
        author: 'Ana Ruiz',
        title: 'Harbour report',
        pages: [['Harbour Report', PARAGRAPH, 'A second paragraph.'], ['Page two.']],
      }),
      'locked.pdf': await makePdf({ userPassword: 'secret', pages: [['Hidden text.']] }),
      'scan.pdf': await makePdf({ pages: [[]] }),
      'part-scan.pdf': await makePdf({ pages: [['Typed page.'], [], ['Another typed page.']] }),
      'corrupt.pdf': '%PDF-1.7\nthis is not a PDF body\n',
    })
  })

  it('reads pages joined by a blank line, keeps paragraph breaks and line breaks, stores page count, author, title and date', async () => {
    const { rows } = await load(dir, { type: 'pdf' })
    expect(rows.map((r) => r.title)).toEqual(['part-scan.pdf', 'report.pdf'])
    const text = rows[1]!.text
    const paragraphs = text.split('\n\n')
    expect(paragraphs[0]).toBe('Harbour Report')
    // The long paragraph wraps in the PDF: its lines stay together, with newlines where the PDF broke them.
    expect(paragraphs[1]!.replace(/\n/g, ' ')).toBe(PARAGRAPH)
    expect(paragraphs[1]).toContain('\n')
    expect(paragraphs.slice(2)).toEqual(['A second paragraph.', 'Page two.'])
    expect(rows[1]!.raw_data).toEqual({
      page_count: 2,
      author: 'Ana Ruiz',
      document_title: 'Harbour report',
      created: '2024-01-02T03:04:05Z',
    })
    // As read back from the documents table, the metadata is there for chunking.prepend_metadata.
    expect(metadataPrefix(rows[1]!, ['title', 'page_count', 'author', 'created'])).toBe(
      'title: report.pdf.\npage_count: 2.\nauthor: Ana Ruiz.\ncreated: 2024-01-02T03:04:05Z.\n',
    )
  })

  it('warns about encrypted, corrupt and scanned PDFs by name and reason, counts them and indexes the rest', async () => {
    const { rows, stats, result } = await load(dir, { type: 'pdf' })
    expect(rows).toHaveLength(2)
    expect(rows[0]!.text).toBe('Typed page.\n\nAnother typed page.')
    expect(stats.warnings).toEqual([
      expect.stringMatching(/skipped input file corrupt\.pdf: not a readable PDF/),
      expect.stringMatching(/skipped input file locked\.pdf: encrypted PDF: it needs a password/),
      'part-scan.pdf: page(s) 2 hold only images (scanned?): run OCR to index their text',
      'skipped input file scan.pdf: no text layer: run OCR first',
    ])
    expect(stats.counters).toEqual({ input_warnings: 4, input_files_skipped: 3 })
    expect(result.summary).toEqual({ files: 2, skipped_files: 3 })
  })
})

describe('docx input', () => {
  it('keeps headings, paragraphs, list items and table rows (tab-separated); author, title and date from the core properties', async () => {
    const dir = await testdir({
      'minutes.docx': await makeDocx(),
      'fake.docx': 'plain text with a .docx name',
      'old.docx': new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1, 2]),
    })
    const { rows, stats } = await load(dir, { type: 'docx' })
    expect(rows.map((r) => r.title)).toEqual(['minutes.docx'])
    expect(rows[0]!.text).toBe(
      'Harbour Minutes\n\nThe council met on Monday.\n\nIt voted to repair the pier.\n\n- Ferry timetable\n- Lighthouse budget\n\nItem\tCost\nPier\t1200\n\nAdjourned at noon.',
    )
    expect(rows[0]!.raw_data).toMatchObject({ author: 'Ana Ruiz', document_title: 'Harbour minutes' })
    expect(String((rows[0]!.raw_data as Record<string, unknown>).created)).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(stats.warnings).toEqual([
      'skipped input file fake.docx: not a .docx file (not a zip archive)',
      expect.stringMatching(
        /skipped input file old\.docx: not a \.docx file: it is an encrypted or legacy Office file/,
      ),
    ])
  })
})

describe('xlsx input', () => {
  let dir: string
  beforeAll(async () => {
    dir = await testdir({ 'ledger.xlsx': await makeXlsx(), 'broken.xlsx': 'PK\u0003\u0004 truncated' })
  })

  it('without text_column: one document, each sheet named then its rows tab-separated; sheet names, author and date as metadata', async () => {
    const { rows, stats } = await load(dir, { type: 'xlsx' })
    expect(rows[0]!.text).toBe(
      'Sheet: Ships\nname\ttext\ttons\tarrived\nAurora\tBrought grain from Leith.\t120\t2024-03-01\nBlue Heron\tLeft for Bergen.\t80.5\t2024-03-03' +
        '\n\nSheet: Notes\nremark\nStorm warning on Friday',
    )
    expect(rows[0]!.raw_data).toEqual({
      sheet_names: 'Ships, Notes',
      author: 'Ana Ruiz',
      document_title: 'Harbour ledger',
      created: '2024-01-02T03:04:05Z',
    })
    expect(stats.warnings).toEqual([expect.stringMatching(/skipped input file broken\.xlsx: not a readable/)])
  })

  it('with text_column: one document per row like csv; a sheet without the column is skipped with a warning', async () => {
    const { rows, stats } = await load(dir, { type: 'xlsx', text_column: 'text', title_column: 'name' })
    expect(rows.map((r) => [r.title, r.text])).toEqual([
      ['Aurora', 'Brought grain from Leith.'],
      ['Blue Heron', 'Left for Bergen.'],
    ])
    expect(rows[1]!.raw_data).toEqual({
      name: 'Blue Heron',
      text: 'Left for Bergen.',
      tons: 80.5,
      arrived: '2024-03-03',
    })
    expect(stats.warnings).toEqual([
      expect.stringMatching(/skipped input file broken\.xlsx: not a readable \.xlsx file/),
      'ledger.xlsx: sheet "Notes" skipped: text column "text" not found',
    ])
  })
})

describe('html input', () => {
  it('renders text without markup, scripts or styles; title, author and date from <title> and <meta>', async () => {
    const html = `<!doctype html><html><head><title> Harbour  news </title><meta name="author" content="Ana Ruiz">
      <meta name="date" content="2024-01-02"><style>p { color: red }</style><script>var x = 1</script></head>
      <body><h1>Harbour &amp; Ferries</h1><p>The council   met
      on <b>Monday</b>.</p><ol><li>Pier</li><li>Lighthouse</li></ol></body></html>`
    const dir = await testdir({ 'news.html': html, 'blank.htm': '<html><body><script>only()</script></body></html>' })
    const { rows, stats } = await load(dir, { type: 'html' })
    expect(rows[0]!.text).toBe('Harbour & Ferries\n\nThe council met on Monday.\n\n1. Pier\n2. Lighthouse')
    expect(rows[0]!.raw_data).toEqual({ author: 'Ana Ruiz', document_title: 'Harbour news', created: '2024-01-02' })
    expect(stats.warnings).toEqual(['skipped input file blank.htm: no text'])
  })

  it('decodes a page in the charset its <meta> declares when input.encoding is not set', async () => {
    const latin1 = Buffer.from(
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head><p>Caf\u00e9 \u2013 quai</p></html>',
      'latin1',
    )
    latin1[latin1.indexOf(0x13)] = 0x96 // the en dash is 0x96 in windows-1252
    const dir = await testdir({ 'old.html': latin1 })
    const { rows } = await load(dir, { type: 'html' })
    expect(rows[0]!.text).toBe('Caf\u00e9 \u2013 quai')
  })
})

describe('markitdown input (a Microsoft GraphRAG setup)', () => {
  it('reads PDF, Word, Excel and HTML files with their own readers; other formats still get the conversion hint', async () => {
    const dir = await testdir({
      'a.md': '# Notes\n\nMarkdown.',
      'b.pdf': await makePdf({ pages: [['A PDF page.']] }),
      'c.docx': await makeDocx(['A Word paragraph.']),
      'd.html': '<p>An HTML page.</p>',
      'e.pptx': 'slides',
    })
    const { rows, stats } = await load(dir, { type: 'markitdown', file_pattern: '.*\\.(md|pdf|docx|html|pptx)$' })
    expect(rows.map((r) => [r.title, r.text])).toEqual([
      ['Notes', '# Notes\n\nMarkdown.'],
      ['b.pdf', 'A PDF page.'],
      ['c.docx', 'A Word paragraph.'],
      ['d.html', 'An HTML page.'],
    ])
    expect(stats.warnings).toEqual([
      expect.stringMatching(/skipped input file e\.pptx: .*convert other formats to one of these first/),
    ])
  })
})
