/**
 * Request checks of `graphrag serve` (issue 28 items 9 and 11): every body is a JSON object, every
 * number has a type and a range, and each problem is one 400 naming the field. No index is needed:
 * a bad request never reaches the search.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LruCache } from '../../src/server/lru.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { fakeModelSettingsYaml } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'
import { EMPTY_QUESTION } from '../../src/query/question.js'

const SETTINGS = [
  'embedding_models:',
  '  default_embedding_model:',
  '    model_provider: local',
  '    model: hashing-384',
  '    dimensions: 384',
  '',
].join('\n')

describe('request validation', () => {
  let server: RunningServer
  beforeAll(async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })

  async function refused(path: string, body: unknown): Promise<string> {
    const res = await post(path, typeof body === 'string' ? body : JSON.stringify(body))
    const text = await res.text()
    expect(res.status, `${path} ${JSON.stringify(body)}: ${text}`).toBe(400)
    expect(text).not.toMatch(/\n\s+at |node_modules|ZodError/)
    return (JSON.parse(text) as { error: { message: string } }).error.message
  }

  it('a JSON array, string or number is not a request body, on every JSON route', async () => {
    for (const path of ['/query', '/ranking/preview', '/index', '/cache/clear', '/v1/chat/completions'])
      for (const body of ['[]', '[{"question":"x"}]', '"x"', '3'])
        expect(await refused(path, body), `${path} ${body}`).toBe('the request body must be a JSON object')
    expect(await refused('/query', '{"question": ')).toBe('the request body is not valid JSON')
  })

  it('community_level is a whole number from 0 to 100: fractions, huge and negative values are refused', async () => {
    for (const level of [1.5, 0.0001, 1e308, 99999, 101, -1, '2', true])
      expect(await refused('/query', { question: 'q', community_level: level }), String(level)).toBe(
        'community_level: expected a whole number from 0 to 100',
      )
  })

  it('each field is checked for its type and names itself', async () => {
    expect(await refused('/query', {})).toBe('question: required')
    // A blank question gets the CLI's own words (issue 32): the same refusal from both.
    expect(await refused('/query', { question: '  ' })).toBe(EMPTY_QUESTION)
    expect(await refused('/query', { question: 7 })).toBe('question: expected a non-empty string')
    expect(await refused('/query', { question: 'q', method: 'nope' })).toMatch(/^method: expected one of local, /)
    expect(await refused('/query', { question: 'q', stream: 'yes' })).toBe('stream: expected true or false')
    expect(await refused('/query', { question: 'q', response_type: 'x'.repeat(201) })).toBe(
      'response_type: expected at most 200 characters',
    )
    expect(await refused('/query', { question: 'q', dynamic_community_selection: 1 })).toBe(
      'dynamic_community_selection: expected true or false',
    )
    expect(await refused('/index', { mode: 'rebuild' })).toBe('mode: expected one of index, update')
    expect(await refused('/index', { method: 'turbo' })).toBe('method: expected one of standard, fast')
    expect(await refused('/ranking/preview', {})).toBe('question: required')
    expect(await refused('/v1/chat/completions', { model: 'graphrag-local', messages: [] })).toBe(
      'messages: expected a non-empty array',
    )
  })
})

describe('settings that name no model', () => {
  let server: RunningServer
  beforeAll(async () => {
    const yaml = `${fakeModelSettingsYaml('http://127.0.0.1:9')}local_search:\n  completion_model_id: nosuch\n`
    server = await startServer({ root: await testdir({ 'settings.yaml': yaml }), port: 0, env: {} })
  })
  afterAll(() => server?.close())

  it('are said at start-up and answered as a settings_error naming the key, not a bare server_error', async () => {
    expect(server.warnings).toEqual([
      'local_search.completion_model_id: no completion_models entry "nosuch" (configured: default_completion_model)',
    ])
    const res = await fetch(`${server.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Who keeps the lighthouse?', method: 'local' }),
    })
    const body = (await res.json()) as { error: { message: string; type: string } }
    expect(res.status).toBe(500)
    expect(body.error.type).toBe('settings_error')
    expect(body.error.message).toMatch(/^local_search\.completion_model_id: no completion_models entry "nosuch"/)
    expect(body.error.message).toMatch(/fixing them needs no restart/)
  })
})

describe('a query before any index', () => {
  let server: RunningServer
  beforeAll(async () => {
    // The models are never called: port 9 (discard) only completes the settings.
    const root = await testdir({ 'settings.yaml': fakeModelSettingsYaml('http://127.0.0.1:9') })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  it('is a 409 no_index naming the fix (graphrag index, or POST /index), for every method, not a 500', async () => {
    for (const method of ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy']) {
      const res = await fetch(`${server.url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'Who keeps the lighthouse?', method }),
      })
      const body = (await res.json()) as { error: { message: string; type: string } }
      expect(res.status, `${method}: ${JSON.stringify(body)}`).toBe(409)
      expect(body.error.type, method).toBe('no_index')
      expect(body.error.message, method).toMatch(
        /^no index yet in .*: run `graphrag index` first.*\(or POST \/index\)$/,
      )
    }
  })
})

describe('LruCache (lru-cache underneath)', () => {
  it('evicts the least recently used entry and counts hits and misses', () => {
    const cache = new LruCache<number>(2)
    cache.set('a', 1)
    cache.set('b', 2)
    expect(cache.get('a')).toBe(1)
    cache.set('c', 3)
    expect(cache.get('b')).toBeUndefined()
    expect(cache.get('a')).toBe(1)
    expect(cache.stats()).toEqual({ size: 2, capacity: 2, hits: 2, misses: 1, hit_rate: 2 / 3 })
    cache.clear()
    expect(cache.stats()).toMatchObject({ size: 0, hits: 0, misses: 0, hit_rate: null })
  })

  it('capacity 0 keeps nothing', () => {
    const cache = new LruCache<number>(0)
    cache.set('a', 1)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.stats().size).toBe(0)
  })
})

describe('/openapi.json', () => {
  it('describes every route of every server module, with its method', async () => {
    const { OPENAPI } = await import('../../src/server/openapi.js')
    const dir = join(PROJECT_ROOT, 'src', 'server')
    const sources = await Promise.all(
      // The web UI's pages and assets (ui-*.ts) are not API routes.
      (await readdir(dir))
        .filter((f) => f.endsWith('.ts') && !f.startsWith('ui-'))
        .map((f) => readFile(join(dir, f), 'utf8')),
    )
    const routes = sources.flatMap((source) => [
      ...[...source.matchAll(/app\.(get|post|delete)\('([^']+)'/g)].map((m) => [m[1]!, m[2]!]),
      ...[...source.matchAll(/app\.on\(\[([^\]]+)\], '([^']+)'/g)].flatMap((m) =>
        m[1]!.split(',').map((verb) => [verb.trim().replace(/'/g, '').toLowerCase(), m[2]!]),
      ),
    ])
    expect(routes.length).toBeGreaterThanOrEqual(19)
    const paths = OPENAPI.paths as Record<string, Record<string, unknown>>
    for (const [method, path] of routes) {
      const documented = path.replace(/:(\w+)/g, '{$1}')
      expect(paths[documented]?.[method], `${method} ${path}`).toBeDefined()
    }
  })
})
