/**
 * `graphrag prompt-tune`: learns the domain, language and entity types of the corpus from a sample
 * of its chunks and writes prompts adapted to it (extraction, description summaries, community
 * reports). Every model call goes through the same LLM layer as `index` (cache, retries, rate
 * limit, usage); the generated prompts are validated against our parser before they are written.
 */
import { join, resolve } from 'node:path'
import { loadConfig } from '../config/load.js'
import type { Settings } from '../config/schema.js'
import { DEFAULT_ENTITY_TYPES } from '../config/sections/workflows.js'
import { createFileLogger } from '../index/run/file-logger.js'
import { createModelRegistry, type ModelRegistry } from '../index/run/models.js'
import { SILENT_REPORTER, type Reporter } from '../index/run/reporter.js'
import { rejectPlaceholderKeys } from '../index/run/placeholder-keys.js'
import { createCache } from '../index/run/runner.js'
import { usageByModel, type ModelUsageLine } from '../index/run/usage-by-model.js'
import type { ChatModel } from '../llm/types.js'
import { SILENT_LOGGER, type Logger } from '../logger.js'
import type { Unusable } from './ask.js'
import { consolidateTypes, normalizeType } from '../text/entity-types.js'
import { estimatePromptTune, passagesOf, type StepEstimate } from './estimate.js'
import { resolvePromptTuneOptions, type PromptTuneOptions } from './options.js'
import { candidates, loadCorpus, selectSample, type Corpus, type SampleChunk } from './sample.js'
import * as steps from './steps.js'
import type { WorkedExample } from './steps.js'
import { buildPrompts } from './templates.js'
import { validatePrompts } from './validate.js'
import { writePrompts, type AppliedPrompts, type WrittenPrompt } from './write.js'

export type { PromptTuneOptions } from './options.js'

export interface PromptTunePlan {
  settings: Settings
  options: PromptTuneOptions
  corpus: Corpus
  /** The selected chunks; for `auto` with a remote embedding model, the candidates it would embed. */
  sample: SampleChunk[]
  sampleIsFinal: boolean
  estimate: StepEstimate[]
  outputDir: string
}

export interface PromptTuneResult {
  /** The project root (settings paths are relative to it). */
  root: string
  outputDir: string
  written: WrittenPrompt[]
  /** With --apply: the backup folder and the settings keys pointed at the tuned prompts. */
  applied: AppliedPrompts | undefined
  domain: string
  language: string
  /** The types in the extraction prompt, and whether they were discovered (else from settings). */
  entityTypes: string[]
  typesDiscovered: boolean
  sampleSize: number
  examplesGenerated: number
  examplesUsed: number
  unusable: Unusable[]
  usage: ModelUsageLine[]
  seconds: number
}

/** Loads settings and the corpus and selects the sample (embedding only with the offline embedder); calls no model. */
export async function planPromptTune(
  partial: Partial<PromptTuneOptions>,
): Promise<PromptTunePlan & { warnings: string[] }> {
  const options = resolvePromptTuneOptions(partial)
  const loaded = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  const { settings } = loaded
  const warnings = [...loaded.warnings]
  const corpus = await loadCorpus(settings, { size: options.chunkSize, overlap: options.overlap }, (m) =>
    warnings.push(m),
  )
  const selection = selectionOf(options)
  const pool = candidates(corpus, selection)
  const auto = options.selectionMethod === 'auto'
  // The offline embedder costs nothing and calls nothing, so a dry run can show the real auto sample.
  const offline = auto && settings.embedding_models[settings.embed_text.embedding_model_id]?.model_provider === 'local'
  const registry = () => createModelRegistry(settings, { cache: createCache(settings, false), log: SILENT_LOGGER })
  const sample = offline ? await selectSample(corpus, selection, embedderOf(settings, registry())) : pool
  const estimate = estimatePromptTune(settings, options, auto ? pool.slice(0, options.k) : sample, auto ? pool : [])
  const outputDir = resolve(settings.root, options.output)
  return { settings, options, corpus, sample, sampleIsFinal: !auto || offline, estimate, outputDir, warnings }
}

