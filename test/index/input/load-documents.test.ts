import { createHash } from 'node:crypto'
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, InputError } from '../../../src/errors.js'
import { INPUT_DOCUMENTS } from '../../../src/model/documents.js'
import { column, defineTable, nullableColumn } from '../../../src/model/schema.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { loadDocuments } from '../../../src/index/input/load-documents.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

const FIXTURES = join(PROJECT_ROOT, 'fixtures', 'inputs')
const sha512 = (text: string): string => createHash('sha512').update(text, 'utf8').digest('hex')
const DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}$/

/** Runs load_input_documents over `dir` with extra `input:` settings lines; returns rows, stats and progress. */
async function load(dir: string, input: Record<string, string> = {}) {
  const lines = Object.entries(input)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v).replace(/\$/g, '$$$$')}\n`)
    .join('')
  const t = await createTestContext({
    settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(dir)}\n${lines ? `input:\n${lines}` : ''}`,
  })
  const result = await loadInputDocuments.run(t.ctx)
  const rows = await t.tables.read(INPUT_DOCUMENTS)
  return { rows, result, stats: t.stats, progress: t.progress }
}

describe('load_input_documents: text', () => {
  it('reads files recursively in sorted path order, titles by basename, ids = SHA-512 of the text', async () => {
    const { rows, result, progress } = await load(join(FIXTURES, 'text'))
    expect(rows.map((r) => r.title)).toEqual(['bom.txt', 'crlf.txt', 'harbour.txt', 'ferry.txt'])
    expect(rows.map((r) => r.human_readable_id)).toEqual([0, 1, 2, 3])
    for (const row of rows) {
      expect(row.id).toBe(sha512(row.text))
      expect(row.raw_data).toBeNull()
      expect(row.creation_date).toMatch(DATE)
    }
    expect(result.rows).toEqual({ documents: 4 })
    expect(progress).toEqual([{ label: 'loading input files', total: 4, done: 4 }])
  })

  it('normalises CRLF and CR to LF and keeps a leading BOM (also through Parquet)', async () => {
    const { rows } = await load(join(FIXTURES, 'text'))
    expect(rows[1]!.text).toBe('Line one.\nLine two.\nLine three.\n')
    expect(rows[0]!.text).toBe('\uFEFFA file that starts with a byte order mark.\n')
  })

  it('uses file_pattern against relative paths', async () => {
    const { rows } = await load(join(FIXTURES, 'text'), { file_pattern: '^notes/.*\\.txt$' })
    expect(rows.map((r) => r.title)).toEqual(['ferry.txt'])
  })
})

