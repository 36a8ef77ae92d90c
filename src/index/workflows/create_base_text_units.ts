/** Workflow create_base_text_units: chunks every document into the interim text_units table (§5.2). */
import { INPUT_DOCUMENTS } from '../../model/documents.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { getTokenizer } from '../../llm/tokenizer.js'
import { chunkDocuments } from '../operations/chunk-text.js'
import { NO_MODELS, type Workflow } from '../workflow.js'

export const createBaseTextUnits: Workflow = {
  name: 'create_base_text_units',
  reads: [INPUT_DOCUMENTS.name],
  writes: [BASE_TEXT_UNITS.name],
  fingerprint: (settings) => settings.chunking,
  models: () => NO_MODELS,
  prompts: () => [],
  async run(ctx) {
    const options = ctx.settings.chunking
    const tokenizer = getTokenizer(options.encoding_model)
    const documents = await ctx.tables.read(INPUT_DOCUMENTS)
    const progress = ctx.progress('chunking documents', documents.length)
    const rows = chunkDocuments(documents, options, tokenizer, () => progress.tick())
    progress.done()
    await ctx.tables.write(BASE_TEXT_UNITS, rows)
    return { rows: { [BASE_TEXT_UNITS.name]: rows.length } }
  },
}