export async function runPromptTune(partial: Partial<PromptTuneOptions>): Promise<PromptTuneResult> {
  const started = performance.now()
  const o = resolvePromptTuneOptions(partial)
  const session = openSession(o)
  const { settings, reporter, step, chat } = session
  reporter.pipelineStart(stepNames(o), [], undefined)
  const corpus = await step('load input', () =>
    loadCorpus(settings, { size: o.chunkSize, overlap: o.overlap }, (m) => reporter.warning(m)),
  )
  const embedder = o.selectionMethod === 'auto' ? embedderOf(settings, session.registry) : undefined
  const sample = await step('select chunks', () => selectSample(corpus, selectionOf(o), embedder))
  // The cache writes in batches: the replies learnt cost are kept even when a later step fails.
  const learnt = await learn(session, o, sample).finally(() => session.cache.flush())
  const { examples, exampleTypes, typesDiscovered } = learnt
  const values = { ...learnt, entityTypes: typesDiscovered ? exampleTypes : undefined }
  const prompts = buildPrompts(values, {
    maxTokens: o.maxTokens,
    minExamples: o.minExamplesRequired,
    countTokens: chat.countTokens,
  })
  validatePrompts(prompts, examples, exampleTypes)
  const outputDir = resolve(settings.root, o.output)
  const { written, applied } = await step('write prompts', () =>
    writePrompts(prompts, outputDir, { force: o.force, apply: o.apply }, settings),
  )
  session.log.info(`prompt-tune: wrote ${written.map((w) => w.path).join(', ')}; types ${exampleTypes.join(', ')}`)
  return {
    root: settings.root,
    outputDir,
    written,
    applied,
    domain: learnt.domain,
    language: learnt.language,
    entityTypes: exampleTypes,
    typesDiscovered,
    sampleSize: sample.length,
    examplesGenerated: examples.length,
    examplesUsed: prompts.examplesUsed,
    unusable: learnt.unusable,
    usage: usageByModel(settings, session.registry.usageByWorkflow()),
    seconds: (performance.now() - started) / 1000,
  }
}

interface Session {
  settings: Settings
  reporter: Reporter
  log: Logger
  registry: ModelRegistry
  cache: ReturnType<typeof createCache>
  chat: ChatModel
  step: Step
}

/** Settings, log, models (through the same registry, cache and key checks as index) and the step reporter. */
function openSession(o: PromptTuneOptions): Session {
  const reporter = o.reporter ?? SILENT_REPORTER
  const { settings, warnings, apiKeyOrigins } = loadConfig({ root: o.root, configFile: o.configFile, env: o.env })
  for (const w of warnings) reporter.warning(w)
  const models = [...Object.values(settings.completion_models), ...Object.values(settings.embedding_models)]
  const log = createFileLogger(logPath(settings), {
    verbose: o.verbose,
    secrets: models.map((m) => m.api_key ?? '').filter((k) => k !== ''),
  })
  const chatId = settings.extract_graph.completion_model_id
  const embeddingIds = o.selectionMethod === 'auto' ? [settings.embed_text.embedding_model_id] : []
  rejectPlaceholderKeys(settings, { chat: [chatId], embedding: embeddingIds }, apiKeyOrigins)
  const cache = createCache(settings, o.cache)
  const registry = createModelRegistry(settings, {
    cache,
    log,
    apiKeyOrigins,
    noCache: !o.cache,
  })
  const chat = registry
    .forWorkflow('prompt_tune')
    .chat(chatId, { keyPath: 'extract_graph.completion_model_id', cachePartition: 'prompt_tune' })
  log.info(
    `prompt-tune: ${settings.root}, selection ${o.selectionMethod}, types ${o.discoverEntityTypes ? o.typeStrategy : 'from settings'}`,
  )
  return { settings, reporter, log, registry, cache, chat, step: stepRunner(reporter) }
}

interface Learnt {
  domain: string
  language: string
  persona: string
  exampleTypes: string[]
  typesDiscovered: boolean
  examples: WorkedExample[]
  ratingDescription: string
  reportRole: string
  unusable: Unusable[]
}

