/**
 * Basic search: plain vector RAG over text_unit_text, passages in similarity order → one answer.
 * A conversation history is shown before the passages (as in local search), and its recent
 * questions join the text that is embedded, so a follow-up question finds its subject's passages.
 */
import type { Settings } from '../../config/index.js'
import type { TextUnitRow } from '../../model/index.js'
import { passageHistory } from '../context/history.js'
import { sourceRecord, sourceTable } from '../context/text-units.js'
import { plainRecord } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import { answerFromContext, passagesContext, searchPrompt } from './offline.js'
import type { QuestionInput, SearchRun } from './types.js'

export async function* runBasicSearch(
  input: QuestionInput,
  textUnits: readonly TextUnitRow[],
  settings: Settings['basic_search'],
  services: SearchServices,
): SearchRun {
  const count = services.countTokens
  const {
    block: history,
    searchText,
    room,
  } = passageHistory(input.query, input.history, input.historyMaxTurns, settings.max_context_tokens, count)
  const units = await rankPassages(searchText, textUnits, settings.k, services)
  const table = sourceTable(units, room, count)
  const sources = table.kept.map((u) => plainRecord(sourceRecord(u)))
  return yield* answerFromContext(
    passagesContext(history, sources, table.text),
    searchPrompt('basic', settings.prompt),
    input,
    services.chat,
  )
}

/** The k nearest text units, nearest first (the reference re-sorts them into table order). */
async function rankPassages(
  text: string,
  textUnits: readonly TextUnitRow[],
  k: number,
  services: SearchServices,
): Promise<TextUnitRow[]> {
  if (text === '') return []
  const vector = await embedOne(services.embedder, services.meter, text)
  const hits = await services.vectors.search('text_unit_text', vector, k)
  const byId = new Map(textUnits.map((u) => [u.id, u]))
  return hits.flatMap((h) => {
    const unit = byId.get(h.id)
    return unit === undefined ? [] : [unit]
  })
}
