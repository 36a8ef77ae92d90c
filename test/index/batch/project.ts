/** A small standard-method project for the batch tests: two demo stories cut short, gleaning and claims on. */
import { readFile, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { fakeModelSettingsYaml, type FakeLlm } from '../../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { testdir } from '../../support/testdir.js'

const STORIES = ['01-the-harbour.txt', '02-the-storm.txt']

/** Poll and collect ticks in milliseconds, so a batch run takes as long as a synchronous one. */
export const FAST_BATCH_ENV = { GRAPHRAG_BATCH_POLL_MS: '5', GRAPHRAG_BATCH_COLLECT_MS: '40' }

export async function batchProject(fake: FakeLlm, extraSettings: readonly string[] = []): Promise<string> {
  const files: Record<string, string> = {
    'settings.yaml': [
      fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 4 }),
      'chunking:\n  size: 300\n  overlap: 0',
      'extract_graph:\n  max_gleanings: 1',
      'extract_claims:\n  enabled: true\n  max_gleanings: 1',
      'vector_store:\n  vector_size: 8',
      ...extraSettings,
      '',
    ].join('\n'),
  }
  for (const story of STORIES)
    files[`input/${story}`] = (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', story), 'utf8')).slice(
      0,
      4000,
    )
  const root = await testdir(files)
  // Documents carry their file's dates: the same for every project, so two indexes can be compared byte for byte.
  const when = new Date('2026-01-02T03:04:05Z')
  for (const story of STORIES) await utimes(join(root, 'input', story), when, when)
  return root
}

/** Model calls that went to the synchronous routes (not as lines of a batch). */
export function synchronousCalls(fake: FakeLlm): number {
  return fake.requests.filter((r) => r.batchLine === undefined && r.kind !== 'models').length
}
