/**
 * Recognises a Microsoft GraphRAG 2.x settings file (`models:`, `chunks:`, `model_id`) and names the
 * v3 keys to write instead. Without this the 2.x keys are ignored as unknown, the defaults look
 * valid, and the run fails later for a reason that hides the real one.
 */
import { isPlainObject } from './fields.js'

const MODEL_ID_KEYS: Readonly<Record<string, string>> = {
  model_id: 'completion_model_id',
  chat_model_id: 'completion_model_id',
}

/** One message listing every 2.x key found with its v3 replacement, or undefined for a v3 file. */
export function v2SettingsMessage(raw: Record<string, unknown>): string | undefined {
  const moves: string[] = []
  if ('models' in raw)
    moves.push(
      'models → completion_models and embedding_models (each model: model_provider: openai|azure, model, api_key)',
    )
  if ('chunks' in raw) moves.push('chunks → chunking')
  if ('output' in raw && !('output_storage' in raw)) moves.push('output.base_dir → output_storage.base_dir')
  if (isPlainObject(raw.input) && ('file_type' in raw.input || 'base_dir' in raw.input))
    moves.push('input.file_type → input.type, input.base_dir → input_storage.base_dir')
  if (isPlainObject(raw.vector_store) && 'default_vector_store' in raw.vector_store)
    moves.push('vector_store.default_vector_store.* → vector_store.*')
  for (const [section, value] of Object.entries(raw)) {
    if (!isPlainObject(value)) continue
    for (const [key, v3] of Object.entries(MODEL_ID_KEYS)) {
      if (!(key in value)) continue
      const target = section === 'embed_text' ? 'embedding_model_id' : v3
      moves.push(`${section}.${key} → ${section}.${target}`)
    }
  }
  // `models` alone or a model_id alone is enough: neither key exists in v3.
  const decisive =
    'models' in raw || 'chunks' in raw || moves.some((m) => / → \w+\.(completion|embedding)_model_id$/.test(m))
  if (!decisive) return undefined
  return [
    'this is a GraphRAG 2.x settings file; version 3 renamed these keys:',
    ...moves.map((m) => `  ${m}`),
    '(`graphrag init --root <new folder>` writes a complete v3 settings.yaml to compare with)',
  ].join('\n')
}
