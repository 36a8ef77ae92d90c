/**
 * The model registry of an index run: builds the configured chat and embedding models, shares one
 * rate limiter per model across workflows, counts usage per workflow and model, and runs preflight.
 */
import type { Settings } from '../../config/schema.js'
import { ConfigError, LlmError } from '../../errors.js'
import {
  createChatModel,
  createEmbeddingModel,
  createEndpointPool,
  type EndpointPool,
  type EndpointStats,
  createRateLimiter,
  createUsageMeter,
  modelOptionsFromSettings,
  type ModelOptions,
  type RateLimiter,
  type UsageMeter,
} from '../../llm/index.js'
import type { BatchMode } from '../../llm/batch/mode.js'
import { BATCH_PRICE_FACTOR } from '../../llm/batch/providers.js'
import { priceOfModel } from '../../llm/pricing.js'
import type { ChatModel, EmbeddingModel, ModelUsage } from '../../llm/types.js'
import type { Logger } from '../../logger.js'
import { DEFAULT_EMBEDDING_NAMES } from '../../model/embeddings.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import type { LiveStatus } from './reporter.js'
import type { ModelProvider } from '../workflow.js'

export interface ModelRegistryDeps {
  cache: KeyValueStore
  log: Logger
  /** `completion_models.<id>` → where its API key comes from (from loadConfig), used in auth errors. */
  apiKeyOrigins?: Readonly<Record<string, string>>
  /** `--no-cache`: every call goes to the provider. */
  noCache?: boolean
  /** `--batch`: the workflows' calls go to the providers' Batch APIs (the preflight stays synchronous). */
  batch?: BatchMode
}

export interface ModelRegistry {
  forWorkflow(name: string): ModelProvider
  /** workflow → model id → usage. */
  usageByWorkflow(): Record<string, Record<string, ModelUsage>>
  /** `group.id` → calls, failures and state of each endpoint, for models whose api_base is a list. */
  endpointStats(): Record<string, EndpointStats[]>
  /** Retries so far and calls in flight for WAITING_MS or more, over the workflow's models. */
  liveStatus(workflow: string): LiveStatus
  /**
   * One tiny uncached call per model; throws an LlmError naming every model that failed and why, or
   * a ConfigError when the embed_text model's dimension differs from the vector store's size.
   */
  preflight(ids?: { readonly chat: readonly string[]; readonly embedding: readonly string[] }): Promise<void>
}

type Group = 'completion_models' | 'embedding_models'

/** A call in flight this long shows in the progress line as waiting. */
const WAITING_MS = 10_000

const PREFLIGHT_CHAT = 'This is an LLM connectivity test. Say Hello World'
const PREFLIGHT_EMBEDDING = 'This is an LLM Embedding Test String'

