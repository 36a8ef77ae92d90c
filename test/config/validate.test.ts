import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TIKTOKEN_ENCODINGS } from '../../src/llm/encodings.js'
import { validateSettings, type ValidationResult } from '../../src/config/validate.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'

const MODEL = { model_provider: 'openai', model: 'gpt-4.1', api_key: 'k' }

function validate(raw: unknown): ValidationResult {
  return validateSettings(raw, { root: '/project' })
}

function errorsOf(raw: unknown): string[] {
  const result = validate(raw)
  return result.ok ? [] : result.errors
}

function warningsOf(raw: unknown): string[] {
  const result = validate(raw)
  expect(result.ok, result.ok ? '' : result.errors.join('\n')).toBe(true)
  return result.warnings
}

describe('validateSettings: values graphrag cannot honour are errors', () => {
  it.each([
    ['input_storage.type', { input_storage: { type: 'memory' } }, 'memory', 'one of "file", "blob", "s3"'],
    ['output_storage.type', { output_storage: { type: 'memory' } }, 'memory', 'one of "file", "blob", "s3"'],
    [
      'update_output_storage.type',
      { update_output_storage: { type: 'cosmosdb' } },
      'cosmosdb',
      'one of "file", "blob", "s3"',
    ],
    ['cache.storage.type', { cache: { storage: { type: 'memory' } } }, 'memory', 'one of "file", "blob", "s3"'],
    ['table_provider.type', { table_provider: { type: 'csv' } }, 'csv', '"parquet"'],
    ['vector_store.type', { vector_store: { type: 'azure_ai_search' } }, 'azure_ai_search', '"lancedb"'],
    ['completion_models.m.type', { completion_models: { m: { ...MODEL, type: 'mock' } } }, 'mock', '"litellm"'],
  ])('%s', (path, raw, value, supported) => {
    expect(errorsOf(raw)).toEqual([`${path}: "${value}" is not supported by graphrag (use ${supported})`])
  })

  it('auth_method azure_managed_identity: fine for Azure without a key, an error for other providers', () => {
    const azure = {
      model_provider: 'azure',
      model: 'gpt-4.1',
      api_base: 'https://r.openai.azure.com',
      api_version: '2024-10-21',
      auth_method: 'azure_managed_identity',
    }
    expect(errorsOf({ completion_models: { m: azure } })).toEqual([])
    expect(errorsOf({ completion_models: { m: { ...MODEL, auth_method: 'azure_managed_identity' } } })).toEqual([
      'completion_models.m.auth_method: azure_managed_identity only works with model_provider azure',
    ])
  })

  it('provider rules: unknown names, embeddings of chat-only providers, api_base where there is no default, pools', () => {
    expect(errorsOf({ completion_models: { m: { ...MODEL, model_provider: 'antropic' } } })[0]).toMatch(
      /^completion_models\.m\.model_provider: expected one of openai, azure, anthropic, /,
    )
    expect(errorsOf({ embedding_models: { e: { model_provider: 'anthropic', model: 'x', api_key: 'k' } } })).toEqual([
      'embedding_models.e.model_provider: anthropic has no embedding models (use e.g. openai, gemini, ollama, bedrock, mistral or local)',
    ])
    expect(errorsOf({ completion_models: { m: { model_provider: 'hosted_vllm', model: 'q' } } })).toEqual([
      'completion_models.m.api_base: required for model_provider hosted_vllm (the URL of its OpenAI-compatible /v1 API)',
    ])
    expect(errorsOf({ completion_models: { m: { model_provider: 'ollama', model: 'llama3.2' } } })).toEqual([])
    expect(errorsOf({ completion_models: { m: { model_provider: 'anthropic', model: 'claude-sonnet-4-5' } } })).toEqual(
      [
        'completion_models.m.api_key: expected a non-empty API key (e.g. api_key: ${GRAPHRAG_API_KEY} with the key in .env or ANTHROPIC_API_KEY in the environment or .env; api_key: null for a keyless server at api_base)',
      ],
    )
    const pool = (api_base: unknown) =>
      errorsOf({ completion_models: { m: { model_provider: 'vllm', model: 'q', api_base } } })
    expect(pool(['http://a:8000/v1', { api_base: 'http://b:8000/v1', weight: 2, concurrent_requests: 4 }])).toEqual([])
    expect(pool([{ api_base: 'http://b/v1', wieght: 2 }])).toEqual([
      'completion_models.m.api_base[0].wieght: unknown key (expected api_base, api_key, concurrent_requests, requests_per_minute, tokens_per_minute, weight)',
    ])
    expect(pool([{ api_base: 'http://b/v1', concurrent_requests: 0 }])).toEqual([
      'completion_models.m.api_base[0].concurrent_requests: expected a positive integer, got 0',
    ])
    expect(pool([])[0]).toMatch(/^completion_models\.m\.api_base: expected a URL or a non-empty list of endpoints/)
  })

  it('keeps the cache kinds the runner honours, memory included', () => {
    for (const type of ['json', 'memory', 'none']) expect(warningsOf({ cache: { type } })).toEqual([])
  })

  it('rejects a value that is neither supported nor known, listing the supported ones', () => {
    expect(errorsOf({ output_storage: { type: 'ftp' } })).toEqual([
      'output_storage.type: expected one of file, blob, s3, got "ftp"',
    ])
  })
})

