/** The "Models:" block of `index --dry-run`: per model its provider, endpoint(s) and whether each answers. */
import type { Settings } from '../config/index.js'
import { endpointProblem, modelEndpoints } from '../llm/endpoints.js'
import { modelOptionsFromSettings } from '../llm/index.js'
import { providerInfo } from '../llm/providers.js'

export async function modelEndpointLines(
  settings: Settings,
  used: { readonly chat: readonly string[]; readonly embedding: readonly string[] },
): Promise<string> {
  const entries = [
    ...used.chat.map((id) => ['completion_models', id] as const),
    ...used.embedding.map((id) => ['embedding_models', id] as const),
  ].filter(([group, id]) => settings[group][id] !== undefined)
  if (entries.length === 0) return ''
  const blocks = await Promise.all(
    entries.map(async ([group, id]) => {
      const options = modelOptionsFromSettings(group, id, settings[group][id]!, {
        concurrentRequests: settings.concurrent_requests,
        keyOrigin: undefined,
      })
      const endpoints = await Promise.all(
        modelEndpoints(options).map(async (e) => {
          if (e.url === undefined) return `    ${e.endpoint}`
          const problem = await endpointProblem(e.url)
          return `    ${e.endpoint}  ${problem === undefined ? 'answers' : `does NOT answer (${problem})`}`
        }),
      )
      const head = `  ${group}.${id}: ${options.provider} ${options.model} via ${providerInfo(options.provider).via}`
      return [head, ...endpoints].join('\n')
    }),
  )
  return `Models (endpoints checked with one HTTP request each, no model call):\n${blocks.join('\n')}\n`
}
