// GRAPHRAG_<SECTION>__<KEY> environment variables override settings.yaml, typed by the key's
// declaration; a bad value or an unknown key is one error naming the variable.
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = [
  'hybrid_search:',
  '  vector_top_k: 5',
  'completion_models:',
  '  Default_Chat:',
  '    model_provider: openai',
  '    model: gpt-4.1-mini',
  '    api_key: sk-x',
  '',
].join('\n')

async function load(env: Record<string, string>) {
  const root = await testdir({ 'settings.yaml': SETTINGS })
  return loadConfig({ root, env })
}

async function refusal(env: Record<string, string>): Promise<string> {
  const error = await load(env).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ConfigError)
  return (error as Error).message
}

describe('environment overrides of settings', () => {
  it('override the file, typed by the schema: numbers, booleans, strings, lists, model entries by any case', async () => {
    const { settings } = await load({
      GRAPHRAG_HYBRID_SEARCH__VECTOR_TOP_K: '12',
      GRAPHRAG_HYBRID_SEARCH__USE_BM25: 'false',
      GRAPHRAG_SERVER__HOST: '0.0.0.0',
      GRAPHRAG_SERVER__CORS_ORIGINS: '[http://a.example, http://b.example]',
      GRAPHRAG_COMPLETION_MODELS__DEFAULT_CHAT__MODEL: '007',
      GRAPHRAG_API_KEY: 'not an override',
    })
    expect(settings.hybrid_search.vector_top_k).toBe(12)
    expect(settings.hybrid_search.use_bm25).toBe(false)
    expect(settings.server.host).toBe('0.0.0.0')
    expect(settings.server.cors_origins).toEqual(['http://a.example', 'http://b.example'])
    // A string key keeps the text as it is, digits included; the entry keeps the file's spelling of its id.
    expect(settings.completion_models.Default_Chat!.model).toBe('007')
    expect((await load({})).settings.hybrid_search.vector_top_k).toBe(5)
  })

  it('refuse a bad value or an unknown key with one error naming the variable', async () => {
    expect(await refusal({ GRAPHRAG_HYBRID_SEARCH__VECTOR_TOP_K: 'many' })).toBe(
      'GRAPHRAG_HYBRID_SEARCH__VECTOR_TOP_K: hybrid_search.vector_top_k expects a number, got "many"',
    )
    expect(await refusal({ GRAPHRAG_HYBRID_SEARCH__USE_BM25: 'maybe' })).toMatch(
      /^GRAPHRAG_HYBRID_SEARCH__USE_BM25: hybrid_search.use_bm25 expects true or false/,
    )
    expect(await refusal({ GRAPHRAG_HYBRID_SEARCH__VECTOR_TOPK: '3' })).toBe(
      'GRAPHRAG_HYBRID_SEARCH__VECTOR_TOPK: no key in hybrid_search is named vector_topk; did you mean vector_top_k?',
    )
    expect(await refusal({ GRAPHRAG_HYBRID_SERCH__VECTOR_TOP_K: '3' })).toMatch(
      /^GRAPHRAG_HYBRID_SERCH__VECTOR_TOP_K: no settings section is named hybrid_serch; did you mean hybrid_search\?/,
    )
    expect(await refusal({ GRAPHRAG_SERVER__: '3' })).toMatch(/^GRAPHRAG_SERVER__: expected GRAPHRAG_<SECTION>__<KEY>/)
    // Without a double underscore a GRAPHRAG_ variable is not an override (GRAPHRAG_API_KEY and the like).
    expect((await load({ GRAPHRAG_HYBRID_SEARCH: 'x', GRAPHRAG_SERVER__PORT: '1' })).settings.server.port).toBe(1)
  })

  it('a value out of the key range is the validator error, naming the variable', async () => {
    expect(await refusal({ GRAPHRAG_HYBRID_SEARCH__VECTOR_TOP_K: '0' })).toMatch(
      /hybrid_search\.vector_top_k: .*\(set by environment variable GRAPHRAG_HYBRID_SEARCH__VECTOR_TOP_K\)$/,
    )
  })
})