describe('validateSettings: blob and s3 storage', () => {
  const blob = { type: 'blob', connection_string: 'UseDevelopmentStorage=true', container_name: 'c', base_dir: 'idx' }
  it('gives each blob or s3 setting a local mirror folder and keeps the remote keys', () => {
    const result = validate({ output_storage: blob, input_storage: { type: 's3', bucket: 'b', base_dir: 'docs' } })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.settings.output_storage.base_dir).toMatch(/[/\\]\.graphrag[/\\]remote[/\\]output_storage-[0-9a-f]+$/)
    expect(result.settings.input_storage.base_dir).toMatch(/input_storage-[0-9a-f]+$/)
    expect(result.settings.output_storage.container_name).toBe('c')
  })

  it('moves the default LanceDB folder into the output mirror and keeps az:// and s3:// URIs', () => {
    const moved = validate({ output_storage: blob, vector_store: { db_uri: 'idx/lancedb' } })
    expect(moved.ok && moved.settings.vector_store.db_uri.startsWith(moved.settings.output_storage.base_dir)).toBe(true)
    const az = validate({ output_storage: blob, vector_store: { db_uri: 'az://c/vectors' } })
    expect(az.ok && az.settings.vector_store.db_uri).toBe('az://c/vectors')
  })

  it('issue 47 item 2: the default LanceDB folder follows output_storage whatever its base_dir, on a store or a local folder', () => {
    for (const output of [
      { ...blob, base_dir: 'ke4d/output' },
      { type: 's3', bucket: 'b', base_dir: 'projects/acme/output' },
      { type: 'file', base_dir: 'indexes/acme' },
    ]) {
      for (const vector_store of [{}, { db_uri: 'output/lancedb' }]) {
        const result = validate({ output_storage: output, vector_store })
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.settings.vector_store.db_uri).toBe(join(result.settings.output_storage.base_dir, 'lancedb'))
      }
    }
    const chosen = validate({
      output_storage: { type: 'file', base_dir: 'indexes/acme' },
      vector_store: { db_uri: 'vec' },
    })
    expect(chosen.ok && chosen.settings.vector_store.db_uri).toBe(join('/project', 'vec'))
  })

  it('names what a blob or s3 setting lacks', () => {
    expect(
      errorsOf({
        output_storage: { type: 'blob' },
        cache: { storage: { type: 's3' } },
        reporting: { type: 'file', bucket: 'b' },
      }),
    ).toEqual([
      'output_storage.container_name: blob storage needs the container name',
      'output_storage.connection_string: blob storage needs connection_string or account_url',
      'cache.storage.bucket: s3 storage needs the bucket name',
      'reporting.bucket: only s3 storage uses it (type is file)',
    ])
    expect(errorsOf({ vector_store: { db_uri: 's3://b/v' } })).toEqual([
      'vector_store.db_uri: an s3:// URI takes its endpoint and region from output_storage, which must be type s3',
    ])
  })
})

