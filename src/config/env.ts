/** `.env` parsing and `$VAR` / `${VAR}` substitution on the raw settings text (before YAML parsing). */
import { ConfigError } from '../errors.js'

/** Parses dotenv text: KEY=VALUE lines, optional `export`, quotes, `#` comments. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim()
    if (line === '' || line.startsWith('#')) continue
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line)
    if (!match) continue
    let value = match[2]!
    const quote = value[0]
    if ((quote === '"' || quote === "'") && value.lastIndexOf(quote) > 0) {
      value = value.slice(1, value.lastIndexOf(quote))
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"')
    } else {
      value = value.replace(/\s+#.*$/, '').trim()
    }
    out[match[1]!] = value
  }
  return out
}

const PLACEHOLDER = /\$(?:(\$)|\{([_a-zA-Z][_a-zA-Z0-9]*)\}|([_a-zA-Z][_a-zA-Z0-9]*)|(\{[^}]*\}?|.|$))/g

/**
 * Substitutes environment variables the way Python's string.Template does (`$$` is a literal `$`).
 * Whole-line comments are left alone, so a `$` in a comment never breaks loading.
 */
export function substituteEnv(text: string, env: Readonly<Record<string, string | undefined>>, file: string): string {
  return text
    .split('\n')
    .map((line, index) => {
      if (/^\s*#/.test(line)) return line
      return line.replace(
        PLACEHOLDER,
        (whole, dollar: string | undefined, braced: string | undefined, bare: string | undefined) => {
          if (dollar !== undefined) return '$'
          const name = braced ?? bare
          if (name === undefined) {
            throw new ConfigError(`${file}:${index + 1}: invalid placeholder "${whole}" (write $$ for a literal $)`, {
              file,
            })
          }
          const value = env[name]
          if (value === undefined) {
            throw new ConfigError(
              `${file}:${index + 1}: environment variable ${name} is not set (define it in the environment or in .env)`,
              { file },
            )
          }
          return value
        },
      )
    })
    .join('\n')
}

/** The variable a raw value refers to, when the whole value is one placeholder (`${GRAPHRAG_API_KEY}`). */
export function referencedVariable(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined
  const match = /^\s*\$(?:\{([_a-zA-Z][_a-zA-Z0-9]*)\}|([_a-zA-Z][_a-zA-Z0-9]*))\s*$/.exec(raw)
  return match ? (match[1] ?? match[2]) : undefined
}