describe('load_input_documents: files that are not usable text', () => {
  it('reports invalid UTF-8 and binary files by name, counts them and indexes the rest', async () => {
    const { rows, stats, result } = await load(join(FIXTURES, 'broken'))
    expect(rows.map((r) => r.title)).toEqual(['fine.txt'])
    expect(stats.warnings).toHaveLength(3)
    expect(stats.warnings[0]).toMatch(/image\.txt: binary file/)
    expect(stats.warnings[1]).toMatch(/invalid-utf8\.txt: not valid UTF-8 \(line 1\)/)
    expect(stats.warnings[2]).toMatch(/latin1\.txt: not valid UTF-8.*input\.encoding/)
    expect(stats.counters).toEqual({ input_warnings: 3, input_files_skipped: 3 })
    expect(result.summary).toEqual({ files: 1, skipped_files: 3 })
  })

  it('reads the same bytes with encoding latin1', async () => {
    const { rows, stats } = await load(join(FIXTURES, 'broken'), { encoding: 'latin1' })
    expect(rows.find((r) => r.title === 'latin1.txt')!.text).toBe('Caf\u00e9 au lait at the harbour\n')
    expect(stats.warnings).toEqual([expect.stringMatching(/image\.txt: binary file/)])
  })

  it('warns about a file that cannot be read, also as root (a link to itself)', async () => {
    const dir = await testdir({ 'good.txt': 'Readable.' })
    await symlink(join(dir, 'loop.txt'), join(dir, 'loop.txt'))
    const { rows, stats } = await load(dir)
    expect(rows.map((r) => r.title)).toEqual(['good.txt'])
    expect(stats.warnings).toEqual([
      expect.stringMatching(
        /skipped input file loop\.txt: cannot read .*ELOOP|loop\.txt: .*(too many|symbolic links)/i,
      ),
    ])
  })

  it('warns about a file that cannot be read (dangling link, no permission)', async () => {
    const dir = await testdir({ 'good.txt': 'Readable.', 'locked.txt': 'secret' })
    await symlink(join(dir, 'nowhere.txt'), join(dir, 'dangling.txt'))
    await chmod(join(dir, 'locked.txt'), 0o000)
    const { rows, stats } = await load(dir)
    await chmod(join(dir, 'locked.txt'), 0o644)
    const asRoot = process.getuid?.() === 0
    expect(rows.map((r) => r.title)).toEqual(asRoot ? ['good.txt', 'locked.txt'] : ['good.txt'])
    expect(stats.warnings[0]).toMatch(/skipped input file dangling\.txt: cannot read/)
    if (!asRoot) expect(stats.warnings[1]).toMatch(/locked\.txt: permission denied/)
  })

  it('fails with an InputError naming the folder and pattern when there are no documents', async () => {
    const empty = await testdir({ 'notes.md': 'not a txt file' })
    const error = await load(empty).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).message).toContain(empty)
    expect((error as InputError).message).toContain('.*\\.txt$')
    const allBroken = await testdir({ 'bin.txt': new Uint8Array([0, 1, 2, 0]) })
    await expect(load(allBroken)).rejects.toBeInstanceOf(InputError)
  })

  it('rejects an unknown encoding and an invalid file_pattern as settings errors', async () => {
    await expect(load(join(FIXTURES, 'text'), { encoding: 'klingon-8' })).rejects.toBeInstanceOf(ConfigError)
    await expect(load(join(FIXTURES, 'text'), { file_pattern: '([' })).rejects.toBeInstanceOf(ConfigError)
  })
})

