/** Basic search: plain vector RAG over text_unit_text, passages in similarity order → one answer. */
import type { Settings } from '../../config/index.js'
import type { TextUnitRow } from '../../model/index.js'
import { sourceRecord, sourceTable } from '../context/text-units.js'
import { plainRecord } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import { answerFromContext } from './offline.js'
import type { QuestionInput, SearchRun } from './types.js'

export async function* runBasicSearch(
  input: QuestionInput,
  textUnits: readonly TextUnitRow[],
  settings: Settings['basic_search'],
  services: SearchServices,
): SearchRun {
  const units = await rankPassages(input.query, textUnits, settings.k, services)
  const table = sourceTable(units, settings.max_context_tokens, services.countTokens)
  const records = { sources: table.kept.map((u) => plainRecord(sourceRecord(u))) }
  return yield* answerFromContext(
    { records, text: table.text },
    { path: settings.prompt, builtin: 'basic_search_system_prompt.txt', key: 'basic_search.prompt', modelKey: 'basic_search.completion_model_id' },
    input,
    services.chat,
  )
}

/** The k nearest text units, nearest first (the reference re-sorts them into table order). */
async function rankPassages(query: string, textUnits: readonly TextUnitRow[], k: number, services: SearchServices): Promise<TextUnitRow[]> {
  if (query.trim() === '') return []
  const vector = await embedOne(services.embedder, services.meter, query)
  const hits = await services.vectors.search('text_unit_text', vector, k)
  const byId = new Map(textUnits.map((u) => [u.id, u]))
  return hits.flatMap((h) => {
    const unit = byId.get(h.id)
    return unit === undefined ? [] : [unit]
  })
}
