/** The options of `graphrag prompt-tune`, their defaults (the reference's where it has one) and their checks. */
import { ConfigError } from '../errors.js'
import type { Reporter } from '../index/run/reporter.js'
import type { TypeStrategy } from '../text/entity-types.js'
import type { SelectionMethod } from './select.js'

export interface PromptTuneOptions {
  root: string
  configFile: string | undefined
  env: Readonly<Record<string, string | undefined>> | undefined
  /** Given instead of asking the model. */
  domain: string | undefined
  language: string | undefined
  selectionMethod: SelectionMethod
  /** Chunks for `random` and `top`. */
  limit: number
  /** Token budget of the extraction prompt (its worked examples stop there, but at least minExamplesRequired). */
  maxTokens: number
  chunkSize: number
  overlap: number
  minExamplesRequired: number
  /** `auto`: chunks embedded at most (a seeded random subset when there are more). */
  nSubsetMax: number
  /** `auto`: chunks kept, one per k-means centre. */
  k: number
  discoverEntityTypes: boolean
  typeStrategy: TypeStrategy
  maxEntityTypes: number
  minTypeShare: number
  /** Folder for the prompts, relative to the root. */
  output: string
  force: boolean
  /** Use the tuned prompts: back up the files they replace and point the settings at them. */
  apply: boolean
  cache: boolean
  seed: number
  verbose: boolean
  reporter: Reporter | undefined
}

const PROMPT_TUNE_DEFAULTS = Object.freeze({
  root: '.',
  configFile: undefined,
  env: undefined,
  domain: undefined,
  language: undefined,
  selectionMethod: 'random',
  limit: 15,
  maxTokens: 2000,
  chunkSize: 200,
  overlap: 0,
  minExamplesRequired: 2,
  nSubsetMax: 300,
  k: 15,
  discoverEntityTypes: true,
  typeStrategy: 'stratified',
  maxEntityTypes: 12,
  minTypeShare: 0.05,
  output: 'prompts',
  force: false,
  apply: false,
  cache: true,
  seed: 0xdeadbeef,
  verbose: false,
  reporter: undefined,
} satisfies PromptTuneOptions)

export function resolvePromptTuneOptions(partial: Partial<PromptTuneOptions>): PromptTuneOptions {
  const o: PromptTuneOptions = { ...PROMPT_TUNE_DEFAULTS, ...stripUndefined(partial) }
  const positive = {
    limit: o.limit,
    maxTokens: o.maxTokens,
    chunkSize: o.chunkSize,
    nSubsetMax: o.nSubsetMax,
    k: o.k,
    maxEntityTypes: o.maxEntityTypes,
  }
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(`--${kebab(name)}: expected a whole number ≥ 1, got ${value}`)
  }
  if (!Number.isInteger(o.minExamplesRequired) || o.minExamplesRequired < 0) {
    throw new ConfigError(`--min-examples-required: expected a whole number ≥ 0, got ${o.minExamplesRequired}`)
  }
  if (!Number.isInteger(o.overlap) || o.overlap < 0 || o.overlap >= o.chunkSize) {
    throw new ConfigError(
      `--overlap: expected a whole number from 0 to below --chunk-size (${o.chunkSize}), got ${o.overlap}`,
    )
  }
  if (!(o.minTypeShare >= 0 && o.minTypeShare <= 1))
    throw new ConfigError(`--min-type-share: expected a number from 0 to 1, got ${o.minTypeShare}`)
  if (o.domain !== undefined && o.domain.trim() === '') throw new ConfigError('--domain: expected a non-empty text')
  if (o.language !== undefined && o.language.trim() === '')
    throw new ConfigError('--language: expected a non-empty text')
  return o
}

function stripUndefined<T extends object>(partial: T): Partial<T> {
  return Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<T>
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
}
