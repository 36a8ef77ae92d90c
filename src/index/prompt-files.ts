/** Reading the prompts a workflow declares, and hashing their text for the resume fingerprint. */
import { createHash } from 'node:crypto'
import { loadPrompt } from '../llm/prompt-template.js'
import type { PromptFile } from './workflow.js'

/** The prompt's text; a configured file that cannot be read is a ConfigError naming its key and path. */
export function readPrompt(file: PromptFile): string {
  return loadPrompt(file.path, file.builtin, file.keyPath)
}

/** Built-in name → SHA-256 of the text in use (the configured file's or the built-in's), so an edited prompt re-runs its workflow. */
export function promptHashes(files: readonly PromptFile[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const file of files) out[file.builtin] = createHash('sha256').update(readPrompt(file)).digest('hex')
  return out
}
