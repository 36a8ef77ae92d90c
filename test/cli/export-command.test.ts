import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'
import { ENTITY_ROWS, handMadeIndex, RELATIONSHIP_ROWS } from '../export/fixture.js'

let data: string
beforeAll(async () => {
  data = await handMadeIndex()
})

describe('graphrag export (built CLI)', () => {
  it('writes GraphML to stdout with --out -, and the summary to stderr', async () => {
    const result = await runCli(['export', '--data', data, '--format', 'graphml', '--level', '1', '--out', '-'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.startsWith('<?xml')).toBe(true)
    expect(result.stdout.match(/<node /g)).toHaveLength(ENTITY_ROWS.length)
    expect(result.stdout.match(/<edge /g)).toHaveLength(RELATIONSHIP_ROWS.length)
    expect(result.stderr).toBe(
      `graphrag: exported ${ENTITY_ROWS.length} entities, ${RELATIONSHIP_ROWS.length} relationships, communities at level 1\n`,
    )
  })

  it('writes nodes.csv and edges.csv into the --out folder and lists them', async () => {
    const out = join(data, 'csv-out')
    const result = await runCliInProcess(['export', '--data', data, '--format', 'csv', '--out', out])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(join(out, 'nodes.csv'))
    expect((await readFile(join(out, 'edges.csv'), 'utf8')).split('\n')[0]).toBe(
      'id,source,target,description,weight,combined_degree,human_readable_id',
    )
  })

  it('fails with one line naming the problem: unknown format, missing level, no index', async () => {
    const format = await runCliInProcess(['export', '--data', data, '--format', 'dot'])
    expect(format.code).toBe(1)
    expect(format.stderr).toContain('expected one of graphml, gexf, json, csv, html')
    const level = await runCliInProcess(['export', '--data', data, '--level', '7'])
    expect(level.code).toBe(1)
    expect(level.stderr).toBe('graphrag: --level 7: the index has community levels 0, 1\n')
    const empty = await testdir()
    const missing = await runCliInProcess(['export', '--data', empty])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain(`the index has no entities table (${join(empty, 'entities.parquet')})`)
  })
})