/** The model's part: domain, language, persona, entity types, worked examples, report role and rating. */
async function learn(
  { settings, reporter, step, chat }: Session,
  o: PromptTuneOptions,
  sample: readonly SampleChunk[],
): Promise<Learnt> {
  const services = { chat, concurrency: settings.concurrent_requests }
  const passages = passagesOf(sample, chat.countTokens)
  const domain = o.domain ?? (await step('domain', () => steps.askDomain(passages, services)))
  const language = o.language ?? (await step('language', () => steps.askLanguage(passages, services)))
  const persona = await step('persona', () => steps.askPersona(domain, services))
  const unusable: Unusable[] = []
  const discovered = o.discoverEntityTypes
    ? await step(
        'entity types',
        (tick) => discover(sample, { domain, persona }, o, { ...services, onDone: tick }, unusable),
        sample.length,
      )
    : []
  const typesDiscovered = discovered.length > 0
  if (o.discoverEntityTypes && !typesDiscovered) {
    reporter.warning(
      'no entity types could be discovered; the extraction prompt keeps {entity_types} (extract_graph.entity_types)',
    )
  }
  const exampleTypes = typesDiscovered
    ? discovered
    : (settings.extract_graph.entity_types ?? [...DEFAULT_ENTITY_TYPES]).map(normalizeType)
  const generated = await step(
    'examples',
    (tick) => steps.generateExamples(sample, { persona, language, types: exampleTypes }, { ...services, onDone: tick }),
    sample.length,
  )
  unusable.push(...generated.unusable)
  if (generated.examples.length < o.minExamplesRequired) {
    reporter.warning(
      `only ${generated.examples.length} usable worked example(s), fewer than --min-examples-required ${o.minExamplesRequired}`,
    )
  }
  const context = { passages, domain, persona }
  const [ratingDescription, reportRole] = await step('community reports', () =>
    Promise.all([steps.askRatingDescription(context, services), steps.askReportRole(context, services)]),
  )
  for (const u of unusable) reporter.warning(`unusable answer (${u.step}, sample chunk ${u.chunk}): ${u.problem}`)
  return {
    domain,
    language,
    persona,
    exampleTypes,
    typesDiscovered,
    examples: generated.examples,
    ratingDescription,
    reportRole,
    unusable,
  }
}

async function discover(
  sample: readonly SampleChunk[],
  context: { domain: string; persona: string },
  o: PromptTuneOptions,
  services: { chat: ChatModel; concurrency: number; onDone: () => void },
  unusable: Unusable[],
): Promise<string[]> {
  const found = await steps.discoverMentions(sample, context, services)
  unusable.push(...found.unusable)
  return consolidateTypes(found.mentions, {
    strategy: o.typeStrategy,
    maxTypes: o.maxEntityTypes,
    minShare: o.minTypeShare,
  })
}

type Step = <T>(name: string, fn: (tick: () => void) => Promise<T>, total?: number) => Promise<T>

/** Runs a named step between the reporter's start and end events; per-chunk steps tick progress. */
function stepRunner(reporter: Reporter): Step {
  return async (name, fn, total = 0) => {
    const started = performance.now()
    reporter.workflowStart(name)
    let done = 0
    try {
      const value = await fn(() => reporter.progress(name, 'sample chunks', ++done, total))
      reporter.workflowEnd(name, {
        seconds: (performance.now() - started) / 1000,
        rows: {},
        skipped: false,
        failures: 0,
      })
      return value
    } catch (error) {
      reporter.workflowFailed(name, error instanceof Error ? error.message : String(error))
      throw error
    }
  }
}

function stepNames(o: PromptTuneOptions): string[] {
  return [
    'load input',
    'select chunks',
    ...(o.domain === undefined ? ['domain'] : []),
    ...(o.language === undefined ? ['language'] : []),
    'persona',
    ...(o.discoverEntityTypes ? ['entity types'] : []),
    'examples',
    'community reports',
    'write prompts',
  ]
}

function selectionOf(o: PromptTuneOptions) {
  return { method: o.selectionMethod, limit: o.limit, nSubsetMax: o.nSubsetMax, k: o.k, seed: o.seed }
}

function embedderOf(settings: Settings, registry: ModelRegistry) {
  const embed = settings.embed_text
  return registry.forWorkflow('prompt_tune').embedding(embed.embedding_model_id, {
    keyPath: 'embed_text.embedding_model_id',
    cachePartition: embed.model_instance_name,
  })
}

function logPath(settings: Settings): string {
  return join(settings.reporting.base_dir, 'prompt-tune.log')
}
