/**
 * Chat and embedding models for a search method, built from the method's settings section
 * (`completion_model_id` may be null: offline mode). Unknown ids are ConfigErrors naming the key.
 */
import type { Settings } from '../config/index.js'
import { ConfigError } from '../errors.js'
import { createChatModel, createEmbeddingModel, modelOptionsFromSettings } from '../llm/index.js'
import { priceOfModel, type Pricing } from '../llm/pricing.js'
import { encodingForModel, getTokenizer } from '../llm/tokenizer.js'
import type { ChatModel, EmbeddingModel } from '../llm/types.js'
import type { SearchMethod } from './index.js'

/** Where each model's API key comes from (LoadedConfig.apiKeyOrigins), for auth error messages. */
type KeyOrigins = Readonly<Record<string, string>>

export type SearchSection =
  | 'local_search'
  | 'global_search'
  | 'drift_search'
  | 'basic_search'
  | 'graph_search'
  | 'hybrid_search'
  | 'lazy_search'

export interface QueryModels {
  chat: ChatModel | undefined
  embedder: EmbeddingModel
  countTokens: (text: string) => number
  price: Pricing | undefined
  embeddingPrice: Pricing | undefined
}

export function createQueryModels(
  settings: Settings,
  section: SearchSection,
  injected: { chat?: ChatModel; embedder?: EmbeddingModel },
  keyOrigins: KeyOrigins = {},
): QueryModels {
  const chatId = settings[section].completion_model_id
  const chat =
    injected.chat ??
    (chatId === null ? undefined : buildChat(settings, chatId, `${section}.completion_model_id`, keyOrigins))
  const embeddingId = section === 'global_search' ? null : settings[section].embedding_model_id
  const embedder = injected.embedder ?? lazyEmbedder(settings, embeddingId, `${section}.embedding_model_id`, keyOrigins)
  const tokenizer = getTokenizer(
    encodingForModel(
      chat?.model ?? 'gpt-4.1',
      chatId === null ? null : settings.completion_models[chatId]?.encoding_model,
    ),
  )
  return {
    chat,
    embedder,
    countTokens: chat === undefined ? tokenizer.count : (text) => chat.countTokens(text),
    price: chatId === null ? undefined : priceOf(settings, 'completion_models', chatId),
    embeddingPrice: embeddingId === null ? undefined : priceOf(settings, 'embedding_models', embeddingId),
  }
}

/** The settings section of each search method. */
export const SEARCH_SECTION: Readonly<Record<SearchMethod, SearchSection>> = {
  local: 'local_search',
  global: 'global_search',
  drift: 'drift_search',
  basic: 'basic_search',
  graph: 'graph_search',
  hybrid: 'hybrid_search',
  lazy: 'lazy_search',
}

/**
 * The model references of every search method that name no configured model, one message each
 * (`serve` says them at start-up; a query of that method fails with the same message).
 */
export function searchModelProblems(settings: Settings): string[] {
  const problems: string[] = []
  for (const section of Object.values(SEARCH_SECTION)) {
    const chatId = settings[section].completion_model_id
    const embeddingId = section === 'global_search' ? null : settings[section].embedding_model_id
    const relevanceId = section === 'lazy_search' ? settings.lazy_search.relevance_model_id : null
    const references = [
      ['completion_models', chatId, 'completion_model_id'],
      ['embedding_models', embeddingId, 'embedding_model_id'],
      ['completion_models', relevanceId, 'relevance_model_id'],
    ] as const
    for (const [group, id, key] of references) {
      if (id === null) continue
      try {
        modelSettings(settings, group, id, `${section}.${key}`)
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
        problems.push(error.message)
      }
    }
  }
  return problems
}

/** The settings of model `id` in `group`; a ConfigError naming `keyPath` and the configured ids when there is none. */
export function modelSettings(
  settings: Settings,
  group: 'completion_models' | 'embedding_models',
  id: string,
  keyPath: string,
) {
  const model = settings[group][id]
  if (model === undefined) {
    const known = Object.keys(settings[group])
    throw new ConfigError(
      `${keyPath}: no ${group} entry "${id}" (configured: ${known.length > 0 ? known.join(', ') : 'none'})`,
      { keyPath },
    )
  }
  return model
}

/** A further chat model of a search (lazy search's relevance model) and its price; unknown ids are ConfigErrors naming `keyPath`. */
export function createExtraChat(
  settings: Settings,
  id: string,
  keyPath: string,
): { chat: ChatModel; price: Pricing | undefined } {
  return { chat: buildChat(settings, id, keyPath, {}), price: priceOf(settings, 'completion_models', id) }
}

function buildChat(settings: Settings, id: string, keyPath: string, keyOrigins: KeyOrigins): ChatModel {
  const model = modelSettings(settings, 'completion_models', id, keyPath)
  const context = { concurrentRequests: settings.concurrent_requests, keyOrigin: keyOrigins[`completion_models.${id}`] }
  return createChatModel(modelOptionsFromSettings('completion_models', id, model, context))
}

/** Built on first use, so a method that embeds nothing never needs an embedding model. */
function lazyEmbedder(settings: Settings, id: string | null, keyPath: string, keyOrigins: KeyOrigins): EmbeddingModel {
  let model: EmbeddingModel | undefined
  const get = (): EmbeddingModel => {
    if (id === null)
      throw new ConfigError(
        `${keyPath} is null, but this search method embeds the question; set it to one of embedding_models`,
        { keyPath },
      )
    const s = modelSettings(settings, 'embedding_models', id, keyPath)
    const context = {
      concurrentRequests: settings.concurrent_requests,
      keyOrigin: keyOrigins[`embedding_models.${id}`],
    }
    return (model ??= createEmbeddingModel(modelOptionsFromSettings('embedding_models', id, s, context)))
  }
  return {
    get id() {
      return id ?? 'none'
    },
    get model() {
      return get().model
    },
    embed: (texts, options) => get().embed(texts, options),
    countTokens: (text) => get().countTokens(text),
  }
}

/** Built-in list price of the model unless the settings give one (cost is an estimate). */
function priceOf(settings: Settings, group: 'completion_models' | 'embedding_models', id: string): Pricing | undefined {
  const model = settings[group][id]
  if (model === undefined) return undefined
  const override =
    model.pricing === null
      ? undefined
      : { inputPer1m: model.pricing.input_per_1m, outputPer1m: model.pricing.output_per_1m }
  return priceOfModel(model.model_provider, model.model, override)
}
