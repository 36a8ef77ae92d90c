/** The only I/O of config: find the settings file, read .env, substitute variables, parse, validate. */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, extname, join, resolve } from 'node:path'
import { parseDocument } from '../vendor/yaml.js'
import { ConfigError } from '../errors.js'
import { parseDotEnv, referencedVariable, substituteEnv } from './env.js'
import { applyEnvOverrides, namingVariable } from './env-overrides.js'
import { isPlainObject } from './fields.js'
import { fillProviderKeys } from './provider-keys.js'
import type { Settings } from './schema.js'
import { validateSettings } from './validate.js'

const CONFIG_FILE_NAMES = ['settings.yaml', 'settings.yml', 'settings.json'] as const

export interface LoadConfigOptions {
  /** Project root (default: the current directory). */
  root?: string
  /** An explicit settings file (default: the first of settings.yaml/.yml/.json in root). */
  configFile?: string
  /** Environment to substitute from (default: process.env); .env values fill only what it lacks. */
  env?: Readonly<Record<string, string | undefined>>
}

export interface LoadedConfig {
  settings: Settings
  warnings: string[]
  /** Where each model's API key comes from (`GRAPHRAG_API_KEY`, or the settings key), for messages. */
  apiKeyOrigins: Readonly<Record<string, string>>
}

function findConfigFile(root: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const path = join(root, name)
    if (existsSync(path)) return path
  }
  return undefined
}

export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const root = resolve(options.root ?? '.')
  if (!existsSync(root)) throw new ConfigError(`project root ${root} does not exist`)
  const configFile = options.configFile ? resolve(options.configFile) : findConfigFile(root)
  if (configFile === undefined) {
    throw new ConfigError(
      `no settings.yaml, settings.yml or settings.json in ${root} (run \`graphrag init --root ${root}\`)`,
    )
  }
  if (!existsSync(configFile)) throw new ConfigError(`settings file ${configFile} does not exist`, { file: configFile })
  const env = withDotEnv(options.env ?? process.env, dirname(configFile))
  const text = readFileSync(configFile, 'utf8')
  const raw = parseSettingsText(substituteEnv(text, env, configFile), configFile)
  const overrides = isPlainObject(raw) ? applyEnvOverrides(raw, env) : []
  const providerKeyOrigins = isPlainObject(raw) ? fillProviderKeys(raw, env) : {}
  const validated = validateSettings(raw, { root, configFile })
  // An error about a key set by GRAPHRAG_<SECTION>__<KEY> names that variable.
  const result = validated.ok
    ? validated
    : { ...validated, errors: validated.errors.map((e) => namingVariable(e, overrides)) }
  if (!result.ok) {
    const head =
      result.errors.length === 1
        ? result.errors[0]!
        : `${result.errors.length} problems:\n  ${result.errors.join('\n  ')}`
    throw new ConfigError(`${configFile}: ${head}`, { file: configFile, keyPath: result.errors[0]!.split(':')[0] })
  }
  return {
    settings: result.settings,
    warnings: result.warnings,
    apiKeyOrigins: { ...apiKeyOrigins(text, configFile), ...providerKeyOrigins },
  }
}

/** .env beside the settings file fills variables the real environment does not define. */
function withDotEnv(
  env: Readonly<Record<string, string | undefined>>,
  dir: string,
): Record<string, string | undefined> {
  const path = join(dir, '.env')
  const fromFile = existsSync(path) ? parseDotEnv(readFileSync(path, 'utf8')) : {}
  return { ...fromFile, ...env }
}

function parseSettingsText(text: string, file: string): unknown {
  const ext = extname(file).toLowerCase()
  if (ext === '.json') {
    try {
      return JSON.parse(text)
    } catch (cause) {
      throw new ConfigError(`${file}: invalid JSON (${(cause as Error).message})`, { file, cause })
    }
  }
  if (ext !== '.yaml' && ext !== '.yml')
    throw new ConfigError(`${file}: unsupported settings file type ${ext} (use .yaml, .yml or .json)`, { file })
  const doc = parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!
    const line = err.linePos?.[0]?.line
    throw new ConfigError(`${file}${line ? `:${line}` : ''}: invalid YAML (${err.message.split('\n')[0]})`, { file })
  }
  const value: unknown = toJS(doc, file) ?? {}
  if (!isPlainObject(value)) throw new ConfigError(`${file}: expected a mapping of settings at the top level`, { file })
  return value
}

/**
 * yaml refuses a document whose aliases expand past its limit (a "billion laughs" bomb) with a
 * ReferenceError: that is the file's problem, said as such.
 */
function toJS(doc: ReturnType<typeof parseDocument>, file: string): unknown {
  try {
    return doc.toJS()
  } catch (cause) {
    if (!(cause instanceof ReferenceError) || !/alias/i.test(cause.message)) throw cause
    throw new ConfigError(
      `${file}: invalid YAML (its aliases expand too many times, as in a YAML "alias bomb"); write the repeated values out or use fewer aliases (*name)`,
      { file, cause },
    )
  }
}

/** Reads the unsubstituted file to learn which variable each model's api_key names. */
function apiKeyOrigins(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {}
  let raw: unknown
  try {
    raw = parseDocument(text).toJS()
  } catch {
    return out
  }
  if (!isPlainObject(raw)) return out
  for (const group of ['completion_models', 'embedding_models']) {
    const models = raw[group]
    if (!isPlainObject(models)) continue
    for (const [id, m] of Object.entries(models)) {
      if (!isPlainObject(m)) continue
      const variable = referencedVariable(m.api_key)
      out[`${group}.${id}`] =
        variable !== undefined ? `environment variable ${variable}` : `${group}.${id}.api_key in ${file}`
    }
  }
  return out
}
