/**
 * The models a run needs that its settings do not define: a workflow's `completion_model_id` (or
 * embedding one) naming no entry, as a v2 settings file renamed by hand keeps `default_chat_model`.
 * The run would stop at its first model call; the dry run stops here instead of calling the settings valid.
 */
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import type { ModelsUsed } from '../workflow.js'

type Group = 'completion_models' | 'embedding_models'

export function rejectMissingModels(settings: Settings, used: ModelsUsed): void {
  const problems = [
    ...used.chat
      .filter((id) => settings.completion_models[id] === undefined)
      .map((id) => missing(settings, 'completion_models', id)),
    ...used.embedding
      .filter((id) => settings.embedding_models[id] === undefined)
      .map((id) => missing(settings, 'embedding_models', id)),
  ]
  if (problems.length === 0) return
  const head =
    problems.length === 1
      ? problems[0]!.message
      : `${problems.length} problems:\n  ${problems.map((p) => p.message).join('\n  ')}`
  throw new ConfigError(`${settings.configFile ?? 'settings'}: ${head}`, { keyPath: problems[0]!.keyPath })
}

function missing(settings: Settings, group: Group, id: string): { message: string; keyPath: string } {
  const keyPaths = referencesTo(settings, group, id)
  const known = Object.keys(settings[group])
  const where = keyPaths.length > 0 ? keyPaths.join(', ') : `a model id (${group})`
  return {
    message: `${where}: names no model: no ${group} entry "${id}" (configured: ${known.length > 0 ? known.join(', ') : 'none'}; add ${group}.${id} or name one of those)`,
    keyPath: keyPaths[0] ?? group,
  }
}

/** Sections read only at query time (or by eval): their references do not stop an index run. */
const QUERY_SECTION = /(_search|^eval)$/

/** The settings keys whose value is `id`, among the model-id keys of the group in the index's sections. */
function referencesTo(settings: Settings, group: Group, id: string): string[] {
  const out: string[] = []
  for (const [section, value] of Object.entries(settings)) {
    if (QUERY_SECTION.test(section)) continue
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const isRef =
        group === 'embedding_models'
          ? key === 'embedding_model_id'
          : key.endsWith('model_id') && key !== 'embedding_model_id'
      if (isRef && v === id) out.push(`${section}.${key}`)
    }
  }
  return out
}
