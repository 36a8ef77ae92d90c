// lazy_search.relevance_model_id is checked like every other model reference: said at serve's
// start-up, and a lazy query that needs it fails naming the key.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/index.js'
import { runQuery } from '../../../src/query/index.js'
import { searchModelProblems } from '../../../src/query/models.js'
import { fakeModelSettingsYaml } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'

describe('lazy_search.relevance_model_id', () => {
  it('naming no model is a problem said with its key, and a lazy query fails with it', async () => {
    // Port 9 (discard): no model is ever called.
    const yaml = `${fakeModelSettingsYaml('http://127.0.0.1:9')}lazy_search:\n  relevance_model_id: nosuch\n`
    const root = await testdir({ 'settings.yaml': yaml })
    const message =
      'lazy_search.relevance_model_id: no completion_models entry "nosuch" (configured: default_completion_model)'
    expect(searchModelProblems(loadConfig({ root }).settings)).toEqual([message])
    await expect(runQuery({ method: 'lazy', root, query: 'Who keeps the lighthouse?' })).rejects.toThrow(message)
  })

  it('is no problem when unset (the completion model tests relevance)', async () => {
    const root = await testdir({ 'settings.yaml': fakeModelSettingsYaml('http://127.0.0.1:9') })
    expect(searchModelProblems(loadConfig({ root }).settings)).toEqual([])
  })
})
