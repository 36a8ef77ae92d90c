import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { makeDocx, makePdf, makeXlsx } from '../support/documents.js'
import { duckQuery } from '../support/duckdb.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')

/** The first half of each of the demo's five stories (a quicker index), each in another format, plus a workbook, a csv and a json file. */
async function mixedInput(dir: string): Promise<void> {
  const story = async (name: string) => {
    const paragraphs = (await readFile(join(DEMO, 'input', name), 'utf8'))
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
    return paragraphs.slice(0, Math.ceil(paragraphs.length / 2))
  }
  await writeFile(join(dir, '01-the-harbour.txt'), (await story('01-the-harbour.txt')).join('\n\n'))
  await writeFile(join(dir, '02-the-storm.md'), (await story('02-the-storm.txt')).join('\n\n'))
  await writeFile(
    join(dir, '03-the-salvage.pdf'),
    await makePdf({ author: 'Demo', pages: [await story('03-the-salvage.txt')] }),
  )
  await writeFile(join(dir, '04-the-hearing.docx'), await makeDocx(await story('04-the-hearing.txt')))
  const festival = (await story('05-the-lantern-festival.txt'))
    .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
    .join('\n')
  await writeFile(
    join(dir, '05-the-lantern-festival.html'),
    `<html><head><title>Lantern Festival</title></head><body>${festival}</body></html>`,
  )
  await writeFile(join(dir, '06-ledger.xlsx'), await makeXlsx())
  await writeFile(join(dir, '07-notices.csv'), 'text\nThe harbour master closed the pier for repairs.\n')
  await writeFile(join(dir, '08-notice.json'), JSON.stringify({ text: 'The ferry Kittiwake returned to service.' }))
}

describe('offline demo over a folder mixing every format (input.type auto)', () => {
  let root: string
  let run: CliResult

  beforeAll(async () => {
    root = await testdir({})
    const settings = await readFile(join(DEMO, 'settings.yaml'), 'utf8')
    expect(settings).toContain('input:\n  type: text\n')
    await writeFile(join(root, 'settings.yaml'), settings.replace('input:\n  type: text\n', 'input:\n  type: auto\n'))
    await mkdir(join(root, 'input'))
    await mixedInput(join(root, 'input'))
    run = await runCli(['index', '--root', root], { env: { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined } })
  }, 300_000)

  it('indexes every file with no warning', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).not.toMatch(/skipped input file|not read/)
  })

  it('writes one document per file, each with text units, metadata in raw_data', async () => {
    const docs = await duckQuery(
      `SELECT title, len(text_unit_ids) AS units, raw_data.page_count AS pages FROM '${join(root, 'output', 'documents.parquet')}' ORDER BY title`,
    )
    expect(docs.map((d) => d.title)).toEqual([
      '01-the-harbour.txt',
      '02-the-storm.md',
      '03-the-salvage.pdf',
      '04-the-hearing.docx',
      '05-the-lantern-festival.html',
      '06-ledger.xlsx',
      '07-notices.csv',
      '08-notice.json',
    ])
    for (const doc of docs) expect(Number(doc.units), String(doc.title)).toBeGreaterThan(0)
    // pdfkit flows the story over several pages.
    expect(Number(docs[2]!.pages)).toBeGreaterThan(1)
  })

  it('answers a basic query with text that only the PDF holds', async () => {
    const answer = await runCliInProcess([
      'query',
      'Who registered a salvage claim on the wreck of the Kittiwake?',
      '--root',
      root,
      '--method',
      'basic',
    ])
    expect(answer.code, answer.stderr).toBe(0)
    expect(answer.stdout).toMatch(/## Sources/)
    // Lines of a PDF paragraph keep the PDF's own line breaks.
    expect(answer.stdout).toMatch(/Simon\s+Greyling\s+registered\s+a\s+salvage\s+claim/)
  })
})

describe('--dry-run with the default input.type text over a mixed folder', () => {
  it('names the files it would not read and suggests input.type auto', async () => {
    const root = await testdir({
      'settings.yaml': await readFile(join(DEMO, 'settings.yaml'), 'utf8'),
      'input/story.txt': await readFile(join(DEMO, 'input', '01-the-harbour.txt'), 'utf8'),
      'input/report.pdf': await makePdf({ pages: [['A report.']] }),
      'input/minutes.docx': await makeDocx(),
    })
    const run = await runCliInProcess(['index', '--root', root, '--dry-run'], {
      env: { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined },
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout + run.stderr).toContain(
      '2 input file(s) not read, they do not match input.type text (file_pattern .*\\.txt$): minutes.docx, report.pdf; set input.type: auto to read every supported format',
    )
  })
})
