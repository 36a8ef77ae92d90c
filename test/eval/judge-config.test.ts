// eval.judge_model_id: null means no judge; an id that names no completion model is one clear error.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { createJudge } from '../../src/eval/judge.js'
import { testdir } from '../support/testdir.js'

describe('eval.judge_model_id', () => {
  it('defaults to null (no judge) with top_k 10', async () => {
    const { settings } = loadConfig({ root: await testdir({ 'settings.yaml': 'completion_models: {}\n' }) })
    expect(settings.eval).toEqual({ judge_model_id: null, top_k: 10 })
    expect(createJudge(settings)).toBeUndefined()
  })

  it('names the key and the configured models when the id is unknown', async () => {
    const yaml =
      'completion_models:\n  small:\n    model_provider: openai\n    model: gpt-4.1-mini\n    api_key: k\neval:\n  judge_model_id: big\n'
    const { settings } = loadConfig({ root: await testdir({ 'settings.yaml': yaml }) })
    expect(() => createJudge(settings)).toThrow(
      'eval.judge_model_id: no completion_models entry "big" (configured: small)',
    )
  })
})
