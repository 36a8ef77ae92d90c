import { existsSync } from 'node:fs'
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { initProject as initInProcess } from '../../src/config/init-project.js'
import { runIndex } from '../../src/index/run/runner.js'
import { DOCUMENTS } from '../../src/model/index.js'
import { decodeParquet } from '../../src/storage/parquet.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckDescribe } from '../support/duckdb.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

// Each command is spawned once (init, the first index, the missing variable's error); the other runs ask
// the same commands in process (runCliInProcess: same main(), messages and exit codes, no start-up).
const FIRST_THREE = 'workflows: [load_input_documents, create_base_text_units, create_final_documents]\n'

/** An initialized project (init in process: `graphrag init` itself is tested below) limited to the first three workflows. */
async function initProject(): Promise<string> {
  const root = await testdir({})
  await initInProcess({ root })
  const template = await readFile(join(root, 'settings.yaml'), 'utf8')
  expect(template).toMatch(/^workflows: null$/m)
  await writeFile(join(root, 'settings.yaml'), template.replace(/^workflows: null$/m, FIRST_THREE.trim()))
  await writeFile(
    join(root, 'input', 'one.txt'),
    'The lighthouse keeper met the ferry captain at North Pier.\n'.repeat(40),
  )
  await writeFile(
    join(root, 'input', 'two.txt'),
    'The harbour council voted to close the fish market for the winter.\n'.repeat(60),
  )
  return root
}

describe('graphrag init', () => {
  it('writes settings, .env, input/ and 15 prompts (13 for the reference methods, 2 for the chunk graph), says what it wrote, and refuses to overwrite', async () => {
    const root = await testdir({})
    const first = await runCli(['init', '--root', root])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout).toContain('wrote settings.yaml')
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('GRAPHRAG_API_KEY=<API_KEY>\n')
    const prompts = (await readdir(join(root, 'prompts'))).filter((f) => f.endsWith('.txt'))
    expect(prompts).toHaveLength(15)
    expect(prompts).toEqual(expect.arrayContaining(['chunk_graph_edges.txt', 'graph_search_system_prompt.txt']))
    const settings = await readFile(join(root, 'settings.yaml'), 'utf8')
    for (const match of settings.matchAll(/prompts\/([\w.]+\.txt)/g)) expect(prompts).toContain(match[1])
    const again = await runCliInProcess(['init', '--root', root])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('already initialized')
    expect((await runCliInProcess(['init', '--root', root, '--force'])).code).toBe(0)
  })
})

describe('graphrag index (foundation workflows)', () => {
  let root: string
  let firstRun: Awaited<ReturnType<typeof runCli>>

  beforeAll(async () => {
    root = await initProject()
    firstRun = await runCli(['index', '--root', root], { env: { GRAPHRAG_API_KEY: 'unused' } })
  })

  it('writes documents and text_units with the reference DuckDB types', async () => {
    expect(firstRun.code, firstRun.stderr).toBe(0)
    expect(await duckDescribe(join(root, 'output', 'documents.parquet'))).toEqual([
      'id:VARCHAR',
      'human_readable_id:BIGINT',
      'title:VARCHAR',
      'text:VARCHAR',
      'text_unit_ids:VARCHAR[]',
      'creation_date:VARCHAR',
      'raw_data:INTEGER',
    ])
    expect(await duckDescribe(join(root, 'output', 'text_units.parquet'))).toEqual([
      'id:VARCHAR',
      'document_id:VARCHAR',
      'text:VARCHAR',
      'n_tokens:BIGINT',
    ])
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.num_documents).toBe(2)
    expect(Object.keys(stats.workflows)).toEqual([
      'load_input_documents',
      'create_base_text_units',
      'create_final_documents',
    ])
    expect(existsSync(join(root, 'logs', 'indexing-engine.log'))).toBe(true)
    expect(firstRun.stderr).toMatch(/\[\d\d:\d\d:\d\d\] Starting workflow: load_input_documents/)
  })

  it('skips finished workflows on a re-run and says so; --no-resume runs all', async () => {
    const again = await runCliInProcess(['index', '--root', root], { env: { GRAPHRAG_API_KEY: 'unused' } })
    expect(again.code, again.stderr).toBe(0)
    expect(again.stderr).toContain('Resuming: skipping 3 finished workflow(s)')
    expect(again.stderr).not.toContain('Starting workflow')
    const forced = await runCliInProcess(['index', '--root', root, '--no-resume'], {
      env: { GRAPHRAG_API_KEY: 'unused' },
    })
    expect(forced.stderr).toContain('Starting workflow: load_input_documents')
  })

  it('re-runs from loading when an input file changes', async () => {
    await writeFile(join(root, 'input', 'three.txt'), 'A new chapter about Kettle Island.\n')
    const run = await runCliInProcess(['index', '--root', root], { env: { GRAPHRAG_API_KEY: 'unused' } })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('Starting workflow: load_input_documents')
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.num_documents).toBe(3)
  })

  it('resumes after a failed workflow without redoing the finished ones', async () => {
    // Bad settings now fail at load, so block the table's path instead: a folder where
    // text_units.parquet must go makes create_base_text_units fail after loading succeeded.
    const blocked = join(root, 'output', 'text_units.parquet')
    await rm(blocked, { force: true })
    await mkdir(join(blocked, 'obstacle'), { recursive: true })
    const failed = await runCliInProcess(['index', '--root', root, '--no-resume'], {
      env: { GRAPHRAG_API_KEY: 'unused' },
    })
    expect(failed.code).toBe(1)
    const lines = failed.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('graphrag:'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/create_base_text_units/)
    // The failed run works in a copy of output/ (its work generation), which holds the obstacle too.
    await rm(blocked, { recursive: true })
    await rm(join(root, '.output.run', 'work', 'text_units.parquet'), { recursive: true })
    const resumed = await runCliInProcess(['index', '--root', root], { env: { GRAPHRAG_API_KEY: 'unused' } })
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toContain('skipping 1 finished workflow(s) with unchanged inputs (load_input_documents)')
  })
})

