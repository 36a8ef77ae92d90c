/** The search methods, in the order the CLI, the server, the OpenAPI document and eval list them. */
export const SEARCH_METHODS = ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy'] as const

export type SearchMethod = (typeof SEARCH_METHODS)[number]
