import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RecordingReporter } from '../../../src/index/run/reporter.js'
import { chainFingerprint } from '../../../src/index/plan/plan-fingerprints.js'
import { canonicalJson } from '../../../src/text/canonical-json.js'
import { rerunReason, resumablePrefix, type ResumeRecord, type ResumeState } from '../../../src/index/run/resume.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { StagedTableStore } from '../../../src/index/run/staged-table-store.js'
import { BUILTIN_PROMPTS_DIR } from '../../../src/prompts/prompt-template.js'
import { COVARIATES } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'

const planned = [
  { workflow: 'a', fingerprint: 'fa' },
  { workflow: 'b', fingerprint: 'fb' },
  { workflow: 'c', fingerprint: 'fc' },
]
const state: ResumeState = {
  version: 1,
  completed: [
    { workflow: 'a', fingerprint: 'fa', tables: { documents: 'h1' }, extended: [], failed_items: 0 },
    { workflow: 'b', fingerprint: 'fb', tables: { documents: 'h1', text_units: 'h2' }, extended: [], failed_items: 0 },
  ],
}

describe('resumablePrefix', () => {
  it('skips the finished prefix when the tables on disk are as recorded', () => {
    expect(resumablePrefix(planned, state, { documents: 'h1', text_units: 'h2' })).toBe(2)
  })

  it('falls back to an earlier point when a later table changed or is missing', () => {
    expect(resumablePrefix(planned, state, { documents: 'h1' })).toBe(1)
    expect(resumablePrefix(planned, state, { documents: 'h1', text_units: 'h2', entities: 'later' })).toBe(2)
    expect(resumablePrefix(planned, state, { documents: 'changed' })).toBe(0)
  })

  it('stops at the first workflow whose fingerprint changed', () => {
    const changed = [planned[0]!, { workflow: 'b', fingerprint: 'other' }, planned[2]!]
    expect(resumablePrefix(changed, state, { documents: 'h1', text_units: 'h2' })).toBe(1)
  })

  it('accepts a table a later workflow only extended, and nothing else rewritten', () => {
    const record = (workflow: string, tables: Record<string, string>, extended: string[] = []): ResumeRecord => ({
      workflow,
      fingerprint: `f${workflow}`,
      tables,
      extended,
      failed_items: 0,
    })
    const withFinal: ResumeState = {
      version: 1,
      completed: [
        record('a', { documents: 'input' }),
        record('b', { documents: 'input', text_units: 'h2' }),
        record('c', { documents: 'final', text_units: 'h2' }, ['documents']),
      ],
    }
    const bChanged = [planned[0]!, { workflow: 'b', fingerprint: 'other' }, planned[2]!]
    expect(resumablePrefix(bChanged, withFinal, { documents: 'final', text_units: 'h2' })).toBe(1)
    expect(resumablePrefix(bChanged, withFinal, { documents: 'edited', text_units: 'h2' })).toBe(0)
    const rewritten: ResumeState = {
      version: 1,
      completed: [...withFinal.completed.slice(0, 2), record('c', { documents: 'final', text_units: 'h2' })],
    }
    expect(resumablePrefix(bChanged, rewritten, { documents: 'final', text_units: 'h2' })).toBe(0)
  })

  it('stops before a workflow that finished with failed items, and says why it runs again', () => {
    const failed: ResumeState = {
      version: 1,
      completed: [state.completed[0]!, { ...state.completed[1]!, failed_items: 2 }],
    }
    const current = { documents: 'h1', text_units: 'h2' }
    expect(resumablePrefix(planned, failed, current)).toBe(1)
    expect(rerunReason(planned, failed, 1)).toBe('2 items failed last time')
    expect(rerunReason(planned, state, 2)).toBeUndefined()
  })

  it('chains fingerprints so an upstream change changes every later one', () => {
    const a1 = chainFingerprint('v', 'a', { x: 1 })
    const a2 = chainFingerprint('v', 'a', { x: 2 })
    expect(chainFingerprint(a1, 'b', {})).not.toBe(chainFingerprint(a2, 'b', {}))
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe(canonicalJson({ a: { c: 2, d: 1 }, b: 1 }))
  })
})

describe('StagedTableStore', () => {
  it('keeps writes out of the index until commit, and discards them on failure', async () => {
    const dir = await testdir({})
    const target = new ParquetTableStore(join(dir, 'output'))
    const staged = new StagedTableStore(target, join(dir, 'output', '.staging', 'w'))
    await staged.write(COVARIATES, [])
    expect(await target.has('covariates')).toBe(false)
    expect(await staged.read(COVARIATES)).toEqual([])
    await staged.discard()
    expect(await target.has('covariates')).toBe(false)
    await staged.write(COVARIATES, [])
    await staged.commit()
    expect(await target.has('covariates')).toBe(true)
    expect(existsSync(join(dir, 'output', '.staging', 'w'))).toBe(false)
    expect(await readdir(join(dir, 'output'))).toContain('covariates.parquet')
  })
})

const HARBOUR = [
  'Marta Quill keeps the records of Kettle Harbour. Captain Olsen brings the mail from North Pier every morning.',
  'The Harbour Council meets in the Lantern Hall, where Marta Quill reads the minutes aloud to Captain Olsen.',
].join('\n')
const COUNCIL =
  'Mayor Brandt closed the Fish Market for the winter. Captain Olsen and Mayor Brandt argued at the Lantern Hall.'

