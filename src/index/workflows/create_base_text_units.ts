/** Workflow create_base_text_units: chunks every document into the interim text_units table (§5.2). */
import { INPUT_DOCUMENTS } from '../../model/documents.js'
import { BASE_TEXT_UNITS, type BaseTextUnitRow } from '../../model/text-units.js'
import { getTokenizer } from '../../llm/tokenizer.js'
import { documentUnits } from '../operations/chunk-text.js'
import { defineWorkflow } from '../workflow.js'

export const createBaseTextUnits = defineWorkflow({
  name: 'create_base_text_units',
  reads: [INPUT_DOCUMENTS.name],
  writes: [BASE_TEXT_UNITS.name],
  fingerprint: (settings) => settings.chunking,
  async run(ctx) {
    const options = ctx.settings.chunking
    const tokenizer = getTokenizer(options.encoding_model)
    // Taken one by one, so a document's text can be collected once it is chunked, before the text
    // units are written (with a 200 MB document, that is 200 MB less while they are).
    const documents = await ctx.tables.read(INPUT_DOCUMENTS)
    const progress = ctx.progress('chunking documents', documents.length)
    const rows: BaseTextUnitRow[] = []
    let since = performance.now()
    // Chunking 10 M tokens takes about 10 s of CPU, a 200 MB document alone about a minute: give the
    // event loop back every 50 ms, between text units too, so the progress line moves and Ctrl-C (a
    // second one exits at once) is heard while it runs.
    for (let doc = documents.shift(); doc !== undefined; doc = documents.shift()) {
      for (const row of documentUnits(doc, options, tokenizer)) {
        rows.push(row)
        if (performance.now() - since > 50) {
          await new Promise<void>((resolve) => setImmediate(resolve))
          since = performance.now()
        }
      }
      progress.tick()
    }
    progress.done()
    await ctx.tables.write(BASE_TEXT_UNITS, rows)
    return { rows: { [BASE_TEXT_UNITS.name]: rows.length } }
  },
})
