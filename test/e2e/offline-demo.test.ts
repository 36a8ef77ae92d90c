import { cp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { connect } from '@lancedb/lancedb'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli, type CliResult } from '../support/cli.js'
import { duckDescribe } from '../support/duckdb.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

/** The README's main command on a copy of fixtures/demo (the repository itself stays clean). */
describe('offline demo (README main command)', () => {
  let root: string
  let run: CliResult
  let seconds: number

  beforeAll(async () => {
    root = join(await testdir({}), 'demo')
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
    for (const generated of ['output', 'cache', 'logs']) await rm(join(root, generated), { recursive: true, force: true })
    const started = performance.now()
    run = await runCli(['index', '--root', root], { env: { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined } })
    seconds = (performance.now() - started) / 1000
  }, 300_000)

  it('indexes with no key and prints where the outputs are', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(join(root, 'output'))
    expect(run.stderr).toContain('lancedb')
    console.log(`offline demo index: ${seconds.toFixed(1)} s`)
  })

  it('writes every table the standard method writes, with the same schemas', async () => {
    const files = await readdir(join(root, 'output'))
    for (const table of ['documents', 'text_units', 'entities', 'relationships', 'communities', 'community_reports']) {
      expect(files).toContain(`${table}.parquet`)
    }
    expect(await duckDescribe(join(root, 'output', 'entities.parquet'))).toEqual([
      'id:VARCHAR', 'human_readable_id:BIGINT', 'title:VARCHAR', 'type:VARCHAR', 'description:VARCHAR', 'text_unit_ids:VARCHAR[]', 'frequency:BIGINT', 'degree:BIGINT',
    ])
    expect(await duckDescribe(join(root, 'output', 'community_reports.parquet'))).toContain('findings:STRUCT(explanation VARCHAR, summary VARCHAR)[]')
    const db = await connect(join(root, 'output', 'lancedb'))
    expect((await db.tableNames()).sort()).toEqual(['community_full_content', 'entity_description', 'text_unit_text'])
  })

  it('answers local and basic questions offline with the ranked context', async () => {
    for (const method of ['local', 'basic']) {
      const answer = await runCli(['query', 'What happened to the ferry Kittiwake?', '--root', root, '--method', method])
      expect(answer.code, answer.stderr).toBe(0)
      expect(answer.stdout).toContain('No completion model is configured')
      expect(answer.stdout).toMatch(method === 'local' ? /## Entities/ : /## Sources/)
    }
    const global = await runCli(['query', 'What are the main themes?', '--root', root, '--method', 'global'])
    expect(global.code).toBe(1)
    expect(global.stderr).toContain('global_search.completion_model_id')
  })
})