async function builtinPrompt(name: string): Promise<string> {
  return readFile(join(BUILTIN_PROMPTS_DIR, name), 'utf8')
}

describe('resume after edits (standard method, fake model server)', () => {
  let llm: FakeLlm
  let root: string
  const settingsPath = () => join(root, 'settings.yaml')
  const index = async () => {
    const reporter = new RecordingReporter()
    const result = await runIndex({ root, skipValidation: true, reporter })
    return { ...result, reporter }
  }

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    root = await testdir({
      'settings.yaml': [
        fakeModelSettingsYaml(llm.baseUrl),
        'vector_store:\n  vector_size: 8',
        'extract_graph:\n  prompt: prompts/extract_graph.txt',
        'community_reports:\n  graph_prompt: prompts/community_report_graph.txt',
        '',
      ].join('\n'),
      'prompts/extract_graph.txt': await builtinPrompt('extract_graph.txt'),
      'prompts/community_report_graph.txt': await builtinPrompt('community_report_graph.txt'),
      'input/harbour.txt': HARBOUR,
      'input/council.txt': COUNCIL,
    })
    const first = await index()
    expect(first.skipped).toEqual([])
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('skips everything when nothing changed', async () => {
    const again = await index()
    expect(again.ran).toEqual([])
  })

  it('re-runs the reports and what follows when the report prompt text changes, nothing before', async () => {
    const file = join(root, 'prompts', 'community_report_graph.txt')
    await writeFile(file, `${await readFile(file, 'utf8')}\nKeep every finding short.\n`)
    const before = llm.requests.length
    const run = await index()
    expect(run.ran).toEqual(['create_community_reports', 'generate_text_embeddings', 'create_chunk_graph'])
    expect(llm.requests.slice(before).some((r) => r.kind === 'community_report')).toBe(true)
  })

  it('re-runs only the embeddings (and the chunk graph after them) when the embedding model changes', async () => {
    const settings = await readFile(settingsPath(), 'utf8')
    await writeFile(settingsPath(), settings.replace('model: text-embedding-3-small', 'model: text-embedding-3-large'))
    const run = await index()
    expect(run.ran).toEqual(['generate_text_embeddings', 'create_chunk_graph'])
  })

  it('re-runs extraction and what follows when the extraction prompt text changes, but not loading or chunking', async () => {
    const file = join(root, 'prompts', 'extract_graph.txt')
    await writeFile(file, `${await readFile(file, 'utf8')}\nPrefer people and places.\n`)
    const run = await index()
    expect(run.skipped).toEqual(['load_input_documents', 'create_base_text_units', 'create_final_documents'])
    expect(run.ran[0]).toBe('extract_graph')
  })

  it('re-runs chunking but not loading when only the chunking settings change', async () => {
    const settings = await readFile(settingsPath(), 'utf8')
    await writeFile(settingsPath(), `${settings}chunking:\n  size: 40\n  overlap: 10\n`)
    const run = await index()
    expect(run.skipped).toEqual(['load_input_documents'])
    expect(run.ran[0]).toBe('create_base_text_units')
  })
})

describe('resume after failed items within the failure budget', () => {
  const failing = { on: true }
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({
      responders: [
        ({ kind, messages }) => {
          const first = messages.find((m) => m.role === 'user')?.content ?? ''
          if (failing.on && kind === 'extract_graph' && first.includes('Mayor Brandt'))
            throw new Error('injected failure')
          return undefined
        },
      ],
    })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('runs the workflow again on the next run, calling the model only for the failed unit, and says why', async () => {
    const root = await testdir({
      'settings.yaml': [
        fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 }),
        'workflows: [load_input_documents, create_base_text_units, extract_graph]',
        'extract_graph:\n  max_failed_fraction: 0.5',
        '',
      ].join('\n'),
      'input/harbour.txt': HARBOUR,
      'input/council.txt': COUNCIL,
    })
    const first = await runIndex({ root, skipValidation: true })
    expect(first.stats.workflows.extract_graph).toMatchObject({
      status: 'succeeded_with_failures',
      failures: [{ item: expect.any(String) }],
    })

    failing.on = false
    const before = llm.requests.length
    const reporter = new RecordingReporter()
    const second = await runIndex({ root, skipValidation: true, reporter })
    expect(second.skipped).toEqual(['load_input_documents', 'create_base_text_units'])
    expect(second.ran).toEqual(['extract_graph'])
    expect(reporter.events.find((e) => e.type === 'pipelineStart')).toMatchObject({
      rerun: { workflow: 'extract_graph', reason: '1 item failed last time' },
    })
    const extraction = llm.requests.slice(before).filter((r) => r.kind === 'extract_graph')
    expect(extraction).toHaveLength(1)
    expect(JSON.stringify(extraction[0]!.body)).toContain('Mayor Brandt')
    expect(second.stats.workflows.extract_graph).toMatchObject({ status: 'succeeded', failures: [] })

    const third = await runIndex({ root, skipValidation: true })
    expect(third.ran).toEqual([])
  })
})
