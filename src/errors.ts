/**
 * Error classes. Each carries a stable `code` so callers and tests can branch on the kind of
 * failure without matching messages. The CLI renders them in one place (src/cli/main.ts).
 */

export type ErrorCode =
  | 'CONFIG'
  | 'INPUT'
  | 'LLM'
  | 'STORAGE'
  | 'WORKFLOW'
  | 'INVALID_GRAPH'
  | 'QUERY'
  | 'EXPORT'
  | 'INTERNAL'
  | 'REQUEST'

export class GraphragError extends Error {
  readonly code: ErrorCode
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.name = 'GraphragError'
  }
}

/** A settings problem; `keyPath` is the dotted YAML path (`extract_graph.max_gleanings`). */
export class ConfigError extends GraphragError {
  readonly keyPath: string | undefined
  readonly file: string | undefined
  constructor(message: string, details: { keyPath?: string; file?: string; cause?: unknown } = {}) {
    super('CONFIG', message, { cause: details.cause })
    this.name = 'ConfigError'
    this.keyPath = details.keyPath
    this.file = details.file
  }
}

/** Bad input data: names the file and, where known, the row. */
export class InputError extends GraphragError {
  readonly file: string | undefined
  readonly row: number | undefined
  constructor(message: string, details: { file?: string; row?: number; cause?: unknown } = {}) {
    super('INPUT', message, { cause: details.cause })
    this.name = 'InputError'
    this.file = details.file
    this.row = details.row
  }
}

/** An LLM or embedding call that failed for good (after retries, or not retryable). */
export class LlmError extends GraphragError {
  readonly model: string
  readonly attempts: number
  readonly status: number | undefined
  readonly retryable: boolean
  constructor(
    message: string,
    details: { model: string; attempts: number; status?: number; retryable?: boolean; cause?: unknown },
  ) {
    super('LLM', message, { cause: details.cause })
    this.name = 'LlmError'
    this.model = details.model
    this.attempts = details.attempts
    this.status = details.status
    this.retryable = details.retryable ?? false
  }
}

export class StorageError extends GraphragError {
  readonly path: string | undefined
  constructor(message: string, details: { path?: string; cause?: unknown } = {}) {
    super('STORAGE', message, { cause: details.cause })
    this.name = 'StorageError'
    this.path = details.path
  }
}

/** A workflow failed; `workflow` names it, `cause` holds the underlying error. */
export class WorkflowError extends GraphragError {
  readonly workflow: string
  constructor(workflow: string, message: string, options?: { cause?: unknown }) {
    super('WORKFLOW', message, options)
    this.name = 'WorkflowError'
    this.workflow = workflow
  }
}

export class InvalidGraphError extends GraphragError {
  constructor(message: string) {
    super('INVALID_GRAPH', message)
    this.name = 'InvalidGraphError'
  }
}

export class QueryError extends GraphragError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('QUERY', message, options)
    this.name = 'QueryError'
  }
}

/**
 * A query against a project with no index yet (or without a table the method reads): the user's fix
 * is `graphrag index`, so the server answers 409, not 500.
 */
export class MissingIndexError extends QueryError {
  constructor(message: string) {
    super(message)
    this.name = 'MissingIndexError'
  }
}

/** `graphrag export`: an option the index cannot satisfy (a level it does not have), or an output that cannot be written. */
export class ExportError extends GraphragError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('EXPORT', message, options)
    this.name = 'ExportError'
  }
}

/** A bug in graphrag itself. */
export class InternalError extends GraphragError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INTERNAL', message, options)
    this.name = 'InternalError'
  }
}

/** 403: refused by a guard (Host, Origin, a path outside ingest_roots); 415: wrong Content-Type or file type. */
export type RequestStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415

/** A bad HTTP request to `graphrag serve`: `status` is the HTTP status sent, the message names the field. */
export class RequestError extends GraphragError {
  readonly status: RequestStatus
  constructor(status: RequestStatus, message: string) {
    super('REQUEST', message)
    this.name = 'RequestError'
    this.status = status
  }
}

/** An error and the causes it wraps, outermost first, at most `depth` of them (fetch and the SDKs wrap socket errors). */
export function* causeChain(error: unknown, depth = 4): Generator<{ code?: unknown; message?: unknown }> {
  let at = error
  for (let i = 0; i < depth && typeof at === 'object' && at !== null; i++) {
    yield at as { code?: unknown; message?: unknown }
    at = (at as { cause?: unknown }).cause
  }
}
