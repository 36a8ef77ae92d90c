/**
 * Where a configured model's calls go, as it may be shown (no credentials), and a cheap check that
 * something answers there: one HTTP request to the endpoint, no model call and no tokens spent.
 */
import { providerInfo } from './providers.js'
import { safeUrl } from './safe-url.js'
import type { ModelOptions } from './settings.js'

export interface ModelEndpoint {
  endpoint: string
  /** The request URL without credentials, undefined when the SDK picks the host (Bedrock, Vertex AI). */
  url: string | undefined
}

export function modelEndpoints(options: Pick<ModelOptions, 'provider' | 'apiBase' | 'pool'>): ModelEndpoint[] {
  const info = providerInfo(options.provider)
  if (info.family === 'local') return [{ endpoint: 'in-process (no HTTP)', url: undefined }]
  const bases = options.pool?.map((e) => e.apiBase) ?? [options.apiBase ?? info.defaultApiBase]
  return bases.map((base) =>
    base === undefined
      ? { endpoint: `${options.provider} default endpoint (from its SDK)`, url: undefined }
      : { endpoint: safeUrl(base), url: base },
  )
}

/** undefined when an HTTP server answers at `url` (any status), else why not. */
export async function endpointProblem(url: string, timeoutMs = 3_000): Promise<string | undefined> {
  try {
    const res = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' })
    await res.body?.cancel()
    return undefined
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return `no answer within ${timeoutMs / 1000} s`
    const cause = (error as { cause?: { code?: unknown } }).cause
    return typeof cause?.code === 'string' ? cause.code : 'connection failed'
  }
}
