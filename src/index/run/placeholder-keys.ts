/** The API key placeholder `graphrag init` writes into .env, caught before any model is called (also by --dry-run). */
import { join } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import type { ModelsUsed } from '../workflow.js'

/** `graphrag init` writes GRAPHRAG_API_KEY=<API_KEY>; say so before any call is attempted with it. */
export function rejectPlaceholderKeys(
  settings: Settings,
  used: ModelsUsed,
  origins: Readonly<Record<string, string>>,
): void {
  const groups = [
    ['completion_models', used.chat],
    ['embedding_models', used.embedding],
  ] as const
  for (const [group, ids] of groups) {
    for (const id of ids) {
      const model = settings[group][id]
      if (model?.api_key?.trim() !== '<API_KEY>') continue
      const origin = origins[`${group}.${id}`] ?? `${group}.${id}.api_key`
      throw new ConfigError(
        `${group}.${id}.api_key: still the placeholder <API_KEY> (from ${origin}); put your key in ${join(settings.root, '.env')} as GRAPHRAG_API_KEY=...`,
        { keyPath: `${group}.${id}.api_key` },
      )
    }
  }
}
