/**
 * Prompt templates: Python `str.format` semantics (`{name}` placeholders, `{{`/`}}` literal braces),
 * so prompt files written for Microsoft GraphRAG work unchanged. Built-in prompts ship in the
 * package's prompts/ folder; a configured path replaces them.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError } from '../errors.js'

/** The package's own prompts/ folder (works from src/ under vitest and from dist/). */
export const BUILTIN_PROMPTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'prompts')

/**
 * Reads a prompt: the configured file when `path` is set (a missing file is an error naming the
 * settings key), else the built-in `name` (e.g. `extract_graph.txt`, `internal/extract_graph_loop.txt`).
 */
export function loadPrompt(path: string | null, name: string, keyPath: string): string {
  if (path !== null) {
    try {
      return readFileSync(path, 'utf8')
    } catch (cause) {
      throw new ConfigError(
        `${keyPath}: cannot read prompt file ${path} (${(cause as NodeJS.ErrnoException).code ?? 'error'})`,
        {
          keyPath,
          cause,
        },
      )
    }
  }
  return readFileSync(join(BUILTIN_PROMPTS_DIR, name), 'utf8')
}

/**
 * Fills `{name}` placeholders. Unknown placeholders are left as written and extra values are ignored,
 * as tuned prompts of the reference omit variables; `{{`/`}}` become single braces.
 */
export function formatPrompt(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{'
    if (match === '}}') return '}'
    const value = name === undefined ? undefined : values[name]
    return value === undefined ? match : String(value)
  })
}
