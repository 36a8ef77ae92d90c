/** The search methods, in the order the CLI, the server, the OpenAPI document and eval list them. */
export const SEARCH_METHODS = ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy'] as const

export type SearchMethod = (typeof SEARCH_METHODS)[number]

/** Methods whose answer is one model call over one context, so that context (or the prompt) can be shown instead. */
export const ANSWER_ONLY_METHODS: readonly SearchMethod[] = ['local', 'basic', 'graph']
