/** Workflow extract_graph (standard): LLM graph extraction per text unit, merge, description summaries. */
import { DEFAULT_ENTITY_TYPES } from '../../config/sections/workflows.js'
import type { Settings } from '../../config/schema.js'
import { EXTRACTED_ENTITIES } from '../../model/entities.js'
import { CURATION_RULES } from '../../model/curation-rules.js'
import { ENTITY_ALIASES } from '../../model/entity-aliases.js'
import { EXTRACTED_RELATIONSHIPS } from '../../model/relationships.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { checkExtraction } from '../operations/extract-graph/check.js'
import { extractGraph as extract, type ExtractGraphResult } from '../operations/extract-graph/extract.js'
import { RAW_ENTITIES, RAW_RELATIONSHIPS } from '../../model/raw-graph.js'
import { extractGraphUsage, guessExtractedGraph } from '../operations/estimate-usage.js'
import { summarizeDescriptions } from '../operations/summarize-descriptions.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import type { Workflow } from '../workflow.js'
import { resolutionFingerprint, resolutionModels } from './entity-resolution-candidates.js'
import { curationFingerprint, resolveEntities } from './entity-resolution-step.js'
import { writeDiscoveredTypes } from './discovered-types.js'
import { writeExtractionResults } from './extraction-results.js'
import { graphUnitRecords } from './unit-record-setup.js'
import { extractFromUnits, prefetchUnits, readGleaningPrompts, type UnitExtractionStep } from './unit-extraction.js'

const NAME = 'extract_graph'

const unique = (ids: readonly string[]): string[] => [...new Set(ids)]

const promptFiles = (s: Settings) => ({
  extract: { keyPath: 'extract_graph.prompt', path: s.extract_graph.prompt, builtin: 'extract_graph.txt' },
  continuation: { keyPath: 'extract_graph.prompt', path: null, builtin: 'internal/extract_graph_continue.txt' },
  loop: { keyPath: 'extract_graph.prompt', path: null, builtin: 'internal/extract_graph_loop.txt' },
  summarize: {
    keyPath: 'summarize_descriptions.prompt',
    path: s.summarize_descriptions.prompt,
    builtin: 'summarize_descriptions.txt',
  },
})

