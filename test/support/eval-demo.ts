/**
 * The demo story indexed offline (fast method, hashing embedder, searches without a chat model) for
 * the eval tests, optionally with a judge on a fake server: `eval.judge_model_id: judge` (lazy search
 * answers with it too).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { indexedDemoCopy } from './demo-index.js'
import { PROJECT_ROOT } from './shared.js'

const DEMO = join(PROJECT_ROOT, 'fixtures', 'demo')

/** The `completion_models` entry of a judge on the fake server, and eval settings choosing it. */
function judgeSettingsYaml(baseUrl: string, maxRetries = 1): string {
  return [
    'completion_models:',
    '  judge:',
    '    model_provider: openai',
    '    model: gpt-4.1-mini',
    '    api_key: test-key',
    `    api_base: ${baseUrl}`,
    '    retry: {type: exponential_backoff, max_retries: ' +
      maxRetries +
      ', base_delay: 0.01, jitter: false, max_delay: 0.05}',
    'eval:',
    '  judge_model_id: judge',
    // Lazy search answers only with a chat model: the judge's serves it, so eval runs every method.
    'lazy_search:',
    '  completion_model_id: judge',
    '',
  ].join('\n')
}

/**
 * A temp project with the demo input and settings, indexed; `judge` (a fake server's URL) adds the
 * judge. The offline answers are their ranked context, so the searches get a small context budget:
 * the judge reads every answer many times over.
 */
export async function indexedDemo(judge?: string): Promise<string> {
  // The index is the demo's own (these settings change only the searches): a copy of the run's one.
  const root = await indexedDemoCopy()
  const settings = readFileSync(join(DEMO, 'settings.yaml'), 'utf8')
  const judged = (
    judge === undefined ? settings : settings.replace('completion_models: {}\n', judgeSettingsYaml(judge))
  ).replace(/^((?:local|basic|graph|hybrid)_search):\n/gm, '$1:\n  max_context_tokens: 1500\n')
  writeFileSync(join(root, 'settings.yaml'), judged)
  return root
}
