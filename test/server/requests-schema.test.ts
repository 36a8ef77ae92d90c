/**
 * The request schemas of `graphrag serve` (src/server/requests.ts) on their own, through hono's
 * validator in a bare app: what a valid body becomes (defaults, JSON null as "not given", the
 * query service's request) and the one 400 each bad field gets. No index and no server: milliseconds.
 */
import { Hono, type MiddlewareHandler } from 'hono'
import { describe, expect, it } from 'vitest'
import { RequestError } from '../../src/errors.js'
import {
  queryRequest,
  validChat,
  validEmptyOrNone,
  validIndex,
  validPreview,
  validQuery,
  type QueryBody,
} from '../../src/server/requests.js'

/** POSTs `body` through `validator`: the parsed value, or the RequestError's status and message. */
async function check(validator: MiddlewareHandler, body: unknown): Promise<unknown> {
  const app = new Hono()
  app.onError((error, c) =>
    error instanceof RequestError
      ? c.json({ status: error.status, error: error.message })
      : c.json({ thrown: String(error) }),
  )
  // biome-ignore lint/suspicious/noExplicitAny: the validated value is whatever the schema made of it
  app.post('/', validator, (c) => c.json({ ok: (c.req as any).valid('json') }))
  const res = await app.request('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return res.json()
}
const refusal = (message: string) => ({ status: 400, error: message })

describe('POST /query body', () => {
  it('fills every default, and reads JSON null as not given', async () => {
    const defaults = {
      question: 'q',
      method: 'global',
      community_level: 2,
      response_type: 'Multiple Paragraphs',
      dynamic_community_selection: false,
      stream: false,
    }
    expect(await check(validQuery(), { question: 'q' })).toEqual({ ok: defaults })
    expect(
      await check(validQuery(), {
        question: 'q',
        method: null,
        community_level: null,
        response_type: null,
        stream: null,
        history: null,
      }),
    ).toEqual({ ok: defaults })
  })

  it('accepts the bounds of each range: levels 0 and 100, a 200-character response type', async () => {
    for (const level of [0, 100])
      expect(await check(validQuery(), { question: 'q', community_level: level })).toMatchObject({
        ok: { community_level: level },
      })
    expect(await check(validQuery(), { question: 'q', response_type: 'x'.repeat(200) })).toMatchObject({
      ok: { response_type: 'x'.repeat(200) },
    })
    expect(await check(validQuery(), { question: 'q', method: 'hybrid', stream: true })).toMatchObject({
      ok: { method: 'hybrid', stream: true },
    })
  })

  it('accepts each search method by name', async () => {
    for (const method of ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy'])
      expect(await check(validQuery(), { question: 'q', method }), method).toMatchObject({ ok: { method } })
  })

  it('refuses a blank response type and names the field of a nested problem', async () => {
    expect(await check(validQuery(), { question: 'q', response_type: ' ' })).toEqual(
      refusal('response_type: expected a non-empty string'),
    )
    expect(await check(validQuery(), { question: 'q', response_type: 3 })).toEqual(
      refusal('response_type: expected a non-empty string'),
    )
  })
})

describe('the other bodies', () => {
  it('POST /index: mode index by default, method optional', async () => {
    expect(await check(validIndex(), {})).toEqual({ ok: { mode: 'index' } })
    expect(await check(validIndex(), { mode: 'update', method: 'fast' })).toEqual({
      ok: { mode: 'update', method: 'fast' },
    })
  })

  it('POST /ranking/preview and empty bodies', async () => {
    expect(await check(validPreview(), { question: 'q' })).toEqual({ ok: { question: 'q' } })
    expect(await check(validEmptyOrNone(), {})).toEqual({ ok: {} })
    expect(await check(validEmptyOrNone(), [])).toEqual(refusal('the request body must be a JSON object'))
    expect(await check(validEmptyOrNone(), null)).toEqual(refusal('the request body must be a JSON object'))
  })

  it('POST /v1/chat/completions: model is a string, messages a non-empty array, each named when missing', async () => {
    const messages = [{ role: 'user', content: 'hi' }]
    expect(await check(validChat(), { model: 'graphrag-local', messages })).toEqual({
      ok: { model: 'graphrag-local', messages, stream: false },
    })
    expect(await check(validChat(), { messages })).toEqual(refusal('model: required'))
    expect(await check(validChat(), { model: 7, messages })).toEqual(refusal('model: expected a string'))
    expect(await check(validChat(), { model: 'm' })).toEqual(refusal('messages: required'))
    expect(await check(validChat(), { model: 'm', messages: 'hi' })).toEqual(
      refusal('messages: expected a non-empty array'),
    )
  })
})

describe('queryRequest', () => {
  const body = (over: Partial<QueryBody>): QueryBody => ({
    question: 'q',
    method: 'local',
    community_level: 3,
    response_type: 'List',
    dynamic_community_selection: true,
    stream: true,
    ...over,
  })

  it("maps the body's fields to the query service's request", () => {
    expect(queryRequest(body({}))).toEqual({
      question: 'q',
      method: 'local',
      communityLevel: 3,
      responseType: 'List',
      dynamicCommunitySelection: true,
      history: [],
      stream: true,
      externalContext: [],
    })
    expect(queryRequest(body({ history: [{ role: 'user', content: 'before' }] })).history).toEqual([
      { role: 'user', content: 'before' },
    ])
  })

  it('maps top_k and max_context_tokens to the method’s own settings', () => {
    expect(queryRequest(body({ top_k: 4, max_context_tokens: 900 })).overrides).toEqual({
      top_k_entities: 4,
      max_context_tokens: 900,
    })
    expect(queryRequest(body({ method: 'basic', top_k: 4 })).overrides).toEqual({ k: 4 })
    expect(queryRequest(body({ method: 'drift', max_context_tokens: 900 })).overrides).toEqual({
      local_search_max_data_tokens: 900,
    })
    expect(() => queryRequest(body({ method: 'hybrid', max_context_tokens: 900 }))).toThrow(
      expect.objectContaining({
        status: 400,
        message: 'max_context_tokens: only available with method local, basic, global, drift',
      }),
    )
  })

  it('refuses a malformed history with a 400 naming it', () => {
    expect(() => queryRequest(body({ history: 'x' }))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^history: expected a JSON array/) }),
    )
    expect(() => queryRequest(body({ history: [{ role: 'bot', content: 'x' }] }))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^history: turn 1 /) }),
    )
  })

  it('takes context passages with method hybrid only, and names the bad passage', () => {
    expect(queryRequest(body({ method: 'hybrid', context: ['a', { id: 'n', text: 'b' }] })).externalContext).toEqual([
      { id: 'external-1', text: 'a' },
      { id: 'n', text: 'b' },
    ])
    expect(() => queryRequest(body({ method: 'local', context: ['a'] }))).toThrow(
      expect.objectContaining({ status: 400, message: 'context: only available with method hybrid' }),
    )
    expect(() => queryRequest(body({ method: 'hybrid', context: ['a', 5] }))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^context\[1\]: must be a string/) }),
    )
    expect(() => queryRequest(body({ method: 'hybrid', context: 'a' }))).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/^context: expected a JSON list/) }),
    )
  })
})
