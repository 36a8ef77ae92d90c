// `batch: true` on a model: validated like any key, and it changes no resume fingerprint (a batch answers as the synchronous call would).
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { batchOptions } from '../../../src/cli/batch-flags.js'
import { loadConfig } from '../../../src/config/load.js'
import { PIPELINES } from '../../../src/index/plan/pipelines.js'
import { batchModeFor, uncollectedBatchesNotice } from '../../../src/index/run/batch-run.js'
import { createFileLogger } from '../../../src/index/run/file-logger.js'
import { fingerprintWorkflows } from '../../../src/index/plan/plan-fingerprints.js'
import { testdir } from '../../support/testdir.js'

const settings = (batch: string) =>
  `completion_models:\n  default_completion_model:\n    model_provider: openai\n    model: gpt-4.1\n    api_key: sk-a\n${batch}`

describe('batch in model settings', () => {
  it('changes no resume fingerprint', async () => {
    const root = await testdir({ 'input/a.txt': 'Some text.' })
    const load = async (yaml: string) => {
      await writeFile(join(root, 'settings.yaml'), yaml)
      return loadConfig({ root, env: {} }).settings
    }
    const plain = await load(settings(''))
    const batched = await load(settings('    batch: true\n'))
    expect(batched.completion_models.default_completion_model!.batch).toBe(true)
    expect(plain.completion_models.default_completion_model!.batch).toBe(false)
    expect(await fingerprintWorkflows(PIPELINES.standard, batched)).toEqual(
      await fingerprintWorkflows(PIPELINES.standard, plain),
    )
  })

  it('must be true or false, named by its key', async () => {
    const root = await testdir({ 'input/a.txt': 'Some text.', 'settings.yaml': settings('    batch: sometimes\n') })
    expect(() => loadConfig({ root, env: {} })).toThrow(/completion_models\.default_completion_model\.batch/)
  })

  it('--no-wait with nothing to batch is an error, not a run that silently waits for nothing', async () => {
    const root = await testdir({ 'input/a.txt': 'Some text.', 'settings.yaml': settings('') })
    const { settings: loaded } = loadConfig({ root, env: {} })
    const context = { env: {}, log: createFileLogger(join(root, 'test.log'), { verbose: false }), checkpoint() {} }
    expect(() => batchModeFor(loaded, { noWait: true }, context)).toThrow(/^--no-wait: nothing is batched/)
    expect(batchModeFor(loaded, { noWait: false }, context)).toBeUndefined()
    expect(batchModeFor(loaded, { all: true, noWait: true }, context)).toBeDefined()
  })

  it('the batch flags: --batch-fallback takes batch or sync; --shard does not combine with --batch', () => {
    expect(batchOptions({ batch: true, wait: false, batchFallback: 'sync' })).toEqual({
      all: true,
      noWait: true,
      fallback: 'sync',
    })
    expect(() => batchOptions({ batch: true, wait: true, batchFallback: 'later' })).toThrow(
      '--batch-fallback: expected batch or sync, got "later"',
    )
    expect(() => batchOptions({ batch: true, wait: true, batchFallback: 'batch', shard: '1/2' })).toThrow(
      /^--shard and --batch do not combine/,
    )
    expect(batchOptions({ batch: false, wait: true, batchFallback: 'batch', shard: '1/2' }).all).toBe(false)
  })

  it('a run without batch mode is told about batches an earlier --batch run left uncollected', async () => {
    const output = await testdir({
      '.batches/completion_models.default_completion_model/state.json': JSON.stringify({
        version: 1,
        batches: [{ id: 'batch_1', keys: ['k'], submitted: '2026-01-01T00:00:00Z' }],
      }),
      '.batches/embedding_models.default_embedding_model/state.json': '{"version": 1, "batches": []}',
    })
    expect(await uncollectedBatchesNotice(output)).toMatch(
      /^1 batch submitted by an earlier --batch run is not collected by this synchronous run .*run with --batch/,
    )
    expect(await uncollectedBatchesNotice(await testdir({}))).toBeUndefined()
  })
})
