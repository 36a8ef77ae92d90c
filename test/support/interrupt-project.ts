/** A small standard-method project for the Ctrl-C tests: 3,000 characters of a demo story in 100-token chunks, two calls at a time. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fakeModelSettingsYaml, type FakeLlm } from './fake-llm/index.js'
import { PROJECT_ROOT } from './shared.js'
import { testdir } from './testdir.js'

export async function interruptProject(fake: FakeLlm, story: string): Promise<string> {
  const text = (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', story), 'utf8')).slice(0, 3000)
  const settings = [
    fakeModelSettingsYaml(fake.baseUrl, { concurrentRequests: 2 }),
    'chunking:\n  size: 100\n  overlap: 0',
    'vector_store:\n  vector_size: 8',
    '',
  ].join('\n')
  return testdir({ 'settings.yaml': settings, [`input/${story}`]: text })
}
