/** The cheap "is this model reachable" check of /diagnostics: one tiny call per model, remembered for a minute. */
import type { Settings } from '../config/index.js'
import { publicMessage } from './index-jobs.js'
import { modelEndpoints } from '../llm/endpoints.js'
import { createChatModel, createEmbeddingModel, type ModelOptions, modelOptionsFromSettings } from '../llm/index.js'

export interface ModelReach {
  id: string
  group: 'completion_models' | 'embedding_models'
  provider: string
  model: string
  reachable: boolean
  error?: string
  /** Where the calls go (no credentials); each endpoint of a pool is checked on its own. */
  endpoints: Array<{ endpoint: string; reachable: boolean; error?: string }>
  checked_at: string
}

const TTL_MS = 60_000

export class ModelProbe {
  private readonly seen = new Map<string, { at: number; reach: Promise<ModelReach> }>()

  /** Every configured model, each checked at most once a minute (same settings). */
  check(settings: Settings): Promise<ModelReach[]> {
    const groups = ['completion_models', 'embedding_models'] as const
    const all = groups.flatMap((group) => Object.keys(settings[group]).map((id) => this.one(settings, group, id)))
    return Promise.all(all)
  }

  private one(settings: Settings, group: 'completion_models' | 'embedding_models', id: string): Promise<ModelReach> {
    const model = settings[group][id]!
    const key = JSON.stringify([group, id, model])
    const hit = this.seen.get(key)
    if (hit !== undefined && Date.now() - hit.at < TTL_MS) return hit.reach
    const reach = probe(settings, group, id)
    this.seen.set(key, { at: Date.now(), reach })
    return reach
  }
}

async function probe(
  settings: Settings,
  group: 'completion_models' | 'embedding_models',
  id: string,
): Promise<ModelReach> {
  const s = settings[group][id]!
  const at = new Date().toISOString()
  const base = { id, group, provider: s.model_provider, model: s.model, checked_at: at }
  let opts: ModelOptions
  try {
    opts = modelOptionsFromSettings(group, id, s, {
      concurrentRequests: settings.concurrent_requests,
      keyOrigin: undefined,
    })
  } catch (error) {
    return { ...base, reachable: false, error: publicMessage(error), endpoints: [] }
  }
  const named = { ...base, provider: opts.provider, model: opts.model }
  // No retries and no cache: the question is whether the model answers now.
  const quick = { ...opts, retry: { ...opts.retry, maxRetries: 0 } }
  const targets = opts.pool?.map((e) => ({ ...quick, pool: undefined, apiBase: e.apiBase, apiKey: e.apiKey })) ?? [
    quick,
  ]
  const endpoints = await Promise.all(
    targets.map(async (target) => {
      const [where] = modelEndpoints(target)
      const error = await answers(group, target)
      return { endpoint: where!.endpoint, reachable: error === undefined, ...(error === undefined ? {} : { error }) }
    }),
  )
  const failed = endpoints.find((e) => !e.reachable)
  const reachable = endpoints.some((e) => e.reachable)
  return {
    ...named,
    reachable,
    ...(reachable || failed?.error === undefined ? {} : { error: failed.error }),
    endpoints,
  }
}

/** undefined when the model answered one tiny call, else the public reason. */
async function answers(
  group: 'completion_models' | 'embedding_models',
  opts: ModelOptions,
): Promise<string | undefined> {
  try {
    const signal = AbortSignal.timeout(10_000)
    if (group === 'completion_models')
      await createChatModel(opts).complete({ messages: [{ role: 'user', content: 'ping' }], noCache: true, signal })
    else await createEmbeddingModel(opts).embed(['ping'], { noCache: true, signal })
    return undefined
  } catch (error) {
    return publicMessage(error)
  }
}
