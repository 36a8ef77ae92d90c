import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runQueryCommand, type QueryCommandFlags } from '../../src/query/command.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf } from './support/dulce.js'

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
      await runQueryCommand('Who leads the Paranormal Military Squad?', flags({ method, json: true }), { stdout, stderr })
      const out = JSON.parse(stdout.text()) as { method: string; response: string; context: Record<string, unknown[]>; usage: { calls: number; costUsd: number; byStep: Record<string, unknown> } }
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
    const result = await runQueryCommand('Who is Alex Mercer?', flags({ method: 'local', streaming: true }), { stdout, stderr: capture() })
    const chunks = stdout.writes.slice(0, -1)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(result.response)
    expect(result.response).toMatch(/^## Answer[\s\S]*[^\n]$/)
    expect(stdout.writes.at(-1)).toBe('\n')
  })

  it('without --streaming writes the whole answer at once', async () => {
    const stdout = capture()
    const result = await runQueryCommand('Who is Alex Mercer?', flags({ method: 'local' }), { stdout, stderr: capture() })
    expect(stdout.writes).toEqual([`${result.response}\n`])
  })

  it('--history adds the conversation to the context and to entity mapping', async () => {
    const file = join(root, 'history.json')
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'Tell me about Jordan Hayes.' }, { role: 'assistant', content: 'Jordan Hayes is a scientist.' }]))
    fake.requests.length = 0
    await runQueryCommand('And who do they work with?', flags({ method: 'local', history: file }), { stdout: capture(), stderr: capture() })
    const embed = fake.requests.find((r) => r.kind === 'embedding')!
    expect(JSON.stringify(embed.body)).toContain('And who do they work with?\\nTell me about Jordan Hayes.')
    const prompt = systemOf(fake.requests.find((r) => r.kind === 'local_search')!.body)
    expect(prompt).toContain('-----Conversation History-----\nturn|content\nuser|Tell me about Jordan Hayes.\nassistant|Jordan Hayes is a scientist.\n')
  })
})
