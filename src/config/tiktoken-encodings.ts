/**
 * The tiktoken encodings the tokenizer (src/llm/tokenizer.ts) can load. Settings check names against
 * this list at load time, so a typo fails before any workflow runs rather than midway through one.
 */
export const TIKTOKEN_ENCODINGS = ['gpt2', 'r50k_base', 'p50k_base', 'p50k_edit', 'cl100k_base', 'o200k_base'] as const
