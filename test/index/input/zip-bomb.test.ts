import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { INPUT_DOCUMENTS } from '../../../src/model/documents.js'
import { loadInputDocuments } from '../../../src/index/workflows/load_input_documents.js'
import { makeDocx, makeXlsx } from '../../support/documents.js'
import { testdir } from '../../support/testdir.js'
import { createTestContext } from '../../support/workflow-context.js'

/** A zip of a few kilobytes whose one part inflates to `mb` megabytes (built here: nothing big is committed). */
function bomb(part: string, mb: number): Uint8Array {
  return zipSync(
    { '[Content_Types].xml': new TextEncoder().encode('<Types/>'), [part]: new Uint8Array(mb * 2 ** 20).fill(0x41) },
    { level: 1 },
  )
}

async function load(files: Record<string, string | Uint8Array>, input = '') {
  const dir = await testdir(files)
  const t = await createTestContext({
    settingsYaml: `input_storage:\n  base_dir: ${JSON.stringify(dir)}\ninput:\n  type: auto\n${input}`,
  })
  await loadInputDocuments.run(t.ctx)
  return { titles: (await t.tables.read(INPUT_DOCUMENTS)).map((r) => r.title), warnings: t.stats.warnings }
}

describe('zip-based inputs that expand beyond reason', () => {
  it('skip a .docx or .xlsx that unzips past input.max_unzipped_mb, naming the file and the setting', async () => {
    const { titles, warnings } = await load(
      {
        'bomb.docx': bomb('word/document.xml', 5),
        'bomb.xlsx': bomb('xl/worksheets/sheet1.xml', 5),
        'story.txt': 'Once upon a time.',
      },
      '  max_unzipped_mb: 4\n',
    )
    expect(titles).toEqual(['story.txt'])
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toMatch(
      /^skipped input file bomb\.docx: it expands to more than 4 MB when unzipped \(input\.max_unzipped_mb\)/,
    )
    expect(warnings[1]).toMatch(/^skipped input file bomb\.xlsx: it expands to more than 4 MB when unzipped/)
  })

  it('skip a file that expands hundreds of times its size under the default limit, as a zip bomb', async () => {
    const file = bomb('word/document.xml', 20)
    expect(file.length).toBeLessThan(200 * 1024)
    const { titles, warnings } = await load({ 'bomb.docx': file, 'story.txt': 'Once upon a time.' })
    expect(titles).toEqual(['story.txt'])
    expect(warnings[0]).toMatch(/^skipped input file bomb\.docx: its parts expand more than 200 times .*a zip bomb/)
  })

  it('read real documents as before', async () => {
    const { titles, warnings } = await load(
      {
        'letter.docx': await makeDocx(['A letter about the harbour.']),
        'sheet.xlsx': await makeXlsx(),
      },
      '  max_unzipped_mb: 1\n',
    )
    expect(warnings).toEqual([])
    expect(titles).toEqual(['letter.docx', 'sheet.xlsx'])
  })
})
