/** A small standard-method project for the batch tests: two demo stories cut short, gleaning and claims on. */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DOCUMENTS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { fakeModelSettingsYaml, type FakeLlm } from '../../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { testdir } from '../../support/testdir.js'

const STORIES = ['01-the-harbour.txt', '02-the-storm.txt']

/** Poll and collect ticks in milliseconds, so a batch run takes as long as a synchronous one. */
export const FAST_BATCH_ENV = { GRAPHRAG_BATCH_POLL_MS: '5', GRAPHRAG_BATCH_COLLECT_MS: '40' }

/**
 * `localClaims`: claims are extracted by a second chat model on Ollama (a provider without a Batch API);
 * `models`: the models' YAML instead of the fake's OpenAI ones.
 */
export async function batchProject(
  fake: FakeLlm,
  options: { localClaims?: boolean; models?: string } = {},
): Promise<string> {
  const local = '  local_chat:\n    model_provider: ollama\n    model: llama3\n    api_base: http://127.0.0.1:9/v1\n'
  const models = options.models ?? fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 4 })
  const files: Record<string, string> = {
    'settings.yaml': [
      options.localClaims === true ? models.replace('embedding_models:', `${local}embedding_models:`) : models,
      // Two calls at a time: batch mode must not let this bound cut a step into many batches.
      'concurrent_requests: 2',
      'chunking:\n  size: 300\n  overlap: 0',
      'extract_graph:\n  max_gleanings: 1',
      `extract_claims:\n  enabled: true\n  max_gleanings: 1${options.localClaims === true ? '\n  completion_model_id: local_chat' : ''}`,
      'vector_store:\n  vector_size: 8',
      '',
    ].join('\n'),
  }
  for (const story of STORIES)
    files[`input/${story}`] = (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', story), 'utf8')).slice(
      0,
      4000,
    )
  return testdir(files)
}

/**
 * Each table of the index by a hash of its Parquet bytes; documents by their rows without
 * creation_date (the input file's ctime, which differs between two projects).
 */
export async function indexFingerprint(root: string): Promise<Record<string, string>> {
  const dir = join(root, 'output')
  const out: Record<string, string> = {}
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.parquet')).sort()) {
    if (name === 'documents.parquet') continue
    out[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex')
  }
  const documents = await new ParquetTableStore(dir).read(DOCUMENTS)
  out['documents.parquet'] = JSON.stringify(documents.map(({ creation_date, ...rest }) => rest))
  return out
}

/** Model calls that went to the synchronous routes (not as lines of a batch). */
export function synchronousCalls(fake: FakeLlm): number {
  return fake.requests.filter((r) => r.batchLine === undefined && r.kind !== 'models').length
}
