/**
 * generate_text_embeddings' share of a sharded run (shard.ts): the text_unit_text vectors of the
 * shard's slice of text units, embedded into the shared cache and dropped. The embedding cache is
 * keyed per text (src/llm/cache.ts), not per batch, so the final run finds every one of them
 * whichever batches it groups the texts into. The other names embed entities, relationships,
 * documents and reports, which exist only once the whole corpus is extracted: they stay with the
 * final run. An update shard leaves out the texts the final update takes back from the previous
 * index (same id, same text key in its embedding_keys), as the final run would not ask for them.
 */
import { EMBEDDING_KEYS } from '../../model/embedding-keys.js'
import { DEFAULT_EMBEDDING_NAMES } from '../../model/embeddings.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { embedTexts, type TextToEmbed } from '../operations/embed-text.js'
import { embeddingIdentity, textKey } from '../operations/reuse-embeddings.js'
import { embedOptions, embedTextModel } from './embedding-setup.js'
import type { ShardSlice, WorkflowContext, WorkflowResult } from '../workflow.js'

const NAME = 'text_unit_text'

export async function prefetchTextUnitEmbeddings(ctx: WorkflowContext, shard: ShardSlice): Promise<WorkflowResult> {
  const settings = ctx.settings.embed_text
  if (!(settings.names ?? DEFAULT_EMBEDDING_NAMES).includes(NAME)) return {}
  const model = embedTextModel(ctx)
  const options = embedOptions(ctx.settings, NAME)
  const units = shard.select(await ctx.tables.read(BASE_TEXT_UNITS))
  const texts = await leaveOutReused(
    ctx,
    units.map((u) => ({ id: u.id, text: u.text })).filter((t) => t.text !== ''),
    embeddingIdentity(
      ctx.settings.embedding_models[settings.embedding_model_id]!,
      settings.batch_max_tokens,
      options.vectorSize,
    ),
  )
  const progress = ctx.progress(`embeddings ${NAME}`, texts.length)
  // The vectors themselves are not needed here: the cache keeps them for the final run.
  await embedTexts(texts, options, {
    model,
    signal: ctx.signal,
    onEmbedded: (n) => progress.tick(n),
    write: async () => {},
  })
  progress.done()
  return { summary: { text_unit_text_embedded: texts.length } }
}

/** The texts an update would not take back from the previous index's vectors (all of them outside an update). */
async function leaveOutReused(
  ctx: WorkflowContext,
  texts: readonly TextToEmbed[],
  identity: string,
): Promise<TextToEmbed[]> {
  const previous = ctx.previousTables
  if (previous === undefined || !(await previous.has(EMBEDDING_KEYS.name))) return [...texts]
  const recorded = new Map<string, string>()
  for (const row of await previous.read(EMBEDDING_KEYS)) if (row.name === NAME) recorded.set(row.id, row.text_key)
  return texts.filter((t) => recorded.get(t.id) !== textKey(identity, t.text))
}
