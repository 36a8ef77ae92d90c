/** The one check of a question, shared by `graphrag query`, the library searches and `POST /query`. */
import { QueryError } from '../errors.js'

export const EMPTY_QUESTION = 'the question is empty: ask something (a question of only spaces is empty too)'

/** True when there is nothing to ask: empty or only whitespace. */
export function isBlankQuestion(question: string): boolean {
  return question.trim() === ''
}

/** Throws the shared message for an empty or whitespace-only question, before any model is called. */
export function checkQuestion(question: string): void {
  if (isBlankQuestion(question)) throw new QueryError(EMPTY_QUESTION)
}
