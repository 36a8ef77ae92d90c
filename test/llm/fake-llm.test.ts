import OpenAI, { AzureOpenAI } from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeEmbedding, replayExpectations, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { formatPrompt, loadPrompt } from '../../src/prompts/prompt-template.js'
import { describeShared } from '../support/shared.js'

const client = (fake: FakeLlm, apiKey = 'test-key') =>
  new OpenAI({ apiKey, baseURL: fake.baseUrl, maxRetries: 0, timeout: 5_000 })

describe('fake OpenAI server', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, fixedEmbeddings: { pinned: [1, 0, 0] } })
  })
  afterAll(() => fake.close())

  it('answers chat completions with usage and logs the request', async () => {
    const reply = await client(fake).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'This is an LLM connectivity test. Say Hello World' }],
    })
    expect(reply.choices[0]!.message.content).toBe('Hello World')
    expect(reply.usage!.prompt_tokens).toBeGreaterThan(5)
    expect(reply.usage!.completion_tokens).toBe(2)
    const last = fake.requests.at(-1)!
    expect(last).toMatchObject({
      kind: 'preflight',
      status: 200,
      stream: false,
      model: 'gpt-4.1',
      path: '/v1/chat/completions',
    })
  })

  it('a community report cites rows of the Entities table, not the first numbers of the context', async () => {
    const input_text = [
      '-----Entities-----',
      'human_readable_id,title,description,degree',
      '12,GULL,Gull is mentioned in the text,2',
      '13,POINT,Point is mentioned in the text,2',
      '',
      '-----Relationships-----',
      'human_readable_id,source,target,description,combined_degree',
      '40,GULL,POINT,GULL appears together with POINT,4',
      '',
    ].join('\n')
    const reply = await client(fake).chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        {
          role: 'user',
          content: formatPrompt(loadPrompt(null, 'community_report_graph.txt', 't'), {
            input_text,
            max_report_length: '500',
          }),
        },
      ],
    })
    const report = JSON.parse(reply.choices[0]!.message.content!) as { summary: string }
    expect(report.summary).toContain('[Data: Entities (12, 13)]')
  })

  it('streams SSE chunks with a usage chunk', async () => {
    const stream = await client(fake).chat.completions.create({
      model: 'gpt-4.1',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        {
          role: 'system',
          content: formatPrompt(loadPrompt(null, 'basic_search_system_prompt.txt', 't'), {
            response_type: 'x',
            context_data: 'id|text\n7|Anna sails',
          }),
        },
        { role: 'user', content: 'Who sails?' },
      ],
    })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined | null
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      usage = chunk.usage ?? usage
    }
    expect(text).toContain('[Data: Sources (7)]')
    expect(usage!.completion_tokens).toBeGreaterThan(0)
    expect(fake.requests.at(-1)).toMatchObject({ kind: 'basic_search', stream: true })
  })

  it('returns JSON matching a json_schema request nobody recognises', async () => {
    const reply = await client(fake).chat.completions.create({
      model: 'gpt-4.1',
      messages: [{ role: 'user', content: 'anything' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'x',
          schema: {
            type: 'object',
            properties: { a: { type: 'array', items: { type: 'string' } }, n: { type: 'integer' } },
          },
        },
      },
    })
    expect(JSON.parse(reply.choices[0]!.message.content!)).toEqual({ a: ['text'], n: 1 })
  })

  it('embeds deterministically in float and base64 formats', async () => {
    const c = client(fake)
    const float = await c.embeddings.create({ model: 'e', input: ['a', 'pinned'], encoding_format: 'float' })
    const base64 = await c.embeddings.create({ model: 'e', input: ['a'] })
    expect(float.data[0]!.embedding).toEqual(fakeEmbedding('a', 8))
    expect(float.data[1]!.embedding).toEqual([1, 0, 0])
    // float32 numbers, as a real provider's: both formats carry the same vector exactly.
    expect(base64.data[0]!.embedding).toEqual(fakeEmbedding('a', 8))
    expect(Math.hypot(...float.data[0]!.embedding)).toBeCloseTo(1, 6)
    const sized = await c.embeddings.create({ model: 'e', input: 'a', encoding_format: 'float', dimensions: 3 })
    expect(sized.data[0]!.embedding).toHaveLength(3)
  })

  it('rejects bad-key with an OpenAI-style 401 that echoes the key (short keys whole, long ones masked)', async () => {
    await expect(client(fake, 'bad-key').models.list()).rejects.toMatchObject({ status: 401 })
    // The echo is what makes the "no key in auth errors" tests able to fail.
    const short = await fetch(`${fake.baseUrl}/models`, { headers: { authorization: 'Bearer bad-key' } })
    expect(((await short.json()) as { error: { message: string } }).error.message).toContain(
      'Incorrect API key provided: bad-key.',
    )
    const long = await fetch(`${fake.baseUrl}/models`, {
      headers: { authorization: 'Bearer bad-key-0123456789abcdef' },
    })
    const message = ((await long.json()) as { error: { message: string } }).error.message
    expect(message).toContain(`bad${'*'.repeat(17)}cdef`)
    expect(message).not.toContain('0123456789')
  })

  it('serves Azure deployment paths', async () => {
    const azure = new AzureOpenAI({
      apiKey: 'k',
      endpoint: `http://127.0.0.1:${fake.port}`,
      apiVersion: '2024-10-21',
      deployment: 'my-dep',
      maxRetries: 0,
    })
    const reply = await azure.chat.completions.create({
      model: '',
      messages: [{ role: 'user', content: 'This is an LLM connectivity test. Say Hello World' }],
    })
    expect(reply.choices[0]!.message.content).toBe('Hello World')
    expect(fake.requests.at(-1)).toMatchObject({ path: '/openai/deployments/my-dep/chat/completions', model: 'my-dep' })
    const emb = await azure.embeddings.create({ model: '', input: ['x'], encoding_format: 'float' })
    expect(emb.data[0]!.embedding).toHaveLength(8)
  })

  it('injects seeded faults: 429 with Retry-After, 500, truncated, malformed, hang', async () => {
    const c = client(fake)
    const ask = () => c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    fake.setFaults({ rate: 1, kinds: ['429'], retryAfterSeconds: 0.25 })
    const err = (await ask().catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>
    expect(err.status).toBe(429)
    expect(err.headers?.get('retry-after')).toBe('0.25')
    fake.setFaults({ rate: 1, kinds: ['500'] })
    await expect(ask()).rejects.toMatchObject({ status: 500 })
    fake.setFaults({ rate: 1, kinds: ['truncated'] })
    await expect(ask()).rejects.toThrow()
    fake.setFaults({ rate: 1, kinds: ['malformed'] })
    await expect(ask()).rejects.toThrow()
    fake.setFaults({ rate: 1, kinds: ['hang'] })
    await expect(
      new OpenAI({ apiKey: 'k', baseURL: fake.baseUrl, maxRetries: 0, timeout: 200 }).chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow(/timed out/i)
    fake.setFaults(undefined)
    await expect(ask()).resolves.toBeDefined()
    // The same seed gives the same fault sequence.
    const pattern = async () => {
      fake.setFaults({ rate: 0.5, kinds: ['500'], seed: 42 })
      const out: boolean[] = []
      for (let i = 0; i < 10; i++)
        out.push(
          await ask().then(
            () => true,
            () => false,
          ),
        )
      return out
    }
    expect(await pattern()).toEqual(await pattern())
    fake.setFaults(undefined)
  })

  it('applies fixed latency', async () => {
    const slow = await startFakeLlm({ latency: { fixedMs: 150 } })
    const started = performance.now()
    await client(slow).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
    await slow.close()
  })
})