describe('load_input_documents: row formats', () => {
  it('csv: quoted newlines, doubled quotes, BOM header, id/title columns, raw_data; a file without the text column is reported', async () => {
    const { rows, stats } = await load(join(FIXTURES, 'csv'), { type: 'csv', id_column: 'id', title_column: 'title' })
    expect(rows.map((r) => [r.id, r.title, r.text])).toEqual([
      ['A1', 'Harbour news', 'The council met on Monday.\nIt voted to close the market.'],
      ['A2', 'Quotes, commas', 'She said "no", twice.'],
      ['A3', 'Short row', 'Only three fields'],
    ])
    expect(rows[0]!.raw_data).toEqual({ id: 'A1', title: 'Harbour news', text: rows[0]!.text, author: 'Ana' })
    expect(rows[2]!.raw_data).toEqual({ id: 'A3', title: 'Short row', text: 'Only three fields', author: null })
    expect(stats.warnings).toEqual([expect.stringMatching(/no-text\.csv: text column "text" not found/)])
  })

  it('csv without id/title columns: SHA-512 ids and "path (i)" titles', async () => {
    const { rows } = await load(join(FIXTURES, 'csv'), { type: 'csv', file_pattern: 'articles' })
    expect(rows.map((r) => r.title)).toEqual(['articles.csv (0)', 'articles.csv (1)', 'articles.csv (2)'])
    expect(rows.map((r) => r.id)).toEqual(rows.map((r) => sha512(r.text)))
  })

  it('json: arrays and single objects, dot paths for text, id and title', async () => {
    const { rows } = await load(join(FIXTURES, 'json'), {
      type: 'json',
      text_column: 'doc.content.body',
      id_column: 'doc.id',
    })
    expect(rows.map((r) => [r.id, r.title, r.text])).toEqual([
      ['j-1', 'array.json (0)', 'The lighthouse keeper counted ships.'],
      ['j-2', 'array.json (1)', 'Fishing boats returned before the storm.'],
      ['j-3', 'single.json', 'A single object is one document.'],
    ])
    // In memory raw_data is the parsed row; the documents table stores nested objects as JSON text.
    const loaded = await loadDocuments(
      {
        baseDir: join(FIXTURES, 'json'),
        type: 'json',
        encoding: null,
        max_unzipped_mb: 256,
        file_pattern: 'single',
        id_column: null,
        title_column: null,
        text_column: 'doc.content.body',
      },
      { onWarning: () => {} },
    )
    expect(loaded.documents[0]!.raw_data).toEqual({
      doc: { id: 'j-3', content: { body: 'A single object is one document.' } },
      headline: 'Single',
      year: 1903,
    })
    expect(rows[2]!.raw_data).toMatchObject({ headline: 'Single', year: 1903 })
    const titled = await load(join(FIXTURES, 'json'), {
      type: 'json',
      text_column: 'doc.content.body',
      title_column: 'headline',
    })
    expect(titled.rows.map((r) => r.title)).toEqual(['Lighthouse', 'Storm', 'Single'])
  })

  it('jsonl: one document per object line; malformed and non-object lines are reported and skipped', async () => {
    const { rows, stats } = await load(join(FIXTURES, 'jsonl'), { type: 'jsonl', title_column: 'meta.source' })
    expect(rows.map((r) => [r.title, r.text])).toEqual([
      ['log', 'First record about the pier.'],
      ['log', 'Second record, after a blank line.'],
      ['diary', 'Last good record.'],
    ])
    expect(stats.warnings).toEqual([
      expect.stringMatching(/records\.jsonl: line 4 skipped: not valid JSON/),
      expect.stringMatching(/records\.jsonl: line 5 skipped: not a JSON object/),
    ])
  })

  it('parquet: rows as plain objects, BOM kept, nested struct fields by dot path, int64 as numbers', async () => {
    const schema = defineTable('input', [
      column('text', 'string'),
      nullableColumn('meta', 'json'),
      column('n', 'int64'),
    ] as const)
    const dir = await testdir()
    await mkdir(join(dir, 'part'))
    await writeFile(
      join(dir, 'part', 'rows.parquet'),
      encodeParquet(schema, [
        { text: '\uFEFFFirst row.', meta: { source: 'ledger' }, n: 7 },
        { text: 'Second row.', meta: { source: 'diary' }, n: 8 },
      ]),
    )
    await writeFile(join(dir, 'broken.parquet'), 'not parquet')
    const { rows, stats } = await load(dir, { type: 'parquet', title_column: 'meta.source' })
    expect(rows.map((r) => [r.title, r.text, r.id])).toEqual([
      ['ledger', '\uFEFFFirst row.', sha512('\uFEFFFirst row.')],
      ['diary', 'Second row.', sha512('Second row.')],
    ])
    expect(rows[0]!.raw_data).toMatchObject({ text: '\uFEFFFirst row.', n: 7 })
    const loaded = await loadDocuments(
      {
        baseDir: dir,
        type: 'parquet',
        encoding: null,
        max_unzipped_mb: 256,
        file_pattern: null,
        id_column: null,
        title_column: null,
        text_column: null,
      },
      { onWarning: () => {} },
    )
    expect(loaded.documents[0]!.raw_data).toEqual({ text: '\uFEFFFirst row.', meta: { source: 'ledger' }, n: 7 })
    expect(stats.warnings).toEqual([expect.stringMatching(/broken\.parquet: not a readable Parquet file/)])
  })
})

describe('load_input_documents: markitdown', () => {
  it('reads Markdown as is, titled by the first # heading or the basename; a PDF goes to the PDF reader, which reports a fake one', async () => {
    const { rows, stats } = await load(join(FIXTURES, 'markdown'), { type: 'markitdown', file_pattern: '\\.(md|pdf)$' })
    expect(rows.map((r) => r.title)).toEqual(['Harbour Guide', 'note.md'])
    expect(rows[0]!.text).toBe('Front matter line.\n\n# Harbour Guide\n\nThe guide lists every berth.\n')
    expect(stats.warnings).toEqual([expect.stringMatching(/report\.pdf: not a readable PDF/)])
  })
})
