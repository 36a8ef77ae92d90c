// Resume fingerprints: a setting that changes a workflow's output changes its fingerprint and every later one.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import type { Settings } from '../../../src/config/schema.js'
import { PIPELINES } from '../../../src/index/plan/pipelines.js'
import { fingerprintWorkflows } from '../../../src/index/plan/plan-fingerprints.js'
import { testdir } from '../../support/testdir.js'

/** The chat model's settings entry; `extra` adds indented lines (call_args, retry). */
const model = (key: string, extra = '') =>
  `completion_models:\n  default_completion_model:\n    model_provider: openai\n    model: gpt-4.1\n    api_key: ${key}\n${extra}`

/** Settings loaded from one project folder (the input folder's path is part of the loading fingerprint). */
async function project(): Promise<(yaml: string) => Promise<Settings>> {
  const root = await testdir({ 'input/a.txt': 'Some text.' })
  return async (yaml) => {
    await writeFile(join(root, 'settings.yaml'), yaml)
    return loadConfig({ root, env: {} }).settings
  }
}

/** The first workflow of the standard pipeline whose fingerprint differs between the two settings. */
async function firstChanged(a: Settings, b: Settings): Promise<string | undefined> {
  const [fa, fb] = [
    await fingerprintWorkflows(PIPELINES.standard, a),
    await fingerprintWorkflows(PIPELINES.standard, b),
  ]
  return fa.find((w, i) => w.fingerprint !== fb[i]!.fingerprint)?.name
}

describe('resume fingerprints', () => {
  it('are equal for equal settings', async () => {
    const load = await project()
    expect(await firstChanged(await load(model('sk-a')), await load(model('sk-a')))).toBeUndefined()
  })

  it('change at create_communities when max_cluster_size changes', async () => {
    const load = await project()
    expect(
      await firstChanged(
        await load(model('sk-a')),
        await load(`${model('sk-a')}cluster_graph:\n  max_cluster_size: 3\n`),
      ),
    ).toBe('create_communities')
  })

  it('change at the first workflow that calls the model when its call_args (temperature) change', async () => {
    const load = await project()
    expect(
      await firstChanged(
        await load(model('sk-a')),
        await load(model('sk-a', '    call_args:\n      temperature: 0.7\n')),
      ),
    ).toBe('extract_graph')
  })

  it('ignore the api key and retry settings, which do not change what a model returns', async () => {
    const load = await project()
    expect(
      await firstChanged(await load(model('sk-a')), await load(model('sk-b', '    retry:\n      max_retries: 9\n'))),
    ).toBeUndefined()
  })
})