describeShared('fake OpenAI server: Christmas Carol replay', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ replay: 'christmas-carol' })
  })
  afterAll(() => fake.close())

  it('replays a unit in two parts: two thirds first, the rest on gleaning, then N', async () => {
    const units = Object.values(replayExpectations())
    expect(units).toHaveLength(42)
    const unit = units.find((u) => u.entities.length > 5 && u.relationships.length > 5)!
    const extract = formatPrompt(loadPrompt(null, 'extract_graph.txt', 't'), {
      entity_types: 'ORGANIZATION,PERSON,GEO,EVENT',
      input_text: unit.text,
    })
    const c = client(fake)
    const first = (await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: extract }] }))
      .choices[0]!.message.content!
    expect(first.trimEnd().endsWith('<|COMPLETE|>')).toBe(true)
    expect(first).not.toMatch(/##\s*<\|COMPLETE\|>/)
    const history = [
      { role: 'user' as const, content: extract },
      { role: 'assistant' as const, content: first },
      { role: 'user' as const, content: loadPrompt(null, 'internal/extract_graph_continue.txt', 't') },
    ]
    const second = (await c.chat.completions.create({ model: 'm', messages: history })).choices[0]!.message.content!
    const records = (text: string) =>
      text
        .replace('<|COMPLETE|>', '')
        .split('##')
        .map((r) => r.trim())
        .filter((r) => r !== '')
    const all = [...records(first), ...records(second)]
    expect(records(first)).toHaveLength(unit.firstReplyRecords)
    expect(all).toHaveLength(unit.entities.length + unit.relationships.length)
    const rel = unit.relationships[0]!
    expect(all).toContain(`("relationship"<|>${rel.source}<|>${rel.target}<|>${rel.description}<|>${rel.strength})`)
    const loop = await c.chat.completions.create({
      model: 'm',
      messages: [
        ...history,
        { role: 'assistant', content: second },
        { role: 'user', content: loadPrompt(null, 'internal/extract_graph_loop.txt', 't') },
      ],
    })
    expect(loop.choices[0]!.message.content).toBe('N')
  })

  it('replays claims in two parts (two thirds first, the rest on gleaning) and the report of the best-matching community', async () => {
    const unit = Object.values(replayExpectations()).find((u) => u.claims.length >= 3)!
    const claimsPrompt = formatPrompt(loadPrompt(null, 'extract_claims.txt', 't'), {
      entity_specs: 'person',
      claim_description: 'x',
      input_text: unit.text,
    })
    const c = client(fake)
    const claims = (
      await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: claimsPrompt }] })
    ).choices[0]!.message.content!
    expect(claims.split('##')).toHaveLength(unit.firstReplyClaims)
    expect(claims).toContain(unit.claims[0]!.description)
    const history = [
      { role: 'user' as const, content: claimsPrompt },
      { role: 'assistant' as const, content: claims },
      { role: 'user' as const, content: loadPrompt(null, 'internal/extract_claims_continue.txt', 't') },
    ]
    const rest = (await c.chat.completions.create({ model: 'm', messages: history })).choices[0]!.message.content!
    expect(rest.split('##')).toHaveLength(unit.claims.length - unit.firstReplyClaims)
    const last = unit.claims.at(-1)!
    expect(rest).toContain(`(${last.subject}<|>${last.object}<|>${last.type}<|>`)
    const table =
      "-----Entities-----\nhuman_readable_id,title,description,degree\n1,JACOB MARLEY,Scrooge's late partner,5\n2,EBENEZER SCROOGE,a miser,30\n"
    const reportPrompt = formatPrompt(loadPrompt(null, 'community_report_graph.txt', 't'), {
      input_text: table,
      max_report_length: 1500,
    })
    const report = JSON.parse(
      (await c.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: reportPrompt }] })).choices[0]!
        .message.content!,
    )
    expect(Object.keys(report)).toEqual(['title', 'summary', 'rating', 'rating_explanation', 'findings'])
    expect(report.findings.length).toBeGreaterThan(0)
  })
})
