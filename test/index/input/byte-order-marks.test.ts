import { describe, expect, it } from 'vitest'
import { INPUT_DOCUMENTS } from '../../../src/model/documents.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

const TEXT = 'Café au lait at the harbour.'
const utf16 = (text: string, bigEndian: boolean): Uint8Array => {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le')
  return bigEndian ? new Uint8Array(le.swap16()) : new Uint8Array(le)
}

async function load(files: Record<string, string | Uint8Array>, encoding?: string) {
  const dir = await testdir(files)
  const input = encoding === undefined ? '' : `input:\n  encoding: ${encoding}\n`
  const t = await createTestContext({ settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(dir)}\n${input}` })
  await loadInputDocuments.run(t.ctx)
  const rows = await t.tables.read(INPUT_DOCUMENTS)
  return { texts: Object.fromEntries(rows.map((r) => [r.title, r.text])), warnings: t.stats.warnings }
}

describe('byte order marks decide the encoding of their file', () => {
  it('reads UTF-16 LE and BE files with a BOM beside UTF-8 files under the default encoding', async () => {
    const { texts, warnings } = await load({
      'le.txt': utf16(TEXT, false),
      'be.txt': utf16(TEXT, true),
      'plain.txt': TEXT,
    })
    expect(texts).toEqual({ 'be.txt': TEXT, 'le.txt': TEXT, 'plain.txt': TEXT })
    expect(warnings).toEqual([])
  })

  it('keeps input.encoding for files without a BOM and warns about a UTF-8 file it garbles', async () => {
    const { texts, warnings } = await load(
      // An even number of bytes: it decodes as UTF-16 without an error, into CJK-looking nonsense.
      { 'le.txt': utf16(TEXT, false), 'plain.txt': 'The harbour at dawn.', 'sig.txt': `\uFEFF${TEXT}` },
      'utf-16le',
    )
    expect(texts['le.txt']).toBe(TEXT)
    // A UTF-8 BOM wins over the setting (and is dropped, as utf-8-sig does).
    expect(texts['sig.txt']).toBe(TEXT)
    expect(texts['plain.txt']).not.toBe('The harbour at dawn.')
    expect(warnings).toEqual([
      'plain.txt: read as utf-16le (input.encoding), but it is valid UTF-8 and probably garbled that way; save it with a byte order mark or set input.encoding to its encoding',
    ])
  })

  it('warns about a UTF-8 file with accents read as latin1, not about plain ASCII or a real latin1 file', async () => {
    const { texts, warnings } = await load(
      { 'ascii.txt': 'Plain words.', 'latin.txt': new Uint8Array(Buffer.from(TEXT, 'latin1')), 'utf8.txt': TEXT },
      'latin1',
    )
    expect(texts['latin.txt']).toBe(TEXT)
    expect(texts['utf8.txt']).toBe('CafÃ© au lait at the harbour.')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^utf8\.txt: read as latin1 \(input\.encoding\), but it is valid UTF-8/)
  })

  it('keeps a UTF-8 BOM as U+FEFF under utf-8, as Microsoft GraphRAG reads it', async () => {
    const { texts } = await load({ 'sig.txt': `\uFEFF${TEXT}` })
    expect(texts['sig.txt']).toBe(`\uFEFF${TEXT}`)
  })
})
