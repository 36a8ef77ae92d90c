/**
 * The settings DSL: each key is declared once with its default, a description (used as the comment
 * in the generated settings.yaml) and a parser that reports problems with the key's YAML path.
 */
import { isDeepStrictEqual } from 'node:util'
import { closestKey } from './did-you-mean.js'
import { describeRange, inRange, type Range } from './range.js'

export type { Range } from './range.js'

export interface Issues {
  errors: string[]
  warnings: string[]
}

export interface Field<T> {
  readonly description: string
  readonly default: T
  /** Shown commented out in the init template while the key keeps its default (null or empty). */
  readonly example?: unknown
  parse(raw: unknown, path: string, issues: Issues): T
}

/** Any declared key, seen from code that walks the declarations (the init template, tests). */
export type Declaration = Field<unknown> & {
  /** The keys of a section. */
  readonly shape?: Readonly<Record<string, Declaration>>
  /** The keys of each entry of a mapping from free ids to sections. */
  readonly entries?: Readonly<Record<string, Declaration>>
}

export type Infer<F> = F extends Field<infer T> ? T : never
export type SectionShape = Record<string, Field<unknown>>
export type InferSection<S extends SectionShape> = { readonly [K in keyof S]: Infer<S[K]> }

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
}

function field<T>(description: string, def: T, parse: Field<T>['parse'], example?: unknown): Field<T> {
  return { description, default: def, parse, ...(example === undefined ? {} : { example }) }
}

type Opts = { example?: unknown }

