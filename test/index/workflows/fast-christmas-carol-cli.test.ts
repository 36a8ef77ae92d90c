/**
 * `graphrag index --method fast` on A Christmas Carol with the demo's offline settings, through the
 * built CLI: no key, no network; the tables hold the main characters and extractive reports.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, it } from 'vitest'
import { normalizeWhitespace, splitSentences } from '../../../src/index/operations/extractive-report/sentences.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES, TEXT_UNITS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { runCli, type CliResult } from '../../support/cli.js'
import { describeShared, PROJECT_ROOT, sharedPath } from '../../support/shared.js'
import { testdir } from '../../support/testdir.js'

describeShared('graphrag index --method fast on A Christmas Carol (demo settings)', () => {
  let root: string
  let run: CliResult
  let seconds: number

  beforeAll(async () => {
    root = await testdir({
      'settings.yaml': readFileSync(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), 'utf8'),
    })
    mkdirSync(join(root, 'input'))
    copyFileSync(sharedPath('corpora', 'a-christmas-carol.txt'), join(root, 'input', 'a-christmas-carol.txt'))
    const started = performance.now()
    run = await runCli(['index', '--root', root, '--method', 'fast'], {
      env: { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined },
    })
    seconds = (performance.now() - started) / 1000
  }, 300_000)

  it('indexes offline and keeps the main characters as entities', async () => {
    expect(run.code, run.stderr).toBe(0)
    const tables = new ParquetTableStore(join(root, 'output'))
    const entities = await tables.read(ENTITIES)
    const communities = await tables.read(COMMUNITIES)
    const relationships = (await tables.names()).includes('relationships')
    console.log(
      `Christmas Carol via CLI (fast): ${entities.length} entities, ${communities.length} communities, ${seconds.toFixed(1)} s`,
    )
    expect(relationships).toBe(true)
    const titles = new Set(entities.map((e) => e.title))
    for (const name of ['SCROOGE', 'BOB CRATCHIT', 'MARLEY', 'TINY TIM', 'FEZZIWIG'])
      expect(titles.has(name), name).toBe(true)
    expect(entities.every((e) => e.type === 'NOUN PHRASE')).toBe(true)
  })

  it('writes an extractive report for every community with text units, from its own text', async () => {
    const tables = new ParquetTableStore(join(root, 'output'))
    const communities = await tables.read(COMMUNITIES)
    const reports = new Map((await tables.read(COMMUNITY_REPORTS)).map((r) => [r.community, r]))
    const unitText = new Map((await tables.read(TEXT_UNITS)).map((u) => [u.id, normalizeWhitespace(u.text)]))
    for (const c of communities.filter((x) => x.text_unit_ids.length > 0)) {
      const report = reports.get(c.community)
      expect(report, `community ${c.community}`).toBeDefined()
      const own = c.text_unit_ids.map((id) => unitText.get(id)!)
      const sentences = splitSentences(report!.summary)
      expect(sentences.length).toBeGreaterThan(0)
      for (const s of sentences)
        expect(
          own.some((t) => t.includes(s)),
          s,
        ).toBe(true)
    }
  })
})
