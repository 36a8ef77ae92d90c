/** The settings.yaml snippet that points the default models at a fake server. */

export interface FakeModelSettingsOptions {
  /** Chat model name (default gpt-4.1-mini). */
  chatModel?: string
  /** Embedding model name (default text-embedding-3-small). */
  embeddingModel?: string
  apiKey?: string
  /** Retries after the first attempt (default 3). */
  maxRetries?: number
  /** Seconds before a request is abandoned (default 30). */
  requestTimeout?: number
  concurrentRequests?: number
}

/** YAML with `completion_models.default_completion_model` and `embedding_models.default_embedding_model`. */
export function fakeModelSettingsYaml(baseUrl: string, opts: FakeModelSettingsOptions = {}): string {
  const model = (name: string) =>
    [
      `    model_provider: openai`,
      `    model: ${name}`,
      `    api_key: ${opts.apiKey ?? 'test-key'}`,
      `    api_base: ${baseUrl}`,
      `    request_timeout: ${opts.requestTimeout ?? 30}`,
      ...(opts.concurrentRequests === undefined ? [] : [`    concurrent_requests: ${opts.concurrentRequests}`]),
      `    retry:`,
      `      type: exponential_backoff`,
      `      max_retries: ${opts.maxRetries ?? 3}`,
      `      base_delay: 0.01`,
      `      jitter: false`,
      `      max_delay: 0.1`,
    ].join('\n')
  return [
    'completion_models:',
    '  default_completion_model:',
    model(opts.chatModel ?? 'gpt-4.1-mini'),
    'embedding_models:',
    '  default_embedding_model:',
    model(opts.embeddingModel ?? 'text-embedding-3-small'),
    '',
  ].join('\n')
}
