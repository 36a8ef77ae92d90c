/** Token counts for the usage block of fake replies (cl100k, like most OpenAI-compatible servers). */
import { getTokenizer } from '../../../src/llm/tokenizer.js'

export function countTokens(text: string): number {
  return getTokenizer('cl100k_base').count(text)
}