describe('graphrag index: one clear line for bad input', () => {
  it('names a missing environment variable', async () => {
    const root = await initProject()
    const run = await runCliInProcess(['index', '--root', root], { env: { GRAPHRAG_API_KEY: undefined } })
    // .env holds the placeholder, so remove it to make the variable really missing.
    expect(run.code).toBe(0)
    await writeFile(join(root, '.env'), '')
    const missing = await runCli(['index', '--root', root, '--no-resume'], { env: { GRAPHRAG_API_KEY: undefined } })
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim().split('\n')).toHaveLength(1)
    expect(missing.stderr).toMatch(/settings\.yaml:\d+: environment variable GRAPHRAG_API_KEY is not set/)
  })

  it('stops before any model call when the API key is still the init placeholder', async () => {
    const root = await testdir({})
    // Init in process (the command is tested above): the index run is what is tested here.
    await initInProcess({ root })
    await writeFile(join(root, 'input', 'a.txt'), 'Marta Quill keeps the town records.')
    const run = await runCliInProcess(['index', '--root', root], { env: { GRAPHRAG_API_KEY: undefined } })
    expect(run.code).toBe(1)
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('graphrag:'))
    expect(lines).toEqual([
      expect.stringContaining('completion_models.default_completion_model.api_key: still the placeholder <API_KEY>'),
    ])
    expect(lines[0]).toContain(join(root, '.env'))
  })

  it('names a settings key with a bad type', async () => {
    const root = await testdir({ 'settings.yaml': 'chunking:\n  size: large\n', 'input/a.txt': 'text' })
    const run = await runCliInProcess(['index', '--root', root])
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toMatch(
      /^graphrag: .*settings\.yaml: chunking\.size: expected an integer from 1 to 10,000,000, got "large"$/,
    )
  })

  it('warns about an unreadable file by name and indexes the rest', async () => {
    // A link to a file that is gone cannot be read even by root (CI runs as root, where chmod 000 does not stop reads).
    const root = await testdir({ 'settings.yaml': FIRST_THREE, 'input/good.txt': 'Readable text about the harbour.' })
    await symlink(join(root, 'elsewhere', 'gone.txt'), join(root, 'input', 'locked.txt'))
    const run = await runCliInProcess(['index', '--root', root])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toMatch(/warning: skipped input file locked\.txt: cannot read: file or link target not found/)
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.num_documents).toBe(1)
    expect(stats.workflows.load_input_documents.counters).toMatchObject({ input_warnings: 1, input_files_skipped: 1 })
    expect(stats.workflows.load_input_documents.warnings).toEqual([expect.stringContaining('locked.txt')])
  })

  it('fails with one line when there are no documents', async () => {
    const root = await testdir({ 'settings.yaml': FIRST_THREE, 'input/.keep': '' })
    const run = await runCliInProcess(['index', '--root', root])
    expect(run.code).toBe(1)
    expect(
      run.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('graphrag:')),
    ).toHaveLength(1)
  })

  it('lists the workflows with --dry-run and exits 0 without writing', async () => {
    const root = await initProject()
    // --skip-validation: the default OpenAI endpoint need not be reachable from the test machine.
    const run = await runCliInProcess(['index', '--root', root, '--dry-run', '--skip-validation'], {
      env: { GRAPHRAG_API_KEY: 'k' },
    })
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('run   load_input_documents')
    expect(existsSync(join(root, 'output', 'documents.parquet'))).toBe(false)
  })
})

/** The reference document's text (it starts with a BOM, which the corpus file lacks). */
async function referenceDocumentText(): Promise<string> {
  const file = sharedPath('reference', 'christmas-carol-index', 'documents.parquet')
  const [doc] = decodeParquet(DOCUMENTS, await readFile(file), file)
  return doc!.text
}

describeShared('golden: Christmas Carol through the CLI', () => {
  it('chunks the reference document into the reference 42 text units', async () => {
    const root = await testdir({
      'settings.yaml': `${FIRST_THREE}chunking:\n  prepend_metadata: [title]\n`,
      'input/a-christmas-carol.txt': await referenceDocumentText(),
    })
    // In process: the chunker is what is tested, not the CLI (tested above).
    await runIndex({ root })
    const { duckQuery } = await import('../support/duckdb.js')
    const diff = await duckQuery(
      `SELECT count(*) AS n FROM (SELECT id, text, n_tokens FROM read_parquet('${sharedPath('reference', 'christmas-carol-index', 'text_units.parquet')}') EXCEPT SELECT id, text, n_tokens FROM read_parquet('${join(root, 'output', 'text_units.parquet')}'))`,
    )
    expect(Number(diff[0]!.n)).toBe(0)
  })
})
