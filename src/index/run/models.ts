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

  const options = (group: Group, id: string, keyPath: string): ModelOptions =>
    modelOptionsFor(settings, deps.apiKeyOrigins, group, id, keyPath)

  function meter(workflow: string, opts: ModelOptions): UsageMeter {
    const byModel = getOrCreate(meters, workflow, () => new Map<string, UsageMeter>())
    return getOrCreate(byModel, opts.id, () => createUsageMeter(pricedAsCalled(deps.batch, workflow, opts)))
  }

  function modelDeps(workflow: string, opts: ModelOptions, cachePartition: string | undefined) {
    const cache = deps.noCache === true || cachePartition === undefined ? undefined : deps.cache.child(cachePartition)
    const queue = workflow === 'preflight' ? undefined : deps.batch?.queueFor(opts)
    const batch = queue === undefined ? undefined : { queue, fallback: deps.batch?.fallback === true }
    const limiter = getOrCreate(limiters, opts.settingsPath, () => createRateLimiter(opts))
    const pool =
      opts.pool === undefined ? undefined : getOrCreate(pools, opts.settingsPath, () => createEndpointPool(opts))
    return { cache, limiter, pool, meter: meter(workflow, opts), log: deps.log, batch }
  }

  function chat(workflow: string, id: string, keyPath: string, cachePartition: string | undefined): ChatModel {
    const key = `${workflow}\u0000chat\u0000${id}\u0000${cachePartition ?? ''}`
    return getOrCreate(models, key, () => {
      const opts = options('completion_models', id, keyPath)
      return createChatModel(opts, modelDeps(workflow, opts, cachePartition))
    }) as ChatModel
  }

  function embedding(workflow: string, id: string, keyPath: string, cachePartition?: string): EmbeddingModel {
    const key = `${workflow}\u0000embedding\u0000${id}\u0000${cachePartition ?? ''}`
    return getOrCreate(models, key, () => {
      const opts = options('embedding_models', id, keyPath)
      const batching = {
        batchSize: settings.embed_text.batch_size,
        batchMaxTokens: settings.embed_text.batch_max_tokens,
      }
      return createEmbeddingModel(opts, modelDeps(workflow, opts, cachePartition), batching)
    }) as EmbeddingModel
  }

  const check = (group: Group, id: string) =>
    preflightProblem(group, id, async () => {
      const opts = options(group, id, `${group}.${id}`)
      await callOnce(settings, group, id, opts, modelDeps('preflight', opts, undefined))
      deps.log.info(`preflight: ${group}.${id} (${opts.model}) answered`)
    })

  return {
    forWorkflow(workflow) {
      return {
        chat: (id, o) => chat(workflow, id, o.keyPath, o.cachePartition),
        embedding: (id, o) => embedding(workflow, id, o.keyPath, o.cachePartition),
        hasChat: (id) => id !== null && Object.hasOwn(settings.completion_models, id),
      }
    },
    liveStatus: (workflow) => liveStatusOf(meters.get(workflow)?.values() ?? [], pools.values(), deps.batch),
    endpointStats() {
      return Object.fromEntries([...pools].map(([path, p]) => [path, p.stats()]))
    },
    usageByWorkflow: () => usageOf(meters),
    async preflight(ids) {
      const chatIds = ids?.chat ?? Object.keys(settings.completion_models)
      const embeddingIds = ids?.embedding ?? Object.keys(settings.embedding_models)
      const problems = await Promise.all([
        ...chatIds.map((id) => check('completion_models', id)),
        ...embeddingIds.map((id) => check('embedding_models', id)),
      ])
      throwIfAnyFailed(problems.filter((p): p is string => p !== undefined))
    },
  }
}

/** undefined when the model answered, else why not, prefixed with its settings path. */
async function preflightProblem(group: Group, id: string, call: () => Promise<void>): Promise<string | undefined> {
  try {
    await call()
    return undefined
  } catch (error) {
    if (error instanceof ConfigError) throw error
    const message = error instanceof Error ? error.message : String(error)
    return message.startsWith(`${group}.${id}`) ? message : `${group}.${id}: ${message}`
  }
}

