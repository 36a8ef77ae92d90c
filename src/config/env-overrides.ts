/**
 * Settings from environment variables, as the seed design tunes every parameter:
 * `GRAPHRAG_<SECTION>__<KEY>` (each further level after another `__`) overrides the settings file's
 * value, e.g. `GRAPHRAG_HYBRID_SEARCH__TOP_K=12` or `GRAPHRAG_COMPLETION_MODELS__DEFAULT_COMPLETION_MODEL__MODEL=gpt-4o`.
 * The text is typed by the key's declaration: a number key takes a number, a boolean true/false,
 * a string key the text as it is; lists and nullable keys are read as YAML (`[a, b]`, `null`).
 * An unknown key or a bad value is an error naming the variable.
 */
import { ConfigError } from '../errors.js'
import { parseDocument } from '../vendor/yaml.js'
import { closestKey } from './did-you-mean.js'
import { type Declaration, isPlainObject } from './fields.js'
import { SETTINGS } from './schema.js'

const PREFIX = 'GRAPHRAG_'

/** A settings key path (`hybrid_search.top_k`) set from the named variable. */
export interface EnvOverride {
  variable: string
  path: string
}

/** Writes every override of `env` into `raw` (the parsed settings file); returns what it set, sorted by variable. */
export function applyEnvOverrides(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): EnvOverride[] {
  const names = Object.keys(env)
    .filter((name) => name.startsWith(PREFIX) && name.includes('__') && env[name] !== undefined)
    .sort()
  return names.map((variable) => applyOne(raw, variable, env[variable]!))
}

function applyOne(raw: Record<string, unknown>, variable: string, text: string): EnvOverride {
  const segments = variable.slice(PREFIX.length).toLowerCase().split('__')
  if (segments.some((s) => s === '')) throw new ConfigError(`${variable}: expected GRAPHRAG_<SECTION>__<KEY>`)
  let declaration: Declaration = SETTINGS as Declaration
  let target = raw
  const path: string[] = []
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1
    let key = segment
    let next: Declaration | undefined
    if (declaration.entries !== undefined) {
      // A free id (a model's name): matched to the file's spelling, whatever its case.
      key = Object.keys(target).find((k) => k.toLowerCase() === segment) ?? segment
      next = { description: '', default: {}, shape: declaration.entries, parse: () => ({}) }
    } else {
      next = declaration.shape?.[segment]
      if (next === undefined) throw unknownKey(variable, path, segment, declaration)
    }
    path.push(key)
    if (last) {
      if (next.shape !== undefined || next.entries !== undefined)
        throw new ConfigError(`${variable}: ${path.join('.')} is a section; name one of its keys after another __`)
      target[key] = typedValue(variable, path.join('.'), text, next.default)
    } else {
      if (!isPlainObject(target[key])) target[key] = {}
      target = target[key] as Record<string, unknown>
      declaration = next
    }
  }
  return { variable, path: path.join('.') }
}

function unknownKey(variable: string, path: readonly string[], segment: string, declaration: Declaration): ConfigError {
  const known = Object.keys(declaration.shape ?? {})
  const suggestion = closestKey(segment, known)
  const where = path.length === 0 ? 'no settings section' : `no key in ${path.join('.')}`
  return new ConfigError(
    `${variable}: ${where} is named ${segment}${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}`,
  )
}

/** The variable's text as the type the key's default has; YAML for lists, mappings and nullable keys. */
function typedValue(variable: string, path: string, text: string, def: unknown): unknown {
  if (typeof def === 'string') return text
  if (typeof def === 'boolean') {
    if (/^(true|1|yes)$/i.test(text.trim())) return true
    if (/^(false|0|no)$/i.test(text.trim())) return false
    throw new ConfigError(`${variable}: ${path} expects true or false, got ${JSON.stringify(text)}`)
  }
  if (typeof def === 'number') {
    const value = text.trim() === '' ? Number.NaN : Number(text)
    if (!Number.isFinite(value))
      throw new ConfigError(`${variable}: ${path} expects a number, got ${JSON.stringify(text)}`)
    return value
  }
  const doc = parseDocument(text)
  if (doc.errors.length > 0)
    throw new ConfigError(`${variable}: ${path}: cannot read ${JSON.stringify(text)} as a YAML value`)
  return doc.toJS()
}

/** A validation error about an overridden key, with the variable it came from named. */
export function namingVariable(error: string, overrides: readonly EnvOverride[]): string {
  const hit = overrides.find((o) => error.startsWith(`${o.path}:`) || error.startsWith(`${o.path}.`))
  return hit === undefined ? error : `${error} (set by environment variable ${hit.variable})`
}
