/** Workflow extract_graph_nlp (fast): noun phrases per text unit become a co-occurrence graph. */
import { WorkflowError } from '../../errors.js'
import { CURATION_RULES } from '../../model/curation-rules.js'
import { ENTITY_ALIASES } from '../../model/entity-aliases.js'
import { NLP_ENTITIES } from '../../model/entities.js'
import { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { createNounPhraseExtractor, extractNounPhrases } from '../operations/noun-phrases/index.js'
import { guessNounGraph } from '../operations/estimate-usage.js'
import { defineWorkflow } from '../workflow.js'
import { resolutionFingerprint, resolutionModels } from './entity-resolution-candidates.js'
import { curationFingerprint } from './entity-resolution-step.js'
import { resolvedNounGraph } from './noun-graph-resolution.js'

const NAME = 'extract_graph_nlp'

export const extractGraphNlp = defineWorkflow({
  name: NAME,
  reads: [BASE_TEXT_UNITS.name],
  writes: [NLP_ENTITIES.name, NLP_RELATIONSHIPS.name, ENTITY_ALIASES.name, CURATION_RULES.name],
  fingerprint: (settings) => ({
    normalize_edge_weights: settings.extract_graph_nlp.normalize_edge_weights,
    text_analyzer: settings.extract_graph_nlp.text_analyzer,
    entity_resolution: resolutionFingerprint(settings),
    ...(settings.extract_graph.normalize_titles ? { normalize_titles: true } : {}),
  }),
  external: curationFingerprint,
  models: resolutionModels,
  guessGraph: (settings, figures) => guessNounGraph(figures, settings.extract_graph.max_gleanings),
  async run(ctx) {
    const settings = ctx.settings.extract_graph_nlp
    const textUnits = await ctx.tables.read(BASE_TEXT_UNITS)
    const extractor = createNounPhraseExtractor(settings.text_analyzer)
    // Named so phrases from another tagger (the reference's TextBlob) can be put in the cache under the same keys (README).
    ctx.log.info(`noun phrases: cache extract_noun_phrases, key = SHA-512 of text unit text + "${extractor.key}"`)
    const progress = ctx.progress('noun phrases', textUnits.length)
    const phrases = await extractNounPhrases(
      textUnits,
      extractor,
      ctx.cache.child('extract_noun_phrases'),
      (cached) => {
        if (cached) ctx.stats.count('cache_hits')
        progress.tick()
      },
    )
    progress.done()
    const graph = await resolvedNounGraph(ctx, phrases, settings.normalize_edge_weights)
    if (graph.entities.length === 0) {
      throw new WorkflowError(NAME, 'NLP Graph Extraction failed. No entities detected during extraction.')
    }
    if (graph.relationships.length === 0) {
      ctx.stats.warning('NLP Graph Extraction found no relationships: no two noun phrases share a text unit.')
    }
    await ctx.tables.write(NLP_ENTITIES, graph.entities)
    await ctx.tables.write(NLP_RELATIONSHIPS, graph.relationships)
    return {
      rows: { [NLP_ENTITIES.name]: graph.entities.length, [NLP_RELATIONSHIPS.name]: graph.relationships.length },
    }
  },
})
