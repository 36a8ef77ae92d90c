/**
 * What a search may skip and count as a failed call: a model error after retries (LlmError) or a reply it
 * cannot use (QueryError). Anything else (a TypeError, an abort) is a bug or a cancel and must propagate,
 * not be reported as "a model call failed".
 */
import { LlmError, QueryError } from '../../errors.js'

export function isModelFailure(error: unknown): error is LlmError | QueryError {
  return error instanceof LlmError || error instanceof QueryError
}
