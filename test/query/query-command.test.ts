import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runQueryCommand, type QueryCommandFlags } from '../../src/query/command.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf, userOf } from './support/dulce.js'

function capture(): { write: (t: string) => void; writes: string[]; text: () => string } {
  const writes: string[] = []
  return { write: (t) => void writes.push(t), writes, text: () => writes.join('') }
}

describeShared('runQuery through configured models (in-process CLI command)', () => {
  let fake: FakeLlm
  let root: string
  const flags = (extra: Partial<QueryCommandFlags>): QueryCommandFlags => ({
    method: 'global',
    root,
    data: sharedPath('reference', 'msgr-v3-dulce'),
    communityLevel: 2,
    dynamicCommunitySelection: false,
    responseType: 'Multiple Paragraphs',
    streaming: false,
    json: false,
    verbose: false,
    ...extra,
  })

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION, latency: { fixedMs: 5 } })
    root = fakeProject(fake.baseUrl).root
  })
  afterAll(async () => fake?.close())

  for (const method of ['local', 'global', 'drift', 'basic'] as const) {
    it(`${method} --json prints response, context and usage`, async () => {
      const stdout = capture()
      const stderr = capture()
      await runQueryCommand('Who leads the Paranormal Military Squad?', flags({ method, json: true }), {
        stdout,
        stderr,
      })
      const out = JSON.parse(stdout.text()) as {
        method: string
        response: string
        context: Record<string, unknown[]>
        usage: { calls: number; costUsd: number; byStep: Record<string, unknown> }
      }
      expect(out.method).toBe(method)
      expect(out.response.length).toBeGreaterThan(0)
      expect(Object.keys(out.context).length).toBeGreaterThan(0)
      expect(out.usage.calls).toBeGreaterThan(0)
      expect(out.usage.costUsd).toBeGreaterThan(0)
      expect(stderr.text()).toBe('')
    })
  }

  it('--streaming writes the answer chunk by chunk, then one newline', async () => {
    const stdout = capture()
    const result = await runQueryCommand('Who is Alex Mercer?', flags({ method: 'local', streaming: true }), {
      stdout,
      stderr: capture(),
    })
    const chunks = stdout.writes.slice(0, -1)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(result.response)
    expect(result.response).toMatch(/^## Answer[\s\S]*[^\n]$/)
    expect(stdout.writes.at(-1)).toBe('\n')
  })

  it('without --streaming writes the whole answer at once', async () => {
    const stdout = capture()
    const result = await runQueryCommand('Who is Alex Mercer?', flags({ method: 'local' }), {
      stdout,
      stderr: capture(),
    })
    expect(stdout.writes).toEqual([`${result.response}\n`])
  })

  const CONVERSATION =
    '-----Conversation History-----\nturn|content\nuser|Tell me about Jordan Hayes.\nassistant|Jordan Hayes is a scientist.\n'
  const askWithHistory = async (extra: Partial<QueryCommandFlags>, warning?: RegExp) => {
    const file = join(root, 'history.json')
    writeFileSync(
      file,
      JSON.stringify([
        { role: 'user', content: 'Tell me about Jordan Hayes.' },
        { role: 'assistant', content: 'Jordan Hayes is a scientist.' },
      ]),
    )
    fake.requests.length = 0
    const stderr = capture()
    const result = await runQueryCommand('And who do they work with?', flags({ ...extra, history: file }), {
      stdout: capture(),
      stderr,
    })
    if (warning === undefined) expect(stderr.text()).toBe('')
    else expect(stderr.text()).toMatch(warning)
    return result
  }
  const firstEmbedding = () => JSON.stringify(fake.requests.find((r) => r.kind === 'embedding')!.body)

  it('--history adds the conversation to the context and to entity mapping', async () => {
    await askWithHistory({ method: 'local' })
    expect(firstEmbedding()).toContain('And who do they work with?\\nTell me about Jordan Hayes.')
    const prompt = systemOf(fake.requests.find((r) => r.kind === 'local_search')!.body)
    expect(prompt).toContain(CONVERSATION)
  })

  it('--history in basic search: the conversation precedes the passages, the earlier question joins the search text', async () => {
    const result = await askWithHistory({ method: 'basic' })
    expect(firstEmbedding()).toContain('And who do they work with?\\nTell me about Jordan Hayes.')
    const prompt = systemOf(fake.requests.find((r) => r.kind === 'basic_search')!.body)
    expect(prompt).toContain(`${CONVERSATION}\n-----Sources-----\nid|text\n`)
    expect(result.context['conversation history']).toHaveLength(2)
  })

  it('--history in graph search: the conversation precedes the walked passages, as in basic search', async () => {
    // The Dulce index has no chunk graph: the walk stays at its vector seeds, which is enough here.
    const result = await askWithHistory({ method: 'graph' }, /^graphrag: warning: the index has no chunk_edges/)
    const answer = fake.requests.find((r) => r.kind !== 'embedding')!
    // The graph search prompt (the excerpts were reached by links), not basic search's.
    expect(systemOf(answer.body)).toContain('others were reached by following links between excerpts')
    expect(systemOf(answer.body)).toContain(`${CONVERSATION}\n-----Sources-----\n`)
    expect(result.context['conversation history']).toHaveLength(2)
    expect(result.context.sources!.length).toBeGreaterThan(0)
  })

  it('--history in DRIFT search reaches the HyDE and primer prompts, every local step and the reduce', async () => {
    const drift = fakeProject(
      fake.baseUrl,
      'drift_search:\n  n_depth: 1\n  drift_k_followups: 2\n  primer_folds: 1',
    ).root
    await askWithHistory({ method: 'drift', root: drift })
    const chats = (kind: string) => fake.requests.filter((r) => r.kind === kind)
    const hyde = chats('unknown').filter((r) => userOf(r.body).startsWith('Write a hypothetical answer'))
    expect(hyde).toHaveLength(1)
    expect(userOf(hyde[0]!.body)).toContain(
      `Question: And who do they work with?\n\nThe question continues this conversation:\n${CONVERSATION}`,
    )
    expect(chats('drift_primer')).toHaveLength(1)
    expect(userOf(chats('drift_primer')[0]!.body)).toContain(CONVERSATION)
    expect(chats('drift_local')).toHaveLength(2)
    for (const step of chats('drift_local')) expect(systemOf(step.body)).toContain(CONVERSATION)
    expect(chats('drift_reduce')).toHaveLength(1)
    expect(systemOf(chats('drift_reduce')[0]!.body)).toContain(`${CONVERSATION}\n----Note 1----`)
  })
})
