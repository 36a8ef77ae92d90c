/**
 * The CI pattern of docs/batch.md on object storage (Azurite): one job submits with --no-wait and
 * ends; another job, in a different folder, finds the batch in the work saved in the store,
 * collects it and publishes the index, with no model request repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { useObjectStoreServers } from '../support/object-stores.js'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { testdir } from '../support/testdir.js'
import { FAST_BATCH_ENV, synchronousCalls } from '../index/batch/project.js'

const DOCS: Record<string, string> = {
  'harbour.txt': 'Captain Olsen rang the Fog Bell at Kettle Harbour while Marta Quill counted the boats.',
  'council.txt': 'The Harbour Council met Marta Quill and Captain Olsen to discuss the Lighthouse Fund.',
}

const servers = useObjectStoreServers()

describe('index --batch --no-wait with the index in object storage', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, batch: { pollsBeforeDone: 3 } })
  }, 60_000)
  afterAll(async () => {
    await fake?.close()
  })

  it('a second job in another folder collects the batch the first one submitted and publishes the index', async () => {
    const { azurite } = servers
    const container = await azurite.container(`batch${Date.now()}`)
    const store = new AzureBlobStore({ connectionString: azurite.connectionString, containerName: container })
    for (const [name, text] of Object.entries(DOCS)) await store.put(`input/${name}`, text)
    const keys = `  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n`
    const section = (name: string, base: string) => `${name}:\n  type: blob\n  base_dir: ${base}\n${keys}`
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl),
      'vector_store:\n  vector_size: 8\n',
      section('input_storage', 'input'),
      section('output_storage', 'output'),
      section('update_output_storage', 'update_output'),
      section('reporting', 'logs'),
      `cache:\n  type: json\n  storage:\n    type: blob\n    base_dir: cache\n${keys.replace(/^/gm, '  ')}`,
    ].join('')
    const job = async (args: string[]) =>
      runCli(
        ['index', '--root', await testdir({ 'settings.yaml': settings }), '--skip-validation', '--batch', ...args],
        {
          env: FAST_BATCH_ENV,
        },
      )

    const submit = await job(['--no-wait'])
    expect(submit.code, submit.stderr).toBe(75)
    expect(fake.batchApi.batches).toHaveLength(1)
    const saved = (await store.list('output/.generations/.work/')).map((o) => o.key)
    expect(saved).toContain('output/.generations/.work/state.json')
    const work = await store.get('output/.generations/.work/state.json')
    const files = Object.keys((JSON.parse(new TextDecoder().decode(work!.body)) as { files: object }).files)
    expect(files).toContain('.batches/completion_models.default_completion_model/state.json')

    const collect = await job([])
    expect(collect.code, collect.stderr).toBe(0)
    expect(collect.stderr).toMatch(
      /resuming the unfinished run saved in az:\/\/batch\d+-[0-9a-f]{8}\/output\/\.generations\/\.work/,
    )
    const ids = fake.batchApi.batches.flatMap((b) => b.customIds)
    expect(new Set(ids).size, 'no request submitted twice').toBe(ids.length)
    const answered = fake.requests.filter((r) => r.batchLine !== undefined).map((r) => JSON.stringify(r.body))
    expect(new Set(answered).size, 'no request answered twice').toBe(answered.length)
    expect(synchronousCalls(fake)).toBe(0)
  }, 120_000)
})
