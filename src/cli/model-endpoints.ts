/** The "Models:" block of `index --dry-run`: per model its provider, endpoint(s) and whether each answers. */
import type { Settings } from '../config/index.js'
import { endpointProblem, modelEndpoints } from '../llm/endpoints.js'
import { modelOptionsFromSettings } from '../llm/index.js'
import { providerInfo } from '../llm/providers.js'

/**
 * The block, and the models none of whose checked endpoints answers (`completion_models.x`): the
 * run's preflight would stop at them. A pool with one endpoint up still runs; a model whose
 * endpoint cannot be checked with a plain request (no URL) is not counted, nor is any when `check`
 * is false (--skip-validation: no request at all).
 */
export async function modelEndpointReport(
  settings: Settings,
  used: { readonly chat: readonly string[]; readonly embedding: readonly string[] },
  check = true,
): Promise<{ text: string; silent: string[] }> {
  const entries = [
    ...used.chat.map((id) => ['completion_models', id] as const),
    ...used.embedding.map((id) => ['embedding_models', id] as const),
  ].filter(([group, id]) => settings[group][id] !== undefined)
  if (entries.length === 0) return { text: '', silent: [] }
  const models = await Promise.all(
    entries.map(async ([group, id]) => {
      const options = modelOptionsFromSettings(group, id, settings[group][id]!, {
        concurrentRequests: settings.concurrent_requests,
        keyOrigin: undefined,
      })
      const endpoints = await Promise.all(
        modelEndpoints(options).map(async (e) => {
          if (e.url === undefined || !check) return { line: `    ${e.endpoint}`, answers: undefined }
          const problem = await endpointProblem(e.url)
          const state = problem === undefined ? 'answers' : `does NOT answer (${problem})`
          return { line: `    ${e.endpoint}  ${state}`, answers: problem === undefined }
        }),
      )
      const head = `  ${group}.${id}: ${options.provider} ${options.model} via ${providerInfo(options.provider).via}`
      const checked = endpoints.filter((e) => e.answers !== undefined)
      const silent = checked.length > 0 && checked.every((e) => e.answers === false)
      return { block: [head, ...endpoints.map((e) => e.line)].join('\n'), name: `${group}.${id}`, silent }
    }),
  )
  const how = check ? 'endpoints checked with one HTTP request each' : 'endpoints not checked: --skip-validation'
  const text = `Models (${how}, no model call):\n${models.map((m) => m.block).join('\n')}\n`
  return { text, silent: models.filter((m) => m.silent).map((m) => m.name) }
}
