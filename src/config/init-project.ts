/** `graphrag init`: writes settings.yaml, .env, input/ and the prompt files into a project root. */
import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import { BUILTIN_PROMPTS_DIR } from '../prompts/prompt-template.js'
import { isProviderName, PROVIDER_NAMES, providerInfo } from '../llm/providers.js'
import { renderSettingsTemplate, type TemplateOptions } from './template.js'

const isKeyless = (provider: string | undefined) => provider !== undefined && providerInfo(provider).keyless

export interface InitOptions extends TemplateOptions {
  root: string
  /** Overwrite settings.yaml and the prompts (an existing .env is still kept). */
  force?: boolean
  /** Write .env again with the placeholder key, replacing an existing one (its key is lost). */
  resetEnv?: boolean
}

export interface InitResult {
  root: string
  written: string[]
  kept: string[]
  /** The provider needs no key (ollama, lm_studio, …): no .env was written. */
  keyless: boolean
}

export async function initProject(options: InitOptions): Promise<InitResult> {
  const root = resolve(options.root)
  if (options.provider !== undefined && !isProviderName(options.provider))
    throw new ConfigError(`--provider: unknown provider "${options.provider}" (one of ${PROVIDER_NAMES.join(', ')})`)
  if (options.provider === 'local') throw new ConfigError('--provider: local has no chat models; use --offline')
  const settingsPath = join(root, 'settings.yaml')
  if (existsSync(settingsPath) && !options.force) {
    throw new ConfigError(`project already initialized at ${root} (use --force to overwrite)`, { file: settingsPath })
  }
  const written: string[] = []
  const kept: string[] = []
  const write = async (relative: string, content: () => Promise<void>, overwrite = options.force) => {
    if (existsSync(join(root, relative)) && !overwrite) {
      kept.push(relative)
      return
    }
    await content()
    written.push(relative)
  }
  await mkdir(join(root, 'input'), { recursive: true })
  await mkdir(join(root, 'prompts'), { recursive: true })
  await write('settings.yaml', () => writeFile(settingsPath, renderSettingsTemplate(options)))
  // .env holds the user's key: --force alone never replaces it; a provider without keys needs none.
  if ((!options.offline && !isKeyless(options.provider)) || options.resetEnv)
    await write('.env', () => writeFile(join(root, '.env'), 'GRAPHRAG_API_KEY=<API_KEY>\n'), options.resetEnv)
  for (const file of (await readdir(BUILTIN_PROMPTS_DIR)).filter((f) => f.endsWith('.txt')).sort()) {
    await write(join('prompts', file), () => copyFile(join(BUILTIN_PROMPTS_DIR, file), join(root, 'prompts', file)))
  }
  return { root, written, kept, keyless: isKeyless(options.provider) }
}
