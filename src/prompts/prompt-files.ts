/** Reading the prompts a workflow declares, and hashing their text for the resume fingerprint. */
import { createHash } from 'node:crypto'
import { loadPrompt } from './prompt-template.js'

/** A prompt a workflow reads: the configured file, or the built-in one when `path` is null. */
export interface PromptFile {
  /** The settings key that sets it, named when the file cannot be read. */
  keyPath: string
  path: string | null
  /** The built-in prompt's name under prompts/ (`extract_graph.txt`, `internal/extract_graph_loop.txt`). */
  builtin: string
}

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