describe('validateSettings: keys accepted but not acted on', () => {
  it('warns once per key set to something other than its default, and keeps the value', () => {
    const grammars = { 'NOUN,NOUN': 'NOUNS' }
    const result = validate({
      extract_graph_nlp: {
        text_analyzer: { extractor_type: 'cfg', noun_phrase_grammars: grammars, max_word_length: 12 },
      },
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.warnings).toEqual([
      'extract_graph_nlp.text_analyzer.extractor_type: ignored by graphrag (noun phrases always come from the built-in wink-nlp English tagger)',
      'extract_graph_nlp.text_analyzer.noun_phrase_grammars: ignored by graphrag (only the syntactic_parser and cfg extractors use it; graphrag always uses its wink-nlp tagger)',
    ])
    expect(result.settings.extract_graph_nlp.text_analyzer.noun_phrase_grammars).toEqual(grammars)
  })

  it('stays silent when a v3 file spells out the defaults', () => {
    const analyzer = {
      extractor_type: 'regex_english',
      model_name: 'en_core_web_md',
      exclude_entity_tags: ['DATE'],
      noun_phrase_tags: ['PROPN', 'NOUNS'],
    }
    expect(warningsOf({ extract_graph_nlp: { text_analyzer: analyzer }, table_provider: { batch_size: 50 } })).toEqual(
      [],
    )
  })

  it('names the key but never the value, which may be a secret', () => {
    const warnings = warningsOf({
      vector_store: { api_key: 'sk-very-secret' },
      output_storage: { database_name: 'hidden' },
    })
    expect(warnings).toHaveLength(2)
    expect(warnings.join('\n')).not.toMatch(/sk-very-secret|hidden/)
    expect(warnings[0]).toMatch(/^output_storage\.database_name: ignored by graphrag/)
    expect(warnings[1]).toMatch(/^vector_store\.api_key: ignored by graphrag/)
  })

  it('reads exclude_nouns: null as the default list, as the reference does', () => {
    const result = validate({ extract_graph_nlp: { text_analyzer: { exclude_nouns: null } } })
    expect(result.ok && result.settings.extract_graph_nlp.text_analyzer.exclude_nouns).toContain('stuff')
  })

  it('accepts mock_responses as the list the reference declares', () => {
    expect(errorsOf({ completion_models: { m: { ...MODEL, mock_responses: [] } } })).toEqual([])
  })
})

describe('validateSettings: Azure models', () => {
  const azure = {
    model_provider: 'azure',
    model: 'gpt-4.1',
    api_key: 'k',
    api_base: 'https://example.openai.azure.com',
  }

  it('requires api_version, naming the model key', () => {
    expect(errorsOf({ completion_models: { chat: azure } })).toEqual([
      'completion_models.chat.api_version: required for model_provider azure (e.g. api_version: 2024-10-21)',
    ])
    expect(errorsOf({ embedding_models: { emb: { ...azure, api_version: '  ' } } })).toEqual([
      'embedding_models.emb.api_version: required for model_provider azure (e.g. api_version: 2024-10-21)',
    ])
  })

  it('accepts a complete Azure model', () => {
    expect(
      errorsOf({
        completion_models: { chat: { ...azure, api_version: '2024-10-21', azure_deployment_name: 'my-deployment' } },
      }),
    ).toEqual([])
  })
})

describe('validateSettings: tiktoken encodings', () => {
  it('rejects an unknown chunking encoding at load, before any workflow runs', () => {
    expect(errorsOf({ chunking: { encoding_model: 'o200k' } })).toEqual([
      'chunking.encoding_model: expected one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base, got "o200k"',
    ])
  })

  it('rejects an unknown model encoding, naming the model', () => {
    expect(errorsOf({ embedding_models: { emb: { ...MODEL, encoding_model: 'cl100k' } } })).toEqual([
      'embedding_models.emb.encoding_model: expected one of gpt2, r50k_base, p50k_base, p50k_edit, cl100k_base, o200k_base or null, got "cl100k"',
    ])
  })

  it('accepts exactly the encodings the tokenizer loads', () => {
    for (const encoding of TIKTOKEN_ENCODINGS) {
      expect(getTokenizer(encoding).encoding).toBe(encoding)
      expect(
        errorsOf({
          chunking: { encoding_model: encoding },
          completion_models: { m: { ...MODEL, encoding_model: encoding } },
        }),
      ).toEqual([])
    }
  })
})

describe('validateSettings: chunk_graph and graph_search (ours)', () => {
  it('rejects a batch overlap that is not below the batch size, and batches of fewer than 2 units', () => {
    expect(errorsOf({ chunk_graph: { batch_size: 4, batch_overlap: 4 } })).toEqual([
      'chunk_graph.batch_overlap: expected less than chunk_graph.batch_size (4), got 4',
    ])
    expect(errorsOf({ chunk_graph: { batch_size: 1 } })).toEqual([
      expect.stringContaining('chunk_graph.batch_size: expected'),
    ])
    expect(warningsOf({ chunk_graph: { batch_size: 4, batch_overlap: 3 } })).toEqual([])
  })

  it('checks hop_decay as a non-empty list of factors in [0, 1] and resolves the prompt paths', () => {
    expect(errorsOf({ graph_search: { hop_decay: [1, 1.5] } })).toEqual([
      'graph_search.hop_decay: expected a non-empty list, each a number from 0 to 1, got [1,1.5]',
    ])
    expect(errorsOf({ graph_search: { hop_decay: [] } })).toEqual([expect.stringContaining('graph_search.hop_decay')])
    const result = validate({
      graph_search: { hop_decay: [1, 0.5], relation_filter: ['depends_on'] },
      chunk_graph: { prompt: 'prompts/edges.txt' },
    })
    expect(result.ok && result.settings.graph_search.hop_decay).toEqual([1, 0.5])
    expect(result.ok && result.settings.chunk_graph.prompt).toBe('/project/prompts/edges.txt')
  })
})
