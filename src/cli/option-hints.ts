/**
 * Options older tutorials use that this CLI spells differently. Early Microsoft GraphRAG took the
 * question of `graphrag query` as `--query "…"` (or `-q "…"`); here it is the command's argument.
 * Commander reports the unknown option; this adds what to write instead, as its own "Did you mean"
 * does for a misspelt option.
 */
import { closestKey } from '../config/did-you-mean.js'

const QUESTION_ARGUMENT =
  'graphrag query "<question>"? The question is the command\'s argument, not an option (older tutorials wrote --query)'

const QUERY_RENAMED: Readonly<Record<string, string>> = { '--query': QUESTION_ARGUMENT, '-q': QUESTION_ARGUMENT }

/** Commander's outputError hook for `graphrag query`: an unknown option with a known replacement gets it named. */
export function withQueryOptionHints(text: string, write: (text: string) => void): void {
  const flag = /^error: unknown option '([^'=]+)/.exec(text)?.[1]
  const renamed = flag === undefined ? undefined : replacementOf(flag)
  write(renamed === undefined ? text : `${text.trimEnd()}\n(Did you mean ${renamed})\n`)
}

/** Long options forgive a typo (`--querry`); a short one must match, or every unknown letter would. */
function replacementOf(flag: string): string | undefined {
  if (!flag.startsWith('--')) return QUERY_RENAMED[flag]
  const long = Object.keys(QUERY_RENAMED).filter((k) => k.startsWith('--'))
  const key = closestKey(flag, long)
  return key === undefined ? undefined : QUERY_RENAMED[key]
}