function usageOf(meters: Map<string, Map<string, UsageMeter>>): Record<string, Record<string, ModelUsage>> {
  const out: Record<string, Record<string, ModelUsage>> = {}
  for (const [workflow, byModel] of meters)
    out[workflow] = Object.fromEntries([...byModel].map(([id, m]) => [id, m.snapshot()]))
  return out
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key)
  if (value === undefined) map.set(key, (value = create()))
  return value
}

function modelOptionsFor(
  settings: Settings,
  apiKeyOrigins: ModelRegistryDeps['apiKeyOrigins'],
  group: Group,
  id: string,
  keyPath: string,
): ModelOptions {
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
    keyOrigin: apiKeyOrigins?.[`${group}.${id}`],
  })
}

/** A batched model's workflow calls cost the batch price (the preflight is a synchronous call). */
function pricedAsCalled(batch: BatchMode | undefined, workflow: string, opts: ModelOptions): ModelOptions {
  if (workflow === 'preflight' || batch?.queueFor(opts) === undefined) return opts
  const price = priceOfModel(opts.provider, opts.model, opts.pricing)
  if (price === undefined) return opts
  const pricing = {
    inputPer1m: price.inputPer1m * BATCH_PRICE_FACTOR,
    outputPer1m: price.outputPer1m * BATCH_PRICE_FACTOR,
  }
  return { ...opts, pricing }
}

/** The preflight's one uncached call to a model; an embedding model's vector size is checked too. */
async function callOnce(
  settings: Settings,
  group: Group,
  id: string,
  opts: ModelOptions,
  modelDeps: Parameters<typeof createChatModel>[1],
): Promise<void> {
  // A quick answer matters more here than riding out a long outage: at most two retries.
  const quick = { ...opts, retry: { ...opts.retry, maxRetries: Math.min(opts.retry.maxRetries, 2) } }
  if (group === 'completion_models') {
    await createChatModel(quick, modelDeps).complete({
      messages: [{ role: 'user', content: PREFLIGHT_CHAT }],
      noCache: true,
    })
  } else {
    const [vector] = await createEmbeddingModel(quick, modelDeps).embed([PREFLIGHT_EMBEDDING], { noCache: true })
    checkDimension(settings, id, vector?.length ?? 0)
  }
}

/** A vector size that cannot match the model fails now, before any extraction is paid for. */
function checkDimension(settings: Settings, id: string, size: number): void {
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

function throwIfAnyFailed(problems: readonly string[]): void {
  if (problems.length === 0) return
  const first = problems[0]!
  throw new LlmError(`model preflight failed (use --skip-validation to skip it):\n  ${problems.join('\n  ')}`, {
    model: first.slice(0, first.indexOf(':')),
    attempts: 1,
  })
}

/** Retries, long-waiting calls, endpoint health and batch progress of one workflow's models. */
function liveStatusOf(
  meters: Iterable<UsageMeter>,
  pools: Iterable<EndpointPool>,
  batch: BatchMode | undefined,
): LiveStatus {
  const status: LiveStatus = { retries: 0, waitingCalls: 0, longestWaitSeconds: 0 }
  for (const m of meters) {
    const waiting = m.waiting(WAITING_MS)
    status.retries += m.snapshot().retries
    status.waitingCalls += waiting.calls
    status.longestWaitSeconds = Math.max(status.longestWaitSeconds, waiting.longestMs / 1000)
  }
  const endpoints = [...pools].flatMap((p) => p.stats())
  if (endpoints.length > 0) {
    const up = endpoints.filter((e) => e.state === 'up').length
    const calls = endpoints.map((e) => `${e.endpoint.replace(/^https?:\/\//, '')}:${e.calls}`).join(' ')
    status.endpoints = `endpoints ${up}/${endpoints.length} up (${calls} calls)`
  }
  const batches = batch?.progress()
  if (batches !== undefined && batches.linesSent + batches.pending > 0)
    status.batches = `batches ${batches.submitted} submitted, ${batches.pending} in progress, ${batches.done} done, ${batches.linesAnswered}/${batches.linesSent} lines answered`
  return status
}
