/**
 * Maps one `completion_models.<id>` / `embedding_models.<id>` entry (snake_case, as in settings.yaml)
 * to the camelCase options of this layer. The shape is declared here, so src/llm stays independent
 * of src/config; the config's ModelSettings type satisfies it structurally.
 */
import type { Pricing } from './pricing.js'
import { resolveProvider } from './providers.js'
import type { RetryPolicy } from './retry.js'

/** One entry of `api_base` given as a list (a pool of servers). */
interface EndpointShape {
  readonly api_base: string
  readonly api_key: string | null
  readonly concurrent_requests: number | null
  readonly requests_per_minute: number | null
  readonly tokens_per_minute: number | null
  readonly weight: number
}

/** One server of a model pool, with its own key and limits. */
interface EndpointOptions {
  apiBase: string
  apiKey: string | undefined
  concurrentRequests: number
  requestsPerMinute: number | undefined
  tokensPerMinute: number | undefined
  weight: number
}

export interface ModelSettingsShape {
  readonly model_provider: string
  readonly model: string
  readonly api_key: string | null
  readonly api_base: string | readonly EndpointShape[] | null
  readonly auth_method?: 'api_key' | 'azure_managed_identity'
  readonly api_version: string | null
  readonly azure_deployment_name: string | null
  readonly call_args: Readonly<Record<string, unknown>>
  readonly retry: {
    readonly type: 'exponential_backoff' | 'immediate'
    readonly max_retries: number
    readonly base_delay: number
    readonly jitter: boolean
    readonly max_delay: number | null
  } | null
  readonly rate_limit: {
    readonly period_in_seconds: number
    readonly requests_per_period: number | null
    readonly tokens_per_period: number | null
  } | null
  readonly concurrent_requests: number | null
  readonly request_timeout: number
  readonly encoding_model: string | null
  readonly dimensions: number | null
  readonly pricing: { readonly input_per_1m: number; readonly output_per_1m: number } | null
  readonly append_eos?: boolean
  readonly eos_token?: string
}

export interface ModelOptions {
  /** The settings id (`default_completion_model`). */
  id: string
  /** Where the model is configured (`completion_models.default_completion_model`), named in errors. */
  settingsPath: string
  /** The LiteLLM provider name (see providers.ts), after a `provider/` model prefix is resolved. */
  provider: string
  model: string
  apiKey: string | undefined
  /** The single endpoint (the first one of a pool); undefined = the provider's default. */
  apiBase: string | undefined
  /** Set when api_base is a list: the servers calls are spread over. */
  pool?: readonly EndpointOptions[]
  /** Azure: `azure_managed_identity` takes Entra ID tokens from @azure/identity instead of a key. */
  authMethod?: 'api_key' | 'azure_managed_identity'
  apiVersion: string | undefined
  azureDeploymentName: string | undefined
  callArgs: Readonly<Record<string, unknown>>
  retry: RetryPolicy
  concurrentRequests: number
  rateLimit:
    | { periodSeconds: number; requestsPerPeriod: number | undefined; tokensPerPeriod: number | undefined }
    | undefined
  requestTimeoutSeconds: number
  encodingModel: string | undefined
  dimensions: number | undefined
  pricing: Pricing | undefined
  /** Where the API key comes from, for auth errors (never the key itself). */
  keyOrigin: string | undefined
  /** Appended to every text an embedding model embeds (append_eos); undefined = nothing. */
  eosSuffix?: string
}

/** Used when a model has no `retry` section: retrying is the safe default for a batch indexer. */
const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({
  type: 'exponential_backoff',
  maxRetries: 7,
  baseDelay: 2,
  jitter: true,
  maxDelay: undefined,
})

export function modelOptionsFromSettings(
  group: 'completion_models' | 'embedding_models',
  id: string,
  s: ModelSettingsShape,
  context: { concurrentRequests: number; keyOrigin: string | undefined },
): ModelOptions {
  const orUndefined = <T>(v: T | null): T | undefined => (v === null ? undefined : v)
  const list = Array.isArray(s.api_base) ? (s.api_base as readonly EndpointShape[]) : undefined
  const single = typeof s.api_base === 'string' ? s.api_base : list?.[0]?.api_base
  const { provider, model } = resolveProvider(s.model_provider, s.model, single !== undefined)
  const concurrentRequests = s.concurrent_requests ?? context.concurrentRequests
  return {
    id,
    settingsPath: `${group}.${id}`,
    provider,
    model,
    apiKey: orUndefined(s.api_key),
    apiBase: single,
    ...(list === undefined
      ? {}
      : {
          pool: list.map((e) => ({
            apiBase: e.api_base,
            apiKey: orUndefined(e.api_key) ?? orUndefined(s.api_key),
            concurrentRequests: e.concurrent_requests ?? concurrentRequests,
            requestsPerMinute: orUndefined(e.requests_per_minute),
            tokensPerMinute: orUndefined(e.tokens_per_minute),
            weight: e.weight,
          })),
        }),
    authMethod: s.auth_method,
    apiVersion: orUndefined(s.api_version),
    azureDeploymentName: orUndefined(s.azure_deployment_name),
    callArgs: s.call_args,
    retry:
      s.retry === null
        ? DEFAULT_RETRY
        : {
            type: s.retry.type,
            maxRetries: s.retry.max_retries,
            baseDelay: s.retry.base_delay,
            jitter: s.retry.jitter,
            maxDelay: orUndefined(s.retry.max_delay),
          },
    concurrentRequests,
    rateLimit:
      s.rate_limit === null
        ? undefined
        : {
            periodSeconds: s.rate_limit.period_in_seconds,
            requestsPerPeriod: orUndefined(s.rate_limit.requests_per_period),
            tokensPerPeriod: orUndefined(s.rate_limit.tokens_per_period),
          },
    requestTimeoutSeconds: s.request_timeout,
    encodingModel: orUndefined(s.encoding_model),
    dimensions: orUndefined(s.dimensions),
    pricing:
      s.pricing === null ? undefined : { inputPer1m: s.pricing.input_per_1m, outputPer1m: s.pricing.output_per_1m },
    ...(s.append_eos === true ? { eosSuffix: eosSuffix(s.eos_token) } : {}),
    // Callers that know only the settings (the server's queries and probes) still sent a configured key.
    keyOrigin: context.keyOrigin ?? (s.api_key ? `${group}.${id}.api_key in the settings` : undefined),
  }
}

/** The design's EOS token, a newline when blank (its documented fallback). */
export function eosSuffix(token: string | undefined): string {
  return token === undefined || token === '' ? '\n' : token
}