export function int(def: number, description: string, opts: Opts & Range): Field<number> {
  return field(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (inRange(raw, true, opts)) return raw
      issues.errors.push(`${path}: expected ${describeRange(true, opts)}, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

export function num(def: number, description: string, opts: Opts & Range): Field<number> {
  return field(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (inRange(raw, false, opts)) return raw
      issues.errors.push(`${path}: expected ${describeRange(false, opts)}, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

/** A number within `opts`, or null; `integer` for counts (max_tokens, requests per period). */
export function optionalNum(description: string, opts: Opts & Range & { integer?: boolean }): Field<number | null> {
  const integer = opts.integer ?? false
  return field<number | null>(
    description,
    null,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return null
      if (inRange(raw, integer, opts)) return raw
      issues.errors.push(`${path}: expected ${describeRange(integer, opts)} or null, got ${describe(raw)}`)
      return null
    },
    opts.example,
  )
}

export function bool(def: boolean, description: string, opts: Opts = {}): Field<boolean> {
  return field(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (typeof raw === 'boolean') return raw
      issues.errors.push(`${path}: expected true or false, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

export function str(def: string, description: string, opts: Opts = {}): Field<string> {
  return field(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (typeof raw === 'string') return raw
      if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw)
      issues.errors.push(`${path}: expected a string, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

export function optionalStr(description: string, opts: Opts & { def?: string | null } = {}): Field<string | null> {
  const def = opts.def ?? null
  return field<string | null>(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined) return def
      if (raw === null) return null
      if (typeof raw === 'string') return raw
      if (typeof raw === 'number') return String(raw)
      issues.errors.push(`${path}: expected a string or null, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

/**
 * One of `values`. Values of the reference that graphrag cannot honour are listed in `unsupported`:
 * they get an error saying so and naming the supported values, never a silent fallback.
 */
export function oneOf<const V extends string>(
  values: readonly V[],
  def: V,
  description: string,
  opts: Opts & { unsupported?: readonly string[] } = {},
): Field<V> {
  return field(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as V
      if (typeof raw === 'string' && opts.unsupported?.includes(raw)) {
        const supported = values.map((v) => JSON.stringify(v))
        const use = supported.length === 1 ? supported[0] : `one of ${supported.join(', ')}`
        issues.errors.push(`${path}: "${raw}" is not supported by graphrag (use ${use})`)
        return def
      }
      issues.errors.push(`${path}: expected one of ${values.join(', ')}, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

/** A list of strings; with `nullMeansDefault`, an explicit null also gives the default (as the reference does). */
export function strList(
  def: readonly string[] | null,
  description: string,
  opts: Opts & { nullMeansDefault?: boolean } = {},
): Field<readonly string[] | null> {
  return field<readonly string[] | null>(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined) return def
      if (raw === null) return opts.nullMeansDefault ? def : null
      if (Array.isArray(raw) && raw.every((v) => typeof v === 'string')) return raw as string[]
      issues.errors.push(`${path}: expected a list of strings, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

/** A non-empty list of numbers, each within [min, max] (graph_search.hop_decay). */
export function numList(def: readonly number[], description: string, opts: Opts & Range): Field<readonly number[]> {
  return field<readonly number[]>(
    description,
    def,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return def
      if (Array.isArray(raw) && raw.length > 0 && raw.every((v) => inRange(v, false, opts))) return raw as number[]
      issues.errors.push(`${path}: expected a non-empty list, each ${describeRange(false, opts)}, got ${describe(raw)}`)
      return def
    },
    opts.example,
  )
}

/** A mapping of strings to strings with a default (extract_graph_nlp.text_analyzer.noun_phrase_grammars). */
export function strMap(
  def: Readonly<Record<string, string>>,
  description: string,
): Field<Readonly<Record<string, string>>> {
  return field<Readonly<Record<string, string>>>(description, def, (raw, path, issues) => {
    if (raw === undefined || raw === null) return def
    if (isPlainObject(raw) && Object.values(raw).every((v) => typeof v === 'string'))
      return raw as Record<string, string>
    issues.errors.push(`${path}: expected a mapping of strings to strings, got ${describe(raw)}`)
    return def
  })
}

/** A list of anything, passed through (mock_responses). */
export function anyList(description: string): Field<readonly unknown[]> {
  return field<readonly unknown[]>(description, [], (raw, path, issues) => {
    if (raw === undefined || raw === null) return []
    if (Array.isArray(raw)) return raw
    issues.errors.push(`${path}: expected a list, got ${describe(raw)}`)
    return []
  })
}

/**
 * A key of the reference that graphrag accepts but does not act on. Its description must say so;
 * a value other than the default gets one warning naming the key (never the value: it may be a secret).
 */
export function ignored<T>(declared: Field<T>, reason: string): Field<T> {
  return {
    ...declared,
    parse(raw, path, issues) {
      const value = declared.parse(raw, path, issues)
      if (raw !== undefined && !isDeepStrictEqual(value, declared.default))
        issues.warnings.push(`${path}: ignored by graphrag (${reason})`)
      return value
    },
  }
}

/** A free-form mapping passed through as is (call_args, metrics, extra vector-store fields). */
export function freeMap(description: string, opts: Opts = {}): Field<Readonly<Record<string, unknown>>> {
  return field<Readonly<Record<string, unknown>>>(
    description,
    {},
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return {}
      if (isPlainObject(raw)) return raw
      issues.errors.push(`${path}: expected a mapping, got ${describe(raw)}`)
      return {}
    },
    opts.example,
  )
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A nested mapping of declared keys. Unknown keys are a warning, not an error. */
export function section<S extends SectionShape>(shape: S, description = ''): Field<InferSection<S>> & { shape: S } {
  const defaults = Object.fromEntries(Object.entries(shape).map(([k, f]) => [k, f.default])) as InferSection<S>
  return {
    description,
    default: defaults,
    shape,
    parse(raw, path, issues) {
      if (raw === undefined || raw === null) return parseObject(shape, {}, path, issues)
      if (!isPlainObject(raw)) {
        issues.errors.push(`${path}: expected a mapping, got ${describe(raw)}`)
        return defaults
      }
      return parseObject(shape, raw, path, issues)
    },
  }
}

function parseObject<S extends SectionShape>(
  shape: S,
  raw: Record<string, unknown>,
  path: string,
  issues: Issues,
): InferSection<S> {
  const out: Record<string, unknown> = {}
  for (const [key, f] of Object.entries(shape)) out[key] = f.parse(raw[key], join(path, key), issues)
  for (const key of Object.keys(raw)) {
    if (key in shape) continue
    const suggestion = closestKey(key, Object.keys(shape))
    issues.warnings.push(
      `${join(path, key)}: unknown key (ignored)${suggestion === undefined ? '' : `; did you mean ${suggestion}?`}`,
    )
  }
  return out as InferSection<S>
}

/** An optional nested mapping: null when absent. */
export function optionalSection<S extends SectionShape>(
  shape: S,
  description: string,
): Field<InferSection<S> | null> & { shape: S } {
  const inner = section(shape)
  return {
    description,
    default: null,
    shape,
    parse(raw, path, issues) {
      if (raw === undefined || raw === null) return null
      return inner.parse(raw, path, issues)
    },
  }
}

/** A mapping from free ids to sections (completion_models, index_schema); `example` is keyed by id. */
export function mapOf<S extends SectionShape>(
  shape: S,
  description: string,
  opts: Opts = {},
): Field<Readonly<Record<string, InferSection<S>>>> & { entries: S } {
  const inner = section(shape)
  const def: Readonly<Record<string, InferSection<S>>> = {}
  return {
    description,
    default: def,
    entries: shape,
    ...(opts.example === undefined ? {} : { example: opts.example }),
    parse(raw, path, issues) {
      if (raw === undefined || raw === null) return def
      if (!isPlainObject(raw)) {
        issues.errors.push(`${path}: expected a mapping of ids to settings, got ${describe(raw)}`)
        return def
      }
      const out: Record<string, InferSection<S>> = {}
      for (const [id, value] of Object.entries(raw)) out[id] = inner.parse(value, join(path, id), issues)
      return out
    },
  }
}

export function required(description: string): Field<string> {
  return field(description, '', (raw, path, issues) => {
    if (typeof raw === 'string' && raw.trim() !== '') return raw
    if (typeof raw === 'number') return String(raw)
    issues.errors.push(
      `${path}: required, expected a non-empty string, got ${raw === undefined ? 'nothing' : describe(raw)}`,
    )
    return ''
  })
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`
}

export function optionalOneOf<const V extends string>(
  values: readonly V[],
  description: string,
  opts: Opts = {},
): Field<V | null> {
  return field<V | null>(
    description,
    null,
    (raw, path, issues) => {
      if (raw === undefined || raw === null) return null
      if (typeof raw === 'string' && (values as readonly string[]).includes(raw)) return raw as V
      issues.errors.push(`${path}: expected one of ${values.join(', ')} or null, got ${describe(raw)}`)
      return null
    },
    opts.example,
  )
}
