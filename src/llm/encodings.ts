/**
 * The tiktoken encodings the tokenizer can load. Kept apart from tokenizer.ts (which loads the wasm
 * encoder) so settings can check names at load time without paying for it.
 */
export const TIKTOKEN_ENCODINGS = ['gpt2', 'r50k_base', 'p50k_base', 'p50k_edit', 'cl100k_base', 'o200k_base'] as const
