import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { testdir } from '../support/testdir.js'

/** `graphrag index --dry-run` only loads settings and inputs, so these errors must come from validation. */
async function dryRun(settings: string): Promise<string[]> {
  const root = await testdir({ 'settings.yaml': settings, 'input/a.txt': 'The harbour council met on Tuesday.' })
  const run = await runCli(['index', '--root', root, '--dry-run'], { env: { GRAPHRAG_API_KEY: 'k' } })
  expect(run.code).toBe(1)
  return run.stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('graphrag:'))
}

describe('graphrag index --dry-run: settings that cannot work fail before any workflow', () => {
  it('names a chunking encoding tiktoken does not have', async () => {
    expect(await dryRun('chunking:\n  encoding_model: o200k\n')).toEqual([
      expect.stringContaining('chunking.encoding_model: expected one of gpt2'),
    ])
  })

  it("names the missing api_version of an Azure model instead of the SDK's environment-variable error", async () => {
    const azure =
      'completion_models:\n  chat:\n    model_provider: azure\n    model: gpt-4.1\n    api_key: ${GRAPHRAG_API_KEY}\n    api_base: https://example.openai.azure.com\n'
    const lines = await dryRun(azure)
    expect(lines).toEqual([
      expect.stringContaining('completion_models.chat.api_version: required for model_provider azure'),
    ])
    expect(lines[0]).not.toContain('OPENAI_API_VERSION')
  })

  it('rejects storage kinds the runner does not implement', async () => {
    expect(await dryRun('output_storage:\n  type: memory\n')).toEqual([
      expect.stringContaining(
        'output_storage.type: "memory" is not supported by graphrag (use one of "file", "blob", "s3")',
      ),
    ])
  })
})