export const extractGraph: Workflow = {
  name: NAME,
  reads: [BASE_TEXT_UNITS.name],
  writes: [EXTRACTED_ENTITIES.name, EXTRACTED_RELATIONSHIPS.name, ENTITY_ALIASES.name, CURATION_RULES.name],
  fingerprint: (s) => {
    // Settings added later join the fingerprint only when on, so indexes from before them still resume.
    const {
      normalize_titles: normalize,
      fail_on_empty_replies: strict,
      max_entities_per_chunk: maxEntities,
      max_relationships_per_chunk: maxRelationships,
      // The switch only decides whether the workflow is planned at all (plan/entity-switch.ts).
      enabled: _enabled,
      extraction_results: results,
      discovered_types: types,
      discovered_types_max: typesMax,
      discovered_types_min_share: typesShare,
      ...extract
    } = s.extract_graph
    return {
      extract,
      ...capsFingerprint(maxEntities, maxRelationships),
      ...(results ? { extraction_results: true } : {}),
      ...(types ? { discovered_types: [typesMax, typesShare] } : {}),
      summarize: s.summarize_descriptions,
      raw: s.snapshots.raw_graph,
      ...(normalize ? { normalize_titles: true } : {}),
      ...(strict ? { fail_on_empty_replies: true } : {}),
      entity_resolution: resolutionFingerprint(s),
    }
  },
  external: curationFingerprint,
  models: (s) => ({
    chat: unique([
      s.extract_graph.completion_model_id,
      s.summarize_descriptions.completion_model_id,
      ...resolutionModels(s).chat,
    ]),
    embedding: resolutionModels(s).embedding,
  }),
  prompts: (s) => Object.values(promptFiles(s)),
  guessGraph: (s, figures) => guessExtractedGraph(figures, s.extract_graph.max_gleanings),
  estimate(x) {
    const { extract_graph: eg, summarize_descriptions: sd } = x.settings
    const prompts = promptFiles(x.settings)
    const sizes = {
      template: x.promptTokens(prompts.extract, {
        input_text: '',
        entity_types: (eg.entity_types ?? DEFAULT_ENTITY_TYPES).join(','),
      }),
      continuation: x.promptTokens(prompts.continuation, {}),
      loop: x.promptTokens(prompts.loop, {}),
      summary: x.promptTokens(prompts.summarize, {
        entity_name: '',
        description_list: '',
        max_length: String(sd.max_length),
      }),
    }
    return extractGraphUsage(x, sizes, { maxGleanings: eg.max_gleanings, summaryMaxInputTokens: sd.max_input_tokens })
  },
  async run(ctx) {
    const settings = ctx.settings.extract_graph
    const extracted = await extractFromUnits(ctx, extractionStep(ctx.settings))
    const resolved = await resolveEntities(ctx, extracted, 'standard')
    const graph = { ...extracted, entities: resolved.entities, relationships: resolved.relationships }
    ctx.stats.count('weight_defaults', graph.defaultedWeights)
    ctx.stats.count('orphan_relationships', graph.orphanRelationships)
    ctx.stats.count('capped_entities', graph.capped.entities)
    ctx.stats.count('capped_relationships', graph.capped.relationships)
    ctx.stats.count('replayed_units', graph.replayed)
    if (graph.orphanRelationships > 0)
      ctx.stats.warning(
        `${graph.orphanRelationships} relationships dropped: an endpoint was not extracted as an entity`,
      )
    const emptyGraph = checkExtraction(
      NAME,
      { ...graph, entities: graph.entities.length, relationships: graph.relationships.length },
      settings.max_failed_fraction,
      'extract_graph.max_failed_fraction',
    )
    if (emptyGraph !== undefined) ctx.stats.warning(emptyGraph)
    if (settings.extraction_results) await writeExtractionResults(ctx.settings, graph.units)
    if (settings.discovered_types) {
      const types = await writeDiscoveredTypes(ctx.settings, graph.units, await ctx.tables.read(BASE_TEXT_UNITS))
      ctx.log.info(`${NAME}: discovered types ${types.join(', ')}`)
    }
    if (ctx.settings.snapshots.raw_graph) {
      await ctx.tables.write(RAW_ENTITIES, graph.entities)
      await ctx.tables.write(RAW_RELATIONSHIPS, graph.relationships)
    }

    const sum = ctx.settings.summarize_descriptions
    const summaryChat = ctx.models.chat(sum.completion_model_id, {
      keyPath: 'summarize_descriptions.completion_model_id',
      cachePartition: sum.model_instance_name,
    })
    const summaryProgress = ctx.progress('description summaries', graph.entities.length + graph.relationships.length)
    const summaryOptions = {
      prompt: readPrompt(promptFiles(ctx.settings).summarize),
      maxLength: sum.max_length,
      maxInputTokens: sum.max_input_tokens,
      concurrency: ctx.settings.concurrent_requests,
    }
    const out = await summarizeDescriptions(graph, summaryOptions, {
      chat: summaryChat,
      signal: ctx.signal,
      onItemDone: () => summaryProgress.tick(),
    })
    summaryProgress.done()
    ctx.stats.count('summary_calls', out.calls)
    ctx.stats.count('truncated_descriptions', out.truncated)
    await ctx.tables.write(EXTRACTED_ENTITIES, out.entities)
    await ctx.tables.write(EXTRACTED_RELATIONSHIPS, out.relationships)
    return {
      rows: {
        [EXTRACTED_ENTITIES.name]: out.entities.length,
        [EXTRACTED_RELATIONSHIPS.name]: out.relationships.length,
      },
      summary: {
        failed_chunks: graph.failures.length,
        parse_drops: graph.dropped.length,
        empty_replies: graph.emptyReplies.length,
        capped_entities: graph.capped.entities,
        capped_relationships: graph.capped.relationships,
      },
    }
  },
  prefetch: (ctx, shard) => prefetchUnits(ctx, extractionStep(ctx.settings), shard),
}

/** The per-unit LLM extraction, before titles are merged and descriptions summarised. */
function extractionStep(s: Settings): UnitExtractionStep<ExtractGraphResult> {
  const settings = s.extract_graph
  const entityTypes = settings.entity_types ?? DEFAULT_ENTITY_TYPES
  const options = {
    ...readGleaningPrompts(promptFiles(s)),
    entityTypes,
    maxGleanings: settings.max_gleanings,
    concurrency: s.concurrent_requests,
    blankAsEmpty: !settings.fail_on_empty_replies,
    caps: { maxEntities: settings.max_entities_per_chunk, maxRelationships: settings.max_relationships_per_chunk },
  }
  return {
    workflow: NAME,
    label: 'graph extraction',
    recordNoun: 'record',
    model: {
      id: settings.completion_model_id,
      keyPath: 'extract_graph.completion_model_id',
      cachePartition: settings.model_instance_name,
    },
    // Each unit's outcome is kept in the cache beside its replies, and replayed while they are unchanged.
    extract: (units, services) =>
      extract(units, options, { ...services, records: graphUnitRecords(services.cache, s, extractGraph, entityTypes) }),
  }
}

/**
 * The caps join the fingerprint only when they differ from their defaults (50 and 50), so an index
 * from before them still resumes; a unit with more records than that was rare enough then.
 */
function capsFingerprint(maxEntities: number, maxRelationships: number): Record<string, number> {
  return maxEntities === 50 && maxRelationships === 50
    ? {}
    : { max_entities_per_chunk: maxEntities, max_relationships_per_chunk: maxRelationships }
}
