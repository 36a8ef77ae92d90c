/**
 * What generate_text_embeddings and its shard prefetch both derive from the settings: the embedding
 * model (cached in embed_text's partition) and, per name, the vector size with the key that sets it
 * and the texts per call. One derivation, so the shard's requests are the final run's requests.
 */
import type { Settings } from '../../config/schema.js'
import type { EmbeddingModel } from '../../llm/types.js'
import type { EmbeddingName } from '../../model/embeddings.js'
import type { EmbedOptions } from '../operations/embed-text.js'
import type { WorkflowContext } from '../workflow.js'

export function embedTextModel(ctx: WorkflowContext): EmbeddingModel {
  const settings = ctx.settings.embed_text
  return ctx.models.embedding(settings.embedding_model_id, {
    keyPath: 'embed_text.embedding_model_id',
    cachePartition: settings.model_instance_name,
  })
}

export function embedOptions(settings: Settings, name: EmbeddingName): EmbedOptions {
  const schema = settings.vector_store.index_schema[name]
  return {
    name,
    vectorSize: schema?.vector_size || settings.vector_store.vector_size,
    vectorSizeKey: schema?.vector_size ? `vector_store.index_schema.${name}.vector_size` : 'vector_store.vector_size',
    flushSize: settings.embed_text.batch_size * 25,
  }
}
