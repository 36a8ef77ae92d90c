/**
 * The LLM layer's entry point: builds a ChatModel or EmbeddingModel from plain options by stacking
 * the transport, rate limit, retry, cache and usage layers.
 */
import { ConfigError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { KeyValueStore } from '../storage/key-value-store.js'
import type { BatchQueue } from './batch/queue.js'
import { batchChat, batchEmbed } from './batch/transport.js'
import { cachedChat, embeddingCache, type CacheIdentity, type EmbeddingCache } from './cache.js'
import { embedInBatches, type BatchingOptions } from './embeddings.js'
import { LOCAL_EMBEDDING_DIMENSION, localEmbedder } from './local-embedder.js'
import { EndpointPool, type PoolOptions, pooledTransport } from './pool.js'
import { priceOfModel } from './pricing.js'
import { createEndpointTransport, type EndpointTransportOptions } from './provider-transport.js'
import { providerInfo } from './providers.js'
import { limitedChat, limitedEmbed, RateLimiter } from './rate-limit.js'
import { safeUrl } from './safe-url.js'
import { retryingChat, retryingEmbed, type RetryContext } from './retry.js'
import type { ModelOptions } from './settings.js'
import { encodingForModel, getTokenizer } from './tokenizer.js'
import type { ChatCall, ChatTransport, EmbedTransport } from './transport.js'
import type { ChatModel, CompletionRequest, EmbeddingModel } from './types.js'
import { meteredChat, UsageMeter } from './usage.js'

export { modelOptionsFromSettings, type ModelOptions } from './settings.js'
export { RateLimiter } from './rate-limit.js'
export type { EndpointPool, EndpointStats } from './pool.js'
export { UsageMeter } from './usage.js'

export interface ModelDeps {
  /** The cache partition (`cache.child(model_instance_name)`); undefined disables caching. */
  cache?: KeyValueStore
  /** One limiter per model, shared by every workflow that uses it (see createRateLimiter). */
  limiter?: RateLimiter
  /** Where this user's calls are counted (one meter per workflow and model). */
  meter?: UsageMeter
  log?: Logger
  /** The model's endpoint pool when api_base is a list, shared like the limiter (see createEndpointPool). */
  pool?: EndpointPool
  /** Batch mode: the model's queue, and whether a line a batch did not answer usably is retried synchronously. */
  batch?: { queue: BatchQueue; fallback: boolean }
}

const DEFAULT_BATCHING: Readonly<BatchingOptions> = Object.freeze({
  batchSize: 16,
  batchMaxTokens: 8191,
  windowOverlap: 100,
})

export function createRateLimiter(
  options: Pick<ModelOptions, 'concurrentRequests' | 'rateLimit' | 'pool'>,
): RateLimiter {
  return new RateLimiter({
    // A pool's endpoints each bound their own calls; together they take the sum.
    concurrentRequests:
      options.pool === undefined
        ? options.concurrentRequests
        : options.pool.reduce((n, e) => n + e.concurrentRequests, 0),
    periodSeconds: options.rateLimit?.periodSeconds ?? 60,
    requestsPerPeriod: options.rateLimit?.requestsPerPeriod,
    tokensPerPeriod: options.rateLimit?.tokensPerPeriod,
  })
}

export function createUsageMeter(options: Pick<ModelOptions, 'provider' | 'model' | 'pricing'>): UsageMeter {
  return new UsageMeter(priceOfModel(options.provider, options.model, options.pricing))
}

export function createChatModel(options: ModelOptions, deps: ModelDeps = {}): ChatModel {
  if (options.provider === 'local') {
    throw new ConfigError(
      `${options.settingsPath}.model_provider: "local" only provides embeddings; use another provider for chat models`,
      {
        keyPath: `${options.settingsPath}.model_provider`,
      },
    )
  }
  const tokenizer = getTokenizer(encodingForModel(options.model, options.encodingModel))
  const meter = deps.meter ?? createUsageMeter(options)
  const client = endpointTransport(options, tokenizer.count, deps)
  // Layers, outermost first: usage → cache → retry → rate limit → client. A cache hit therefore
  // costs no slot and no token budget; each retry re-enters the limiter, so no slot is held while
  // backing off and every attempt counts against the window, as the reference orders them.
  let chain: ChatTransport = limitedChat(client, deps.limiter ?? createRateLimiter(options), tokenizer.count)
  // Batch mode replaces the limited client under the same retry/cache/usage layers; the provider's
  // batch quota, not concurrent_requests, bounds what is collected.
  if (deps.batch !== undefined)
    chain = batchChat({ ...batchLineOptions(options, tokenizer.count, deps.batch), sync: chain })
  chain = retryingChat(chain, retryContext(options, deps.log))
  if (deps.cache !== undefined) chain = cachedChat(chain, deps.cache, cacheIdentity(options))
  chain = meteredChat(chain)
  const toCall = (request: CompletionRequest): ChatCall => ({
    messages: request.messages,
    responseFormat: request.responseFormat,
    params: { ...options.callArgs, ...(request.callArgs ?? {}) },
    meter,
    noCache: request.noCache === true,
    signal: request.signal,
    beforeSend: request.beforeSend,
  })
  return {
    id: options.id,
    model: options.model,
    async complete(request) {
      const reply = await chain.complete(toCall(request))
      const result = {
        content: reply.content,
        usage: reply.usage,
        cached: reply.cached === true,
        ...(reply.cacheKey === undefined ? {} : { cacheKey: reply.cacheKey }),
      }
      return request.responseFormat === undefined ? result : { ...result, json: reply.json }
    },
    stream: (request) => chain.stream(toCall(request)),
    countTokens: (text) => tokenizer.count(text),
  }
}

/**
 * An embedding model. `model_provider: local` is the offline hashing embedder (no HTTP, so no
 * cache, retries or limits); every other provider goes through the same layers as chat.
 */
/** Each non-empty text with the EOS suffix appended (an empty text stays empty: nothing to embed). */
function withEos(texts: readonly string[], suffix: string | undefined): readonly string[] {
  return suffix === undefined ? texts : texts.map((t) => (t === '' ? t : `${t}${suffix}`))
}

export function createEmbeddingModel(
  options: ModelOptions,
  deps: ModelDeps = {},
  batching: Partial<BatchingOptions> = {},
): EmbeddingModel {
  const tokenizer = getTokenizer(encodingForModel(options.model, options.encodingModel))
  const meter = deps.meter ?? createUsageMeter(options)
  let chain: EmbedTransport
  let cache: EmbeddingCache | undefined
  if (options.provider === 'local') {
    chain = localEmbedder(options.dimensions ?? LOCAL_EMBEDDING_DIMENSION)
  } else {
    // Same order and reasons as for chat models (see createChatModel), except that usage and cache
    // sit in the batching step: it looks up each text before packing batches from the misses alone.
    chain = limitedEmbed(
      endpointTransport(options, tokenizer.count, deps),
      deps.limiter ?? createRateLimiter(options),
      tokenizer.count,
    )
    if (deps.batch !== undefined)
      chain = batchEmbed({ ...batchLineOptions(options, tokenizer.count, deps.batch), sync: chain })
    chain = retryingEmbed(chain, retryContext(options, deps.log))
    if (deps.cache !== undefined) cache = embeddingCache(deps.cache, cacheIdentity(options))
  }
  const resolved = { ...DEFAULT_BATCHING, ...batching }
  return {
    id: options.id,
    model: options.model,
    embed: (texts, opts) =>
      embedInBatches(
        withEos(texts, options.eosSuffix),
        chain,
        tokenizer,
        resolved,
        { meter, noCache: opts?.noCache === true, signal: opts?.signal, beforeSend: opts?.beforeSend },
        cache,
      ),
    countTokens: (text) => tokenizer.count(text),
  }
}

/**
 * The endpoints of a pooled model (`api_base` as a list), each with its own transport and limits.
 * One pool per model serves every workflow, so health and load are seen across the run.
 */
export function createEndpointPool(options: ModelOptions, poolOptions: PoolOptions = {}): EndpointPool {
  const tokenizer = getTokenizer(encodingForModel(options.model, options.encodingModel))
  const endpoints = options.pool ?? [
    {
      apiBase: options.apiBase ?? '',
      apiKey: options.apiKey,
      concurrentRequests: options.concurrentRequests,
      requestsPerMinute: undefined,
      tokensPerMinute: undefined,
      weight: 1,
    },
  ]
  return new EndpointPool(
    endpoints.map((e) => ({
      label: safeUrl(e.apiBase),
      weight: e.weight,
      capacity: e.concurrentRequests,
      limiter: new RateLimiter({
        concurrentRequests: e.concurrentRequests,
        periodSeconds: 60,
        requestsPerPeriod: e.requestsPerMinute,
        tokensPerPeriod: e.tokensPerMinute,
      }),
      transport: createEndpointTransport({
        ...transportOptions(options, tokenizer.count),
        apiBase: e.apiBase,
        apiKey: e.apiKey,
      }),
    })),
    poolOptions,
  )
}

function endpointTransport(
  options: ModelOptions,
  countTokens: (text: string) => number,
  deps: ModelDeps,
): ChatTransport & EmbedTransport {
  if (options.pool === undefined) return createEndpointTransport(transportOptions(options, countTokens))
  return pooledTransport(deps.pool ?? createEndpointPool(options), countTokens)
}

function transportOptions(options: ModelOptions, countTokens: (text: string) => number): EndpointTransportOptions {
  return {
    provider: options.provider,
    authMethod: options.authMethod,
    model: options.model,
    apiKey: options.apiKey,
    apiBase: options.apiBase,
    apiVersion: options.apiVersion,
    azureDeploymentName: options.azureDeploymentName,
    timeoutMs: options.requestTimeoutSeconds * 1000,
    dimensions: options.dimensions,
    countTokens,
  }
}

function batchLineOptions(
  options: ModelOptions,
  countTokens: (text: string) => number,
  batch: NonNullable<ModelDeps['batch']>,
) {
  const info = providerInfo(options.provider)
  return {
    queue: batch.queue,
    fallback: batch.fallback,
    // An Azure batch line names the deployment where a synchronous call puts it in the URL.
    model: info.family === 'azure' ? (options.azureDeploymentName ?? options.model) : options.model,
    jsonMode: info.jsonMode,
    dimensions: options.dimensions,
    countTokens,
  }
}

function retryContext(options: ModelOptions, log: Logger | undefined): RetryContext {
  return { modelRef: options.settingsPath, keyOrigin: options.keyOrigin, policy: options.retry, log }
}

function cacheIdentity(options: ModelOptions): CacheIdentity {
  return {
    provider: options.provider,
    model: options.model,
    extra: { deployment: options.azureDeploymentName, apiVersion: options.apiVersion, dimensions: options.dimensions },
  }
}
