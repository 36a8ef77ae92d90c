// prompt-tune's model replies reach the cache (written in batches, flushed once the learning steps
// end) by the time runPromptTune returns; a second run asks the model nothing.
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runPromptTune } from '../../src/prompt-tune/run.js'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

describe('runPromptTune and the model cache', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 16 })
  })
  afterAll(async () => fake?.close())

  it('every chat reply is in the cache when the run returns, and answers the next run', async () => {
    const root = await testdir({
      'settings.yaml': fakeModelSettingsYaml(fake.baseUrl),
      'input/0.txt': 'The ship Kestrel left the port Harwick under the captain Morrow.',
      'input/1.txt': 'The company Brightwater bought the ship Fulmar from the company Northwind.',
    })
    const chatCalls = (from: number) =>
      fake.requests.slice(from).filter((r) => r.kind !== 'embedding' && r.kind !== 'models')
    let from = fake.requests.length
    await runPromptTune({ root, selectionMethod: 'all', output: 'tuned' })
    const calls = chatCalls(from).length
    expect(calls).toBeGreaterThan(2)
    expect(await keyValueStoreAt(join(root, 'cache')).child('prompt_tune').keys()).toHaveLength(calls)
    from = fake.requests.length
    await runPromptTune({ root, selectionMethod: 'all', output: 'tuned', force: true })
    expect(chatCalls(from)).toHaveLength(0)
  })
})