export function createModelRegistry(settings: Settings, deps: ModelRegistryDeps): ModelRegistry {
  const limiters = new Map<string, RateLimiter>()
  const pools = new Map<string, EndpointPool>()
  const meters = new Map<string, Map<string, UsageMeter>>()
  const models = new Map<string, ChatModel | EmbeddingModel>()

  function options(group: Group, id: string, keyPath: string): ModelOptions {
    const entry = settings[group][id]
    if (entry === undefined) {
      const known = Object.keys(settings[group])
      throw new ConfigError(
        `${keyPath}: no ${group} entry "${id}" (configured: ${known.length > 0 ? known.join(', ') : 'none'})`,
        { keyPath },
      )
    }
    return modelOptionsFromSettings(group, id, entry, {
      concurrentRequests: settings.concurrent_requests,
      keyOrigin: deps.apiKeyOrigins?.[`${group}.${id}`],
    })
  }

  function limiter(opts: ModelOptions): RateLimiter {
    let l = limiters.get(opts.settingsPath)
    if (l === undefined) limiters.set(opts.settingsPath, (l = createRateLimiter(opts)))
    return l
  }

  function pool(opts: ModelOptions): EndpointPool | undefined {
    if (opts.pool === undefined) return undefined
    let p = pools.get(opts.settingsPath)
    if (p === undefined) pools.set(opts.settingsPath, (p = createEndpointPool(opts)))
    return p
  }

  function meter(workflow: string, opts: ModelOptions): UsageMeter {
    let byModel = meters.get(workflow)
    if (byModel === undefined) meters.set(workflow, (byModel = new Map()))
    let m = byModel.get(opts.id)
    if (m === undefined) byModel.set(opts.id, (m = createUsageMeter(pricedAsCalled(workflow, opts))))
    return m
  }

  /** A batched model's workflow calls cost the batch price (the preflight is a synchronous call). */
  function pricedAsCalled(workflow: string, opts: ModelOptions): ModelOptions {
    if (workflow === 'preflight' || deps.batch?.queueFor(opts) === undefined) return opts
    const price = priceOfModel(opts.provider, opts.model, opts.pricing)
    if (price === undefined) return opts
    const pricing = {
      inputPer1m: price.inputPer1m * BATCH_PRICE_FACTOR,
      outputPer1m: price.outputPer1m * BATCH_PRICE_FACTOR,
    }
    return { ...opts, pricing }
  }

  function modelDeps(workflow: string, opts: ModelOptions, cachePartition: string | undefined) {
    const cache = deps.noCache === true || cachePartition === undefined ? undefined : deps.cache.child(cachePartition)
    const queue = workflow === 'preflight' ? undefined : deps.batch?.queueFor(opts)
    const batch = queue === undefined ? undefined : { queue, fallback: deps.batch?.fallback === true }
    return { cache, limiter: limiter(opts), pool: pool(opts), meter: meter(workflow, opts), log: deps.log, batch }
  }

  function chat(workflow: string, id: string, keyPath: string, cachePartition: string | undefined): ChatModel {
    const key = `${workflow}\u0000chat\u0000${id}\u0000${cachePartition ?? ''}`
    const existing = models.get(key)
    if (existing !== undefined) return existing as ChatModel
    const opts = options('completion_models', id, keyPath)
    const model = createChatModel(opts, modelDeps(workflow, opts, cachePartition))
    models.set(key, model)
    return model
  }

  function embedding(
    workflow: string,
    id: string,
    keyPath: string,
    cachePartition: string | undefined,
  ): EmbeddingModel {
    const key = `${workflow}\u0000embedding\u0000${id}\u0000${cachePartition ?? ''}`
    const existing = models.get(key)
    if (existing !== undefined) return existing as EmbeddingModel
    const opts = options('embedding_models', id, keyPath)
    const batching = { batchSize: settings.embed_text.batch_size, batchMaxTokens: settings.embed_text.batch_max_tokens }
    const model = createEmbeddingModel(opts, modelDeps(workflow, opts, cachePartition), batching)
    models.set(key, model)
    return model
  }

  async function check(group: Group, id: string): Promise<string | undefined> {
    try {
      const opts = options(group, id, `${group}.${id}`)
      // A quick answer matters more here than riding out a long outage: at most two retries.
      const quick = { ...opts, retry: { ...opts.retry, maxRetries: Math.min(opts.retry.maxRetries, 2) } }
      const d = modelDeps('preflight', opts, undefined)
      if (group === 'completion_models') {
        await createChatModel(quick, d).complete({
          messages: [{ role: 'user', content: PREFLIGHT_CHAT }],
          noCache: true,
        })
      } else {
        const [vector] = await createEmbeddingModel(quick, d).embed([PREFLIGHT_EMBEDDING], { noCache: true })
        checkDimension(id, vector?.length ?? 0)
      }
      deps.log.info(`preflight: ${group}.${id} (${opts.model}) answered`)
      return undefined
    } catch (error) {
      if (error instanceof ConfigError) throw error
      const message = error instanceof Error ? error.message : String(error)
      return message.startsWith(`${group}.${id}`) ? message : `${group}.${id}: ${message}`
    }
  }

  /** A vector size that cannot match the model fails now, before any extraction is paid for. */
  function checkDimension(id: string, size: number): void {
    if (id !== settings.embed_text.embedding_model_id) return
    const vs = settings.vector_store
    for (const name of settings.embed_text.names ?? DEFAULT_EMBEDDING_NAMES) {
      const own = vs.index_schema[name]?.vector_size
      const [expected, keyPath] = own
        ? [own, `vector_store.index_schema.${name}.vector_size`]
        : [vs.vector_size, 'vector_store.vector_size']
      if (expected !== size) {
        throw new ConfigError(
          `embedding model ${id} returns vectors of dimension ${size}, but ${keyPath} is ${expected}; set it to ${size}`,
          { keyPath },
        )
      }
    }
  }

  return {
    forWorkflow(workflow) {
      return {
        chat: (id, o) => chat(workflow, id, o.keyPath, o.cachePartition),
        embedding: (id, o) => embedding(workflow, id, o.keyPath, o.cachePartition),
        hasChat: (id) => id !== null && Object.hasOwn(settings.completion_models, id),
      }
    },
    liveStatus(workflow) {
      const status: LiveStatus = { retries: 0, waitingCalls: 0, longestWaitSeconds: 0 }
      for (const m of meters.get(workflow)?.values() ?? []) {
        const waiting = m.waiting(WAITING_MS)
        status.retries += m.snapshot().retries
        status.waitingCalls += waiting.calls
        status.longestWaitSeconds = Math.max(status.longestWaitSeconds, waiting.longestMs / 1000)
      }
      const endpoints = [...pools.values()].flatMap((p) => p.stats())
      if (endpoints.length > 0) {
        const up = endpoints.filter((e) => e.state === 'up').length
        const calls = endpoints.map((e) => `${e.endpoint.replace(/^https?:\/\//, '')}:${e.calls}`).join(' ')
        status.endpoints = `endpoints ${up}/${endpoints.length} up (${calls} calls)`
      }
      const batches = deps.batch?.progress()
      if (batches !== undefined && batches.linesSent + batches.pending > 0)
        status.batches = `batches ${batches.submitted} submitted, ${batches.pending} in progress, ${batches.done} done, ${batches.linesAnswered}/${batches.linesSent} lines answered`
      return status
    },
    endpointStats() {
      return Object.fromEntries([...pools].map(([path, p]) => [path, p.stats()]))
    },
    usageByWorkflow() {
      const out: Record<string, Record<string, ModelUsage>> = {}
      for (const [workflow, byModel] of meters)
        out[workflow] = Object.fromEntries([...byModel].map(([id, m]) => [id, m.snapshot()]))
      return out
    },
    async preflight(ids) {
      const chatIds = ids?.chat ?? Object.keys(settings.completion_models)
      const embeddingIds = ids?.embedding ?? Object.keys(settings.embedding_models)
      const problems = (
        await Promise.all([
          ...chatIds.map((id) => check('completion_models', id)),
          ...embeddingIds.map((id) => check('embedding_models', id)),
        ])
      ).filter((p): p is string => p !== undefined)
      if (problems.length > 0) {
        const first = problems[0]!
        throw new LlmError(`model preflight failed (use --skip-validation to skip it):\n  ${problems.join('\n  ')}`, {
          model: first.slice(0, first.indexOf(':')),
          attempts: 1,
        })
      }
    },
  }
}
