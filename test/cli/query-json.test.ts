// One answer shape for every search method, from `graphrag query --json` and from `POST /query`,
// validated against docs/schemas/query-response.schema.json; and one refusal of an empty question
// from both, before any model is called. Runs on a copy of the Dulce reference index with the fake
// OpenAI server answering.
import { cpSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { QueryError } from '../../src/errors.js'
import type { QueryCommandFlags } from '../../src/query/command.js'
import type { SearchMethod } from '../../src/query/index.js'
import { EMPTY_QUESTION } from '../../src/query/question.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { runQueryInProcess } from '../support/query-command.js'
import { expectQueryResponse } from '../support/query-response-schema.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const METHODS: SearchMethod[] = ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy']
const QUESTION = 'What is Operation Dulce about?'

async function ask(root: string, question: string, method: SearchMethod, extra: Partial<QueryCommandFlags> = {}) {
  return (await runQueryInProcess(root, question, method, extra)).stdout
}

describeShared('query --json and POST /query: one documented shape for every method', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 3072 })
    root = await testdir()
    // A small DRIFT (one primer batch, one round of two follow-ups): the shape is the same, the calls fewer.
    const drift = 'drift_search:\n  primer_folds: 1\n  drift_k_followups: 2\n  n_depth: 1\n'
    writeFileSync(join(root, 'settings.yaml'), `${fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 })}\n${drift}`)
    cpSync(sharedPath('reference', 'msgr-v3-dulce'), join(root, 'output'), { recursive: true })
    server = await startServer({ root, port: 0, host: '127.0.0.1', env: {} })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it.each(METHODS)('%s: query --json follows the schema', async (method) => {
    const out = JSON.parse(await ask(root, QUESTION, method)) as Record<string, unknown>
    expectQueryResponse(out)
    expect(out.method).toBe(method)
    expect(Object.keys(out).slice(0, 6)).toEqual(['method', 'response', 'answer', 'context', 'usage', 'warnings'])
    expect(out.answer).toBe(out.response)
  })

  it('hybrid --explain adds the ranking, still within the schema', async () => {
    const out = JSON.parse(await ask(root, QUESTION, 'hybrid', { explain: true })) as { ranking: unknown[] }
    expectQueryResponse(out)
    expect(out.ranking.length).toBeGreaterThan(0)
  })

  it('POST /query answers with the same shape as query --json', async () => {
    for (const method of ['local', 'hybrid'] as const) {
      const res = await fetch(`${server.url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION, method }),
      })
      expect(res.status).toBe(200)
      const body = (await res.json()) as Record<string, unknown>
      expectQueryResponse(body)
      const cli = JSON.parse(await ask(root, QUESTION, method)) as Record<string, unknown>
      expect(Object.keys(body)).toEqual(Object.keys(cli))
    }
  })

  it('hybrid uses --history as the other methods do: the turns precede the sources in the prompt', async () => {
    const history = join(root, 'history.json')
    const turns = [
      { role: 'user', content: 'Who leads the Paranormal Military Squad?' },
      { role: 'assistant', content: 'Agent Alex Mercer leads it.' },
    ]
    writeFileSync(history, JSON.stringify(turns))
    fake.requests.length = 0
    const out = JSON.parse(await ask(root, 'What did he decide?', 'hybrid', { history })) as {
      context: Record<string, unknown[]>
    }
    expectQueryResponse(out)
    expect(out.context['conversation history']).toEqual([
      { turn: 'user', content: turns[0]!.content },
      { turn: 'assistant', content: turns[1]!.content },
    ])
    const answer = fake.requests.find((r) => r.kind === 'hybrid_search')!
    const system = (answer.body as { messages: Array<{ role: string; content: string }> }).messages[0]!.content
    expect(system).toContain('Agent Alex Mercer leads it.')
    expect(system.indexOf('Agent Alex Mercer leads it.')).toBeLessThan(system.indexOf('[S1] ('))
    // The follow-up is embedded together with the earlier question, so it finds its subject.
    const embedded = fake.requests.filter((r) => r.kind === 'embedding').map((r) => JSON.stringify(r.body))
    expect(embedded.some((b) => b.includes('What did he decide?') && b.includes('Paranormal Military Squad'))).toBe(
      true,
    )
  })

  it('--context-only and --prompt-only (context_only, prompt_only): the context or the prompt, no chat call; other methods refused', async () => {
    const full = JSON.parse(await ask(root, QUESTION, 'local')) as Record<string, unknown>
    fake.requests.length = 0
    const context = JSON.parse(await ask(root, QUESTION, 'local', { contextOnly: true })) as Record<string, unknown>
    expectQueryResponse(context)
    expect(fake.requests.filter((r) => r.kind !== 'embedding')).toEqual([])
    // The response is the context text the model reads: the CSV tables of the answer's context.
    expect(context.response).toMatch(/^-----Entities-----\n/m)
    expect(context.context).toEqual(full.context)
    const prompt = (await runQueryInProcess(root, QUESTION, 'basic', { promptOnly: true, json: false })).stdout
    expect(prompt).toMatch(/^---system---\n/)
    expect(prompt).toContain(`\n---user---\n${QUESTION}\n`)
    expect(prompt).toContain('-----Sources-----')
    expect(fake.requests.filter((r) => r.kind !== 'embedding')).toEqual([])
    await expect(ask(root, QUESTION, 'global', { contextOnly: true })).rejects.toThrow(
      /^context only: available with local, basic, graph search \(global search asks the model more than once\)$/,
    )
    await expect(ask(root, QUESTION, 'local', { contextOnly: true, promptOnly: true })).rejects.toThrow(/choose one/)
    const post = (body: Record<string, unknown>) =>
      fetch(`${server.url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: QUESTION, ...body }),
      })
    const served = await post({ method: 'local', context_only: true })
    expect(served.status).toBe(200)
    expect(((await served.json()) as { response: string }).response).toBe(context.response)
    const refused = await post({ method: 'drift', prompt_only: true })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'prompt_only: only available with method local, basic, graph',
    )
    expect(fake.requests.filter((r) => r.kind !== 'embedding')).toEqual([])
  })

  it('an empty or whitespace-only question is refused by the CLI and the server with the same message, no model called', async () => {
    fake.requests.length = 0
    for (const question of ['', '   \n\t'])
      await expect(ask(root, question, 'local')).rejects.toEqual(new QueryError(EMPTY_QUESTION))
    const cli = await runCli(['query', '  ', '--root', root, '--method', 'basic'])
    expect(cli.code).toBe(1)
    expect(cli.stderr).toBe(`graphrag: ${EMPTY_QUESTION}\n`)
    const res = await fetch(`${server.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: ' \n ', method: 'hybrid' }),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(EMPTY_QUESTION)
    expect(fake.requests).toEqual([])
  })
})
