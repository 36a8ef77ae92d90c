// Every workflow declares the models it calls: runs both pipelines through the fake model server with a
// distinct model id per role and compares the models each workflow really called with its models(settings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import { runIndex } from '../../src/index/run/runner.js'
import { WORKFLOWS, type WorkflowName } from '../../src/index/workflows/index.js'
import { startFakeLlm, type FakeLlm, type Responder } from '../support/fake-llm/index.js'
import { hashUnit } from '../support/fake-llm/responders.js'
import { testdir } from '../support/testdir.js'

const ROLES = { extract: 'gpt-4.1-mini', summarize: 'gpt-4.1', claims: 'gpt-4o-mini', reports: 'gpt-4o' } as const

function settingsYaml(baseUrl: string): string {
  const model = (name: string) =>
    [`    model_provider: openai`, `    model: ${name}`, `    api_key: test-key`, `    api_base: ${baseUrl}`].join('\n')
  return [
    'completion_models:',
    ...Object.entries(ROLES).flatMap(([id, name]) => [`  ${id}:`, model(name)]),
    'embedding_models:',
    '  embed:',
    model('text-embedding-3-small'),
    'extract_graph:\n  completion_model_id: extract',
    'summarize_descriptions:\n  completion_model_id: summarize',
    'extract_claims:\n  enabled: true\n  completion_model_id: claims',
    'community_reports:\n  completion_model_id: reports',
    'embed_text:\n  embedding_model_id: embed',
    'vector_store:\n  vector_size: 8',
    '',
  ].join('\n')
}

const INPUT = {
  'input/harbour.txt':
    'Marta Quill keeps the records of Kettle Harbour. Captain Olsen brings the mail from North Pier. Marta Quill and Captain Olsen meet at the Lantern Hall.',
  'input/council.txt':
    'Mayor Brandt closed the Fish Market. Captain Olsen and Mayor Brandt argued at the Lantern Hall. Marta Quill wrote it down.',
}

/** The same two entities from every text unit, described differently each time, so their descriptions get summarised. */
const SAME_ENTITIES: Responder = ({ kind, messages }) => {
  if (kind !== 'extract_graph') return undefined
  const seen = Math.round(hashUnit(messages.find((m) => m.role === 'user')?.content ?? '') * 1000)
  return (
    [
      `("entity"<|>KETTLE HARBOUR<|>GEO<|>A harbour, seen in passage ${seen})`,
      `("entity"<|>LANTERN HALL<|>GEO<|>A hall, seen in passage ${seen})`,
      `("relationship"<|>KETTLE HARBOUR<|>LANTERN HALL<|>The hall stands by the harbour (passage ${seen})<|>5)`,
    ].join('\n##\n') + '\n<|COMPLETE|>'
  )
}

describe('workflow model declarations', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8, responders: [SAME_ENTITIES] })
  })
  afterAll(async () => {
    await llm?.close()
  })

  /** Workflow → the model ids it made calls to, from the run's usage meters. */
  async function calledModels(
    method: 'standard' | 'fast',
  ): Promise<{ root: string; called: Map<WorkflowName, string[]> }> {
    const root = await testdir({ 'settings.yaml': settingsYaml(llm.baseUrl), ...INPUT })
    const result = await runIndex({ root, method, skipValidation: true })
    const called = new Map<WorkflowName, string[]>()
    for (const name of result.ran) {
      const ids = Object.entries(result.stats.workflows[name]?.llm ?? {})
        .filter(([, usage]) => usage.calls > 0)
        .map(([id]) => id)
      called.set(name, ids.sort())
    }
    return { root, called }
  }

  for (const [method, modelWorkflows] of [
    ['standard', ['extract_graph', 'extract_covariates', 'create_community_reports', 'generate_text_embeddings']],
    ['fast', ['create_community_reports_text', 'generate_text_embeddings']],
  ] as const) {
    it(`${method}: each workflow calls exactly the models it declares`, async () => {
      const { root, called } = await calledModels(method)
      const { settings } = loadConfig({ root, env: {} })
      // Not vacuous: the workflows that should call a model did.
      expect([...called].filter(([, ids]) => ids.length > 0).map(([name]) => name)).toEqual(modelWorkflows)
      for (const [name, ids] of called) {
        const declared = WORKFLOWS[name].models(settings)
        expect({ workflow: name, called: ids }).toEqual({
          workflow: name,
          called: [...declared.chat, ...declared.embedding].sort(),
        })
      }
    })
  }
})
