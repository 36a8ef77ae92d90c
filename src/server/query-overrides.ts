/**
 * POST /query's `top_k` and `max_context_tokens`: one request's values for the search method's own
 * settings (basic search's `k`, local search's `top_k_entities`, ...), applied over settings.yaml for
 * that query only. A method without such a setting refuses the field by name.
 */
import { RequestError } from '../errors.js'
import type { SearchMethod } from '../query/index.js'

type Field = 'top_k' | 'max_context_tokens'

/** Which setting of `<method>_search` each field sets. */
const SETTING: Partial<Record<SearchMethod, Partial<Record<Field, string>>>> = {
  local: { top_k: 'top_k_entities', max_context_tokens: 'max_context_tokens' },
  basic: { top_k: 'k', max_context_tokens: 'max_context_tokens' },
  global: { max_context_tokens: 'max_context_tokens' },
  drift: { top_k: 'local_search_top_k_mapped_entities', max_context_tokens: 'local_search_max_data_tokens' },
}

/** The settings of `<method>_search` that this request sets, by setting name. */
export function searchOverrides(
  method: SearchMethod,
  values: Partial<Record<Field, number | undefined>>,
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const field of ['top_k', 'max_context_tokens'] as const) {
    const value = values[field]
    if (value === undefined) continue
    const setting = SETTING[method]?.[field]
    if (setting === undefined) {
      const methods = Object.entries(SETTING).flatMap(([m, s]) => (s[field] === undefined ? [] : [m]))
      throw new RequestError(400, `${field}: only available with method ${methods.join(', ')}`)
    }
    out[setting] = value
  }
  return out
}
