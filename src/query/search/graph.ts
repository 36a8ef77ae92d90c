/**
 * Graph search (ours): vector seeds over text_unit_text, then a walk over chunk_edges that adds the
 * units linked to them (prerequisites, contradictions, causes, elaborations), ranked together and
 * answered like basic search. Each reached unit carries its graph context (the unit it came from,
 * the relation and the edge's description) into the context table, --json and the printed answer.
 */
import type { Settings } from '../../config/index.js'
import type { TextUnitRow } from '../../model/index.js'
import type { ChunkEdgesLoad } from '../chunk-edges.js'
import { passageHistory } from '../context/history.js'
import { fillRows, float, plainRecord, renderRow, renderTable, type Cell } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { allowedUnits, graphSeeds, type SeedSources } from './graph-seeds.js'
import { walkChunkGraph, type WalkOptions, type WalkResult } from './graph-walk.js'
import { formatRelated } from './graph-format.js'
import { answerFromContext, passagesContext, searchPrompt } from './offline.js'
import type { QuestionInput, SearchRun } from './types.js'

const HEADER = ['id', 'reached_from', 'relation', 'link', 'text'] as const

interface Ranked {
  unit: TextUnitRow
  result: WalkResult
  from: TextUnitRow | undefined
}

export async function* runGraphSearch(
  input: QuestionInput,
  textUnits: readonly TextUnitRow[],
  edges: ChunkEdgesLoad,
  settings: Settings['graph_search'],
  services: SearchServices,
  sources: SeedSources,
): SearchRun {
  const warnings = edges.kind === 'loaded' ? [] : [edges.warning]
  const count = services.countTokens
  const {
    block: history,
    searchText,
    room,
  } = passageHistory(input.query, input.history, input.historyMaxTurns, settings.max_context_tokens, count)
  const seeds = await graphSeeds(searchText, textUnits, settings, services, sources, warnings)
  const allowed = allowedUnits(textUnits, settings.filters, sources.documents)
  const edgeRows = edges.kind === 'loaded' ? edges.edges.map(walkEdge) : []
  // Filters hold the walk too: an edge into (or out of) a unit of another document is not followed.
  const walkable =
    allowed === undefined ? edgeRows : edgeRows.filter((e) => allowed.has(e.source) && allowed.has(e.target))
  const walked = walkChunkGraph(seeds, walkable, walkOptions(settings))
  const ranked = withUnits(walked, textUnits).slice(0, settings.top_k)
  const head = renderTable('Sources', HEADER, [])
  const fill = fillRows(ranked, (r) => renderRow(cells(r)), room - count(head), count)
  const context = { ...passagesContext(history, fill.kept.map(sourceRecord), head + fill.rows.join('')), warnings }
  const result = yield* answerFromContext(context, searchPrompt('graph', settings.prompt), input, services.chat)
  // The model's answer is followed by how the linked sources were reached (offline, the context shows it).
  if (services.chat !== undefined) {
    const reached = fill.kept.filter((r) => r.result.via !== undefined)
    const lines = reached.map((r) => `- Source ${r.unit.human_readable_id} ${relatedLine(r)}`)
    if (reached.length > 0) yield `\n\n---\nSources reached through the chunk graph:\n${lines.join('\n')}\n`
  }
  return result
}

function walkOptions(settings: Settings['graph_search']): WalkOptions {
  return {
    maxHops: settings.max_hops,
    bidirectional: settings.bidirectional,
    relationFilter: settings.relation_filter,
    minTraversalScore: settings.min_traversal_score,
    vectorWeight: settings.vector_weight,
    graphWeight: settings.graph_weight,
    hopDecay: settings.hop_decay,
  }
}

/** Walk results with their text units (ids missing from text_units, e.g. stale vectors, are left out). */
function withUnits(walked: readonly WalkResult[], textUnits: readonly TextUnitRow[]): Ranked[] {
  const byId = new Map(textUnits.map((u) => [u.id, u]))
  return walked.flatMap((result) => {
    const unit = byId.get(result.id)
    return unit === undefined
      ? []
      : [{ unit, result, from: result.via === undefined ? undefined : byId.get(result.via.from) }]
  })
}

function walkEdge(row: {
  source_id: string
  target_id: string
  relation: string
  weight: number
  description: string
}) {
  return {
    source: row.source_id,
    target: row.target_id,
    relation: row.relation,
    weight: row.weight,
    description: row.description,
  }
}

/** A source as --json shows it: seeds have hop 0 and empty graph fields. */
function sourceRecord(r: Ranked) {
  const via = r.result.via
  return plainRecord({
    id: r.unit.human_readable_id,
    text: r.unit.text,
    score: float(r.result.score),
    hop: r.result.hop,
    reached_from: r.from?.human_readable_id ?? via?.from ?? '',
    relation: via?.relation ?? '',
    link: via?.description ?? '',
    direction: via?.direction ?? '',
  })
}

function cells(r: Ranked): Cell[] {
  const via = r.result.via
  const relation = via === undefined ? '' : via.direction === 'incoming' ? `${via.relation} (reversed)` : via.relation
  return [r.unit.human_readable_id, r.from?.human_readable_id ?? '', relation, via?.description ?? '', r.unit.text]
}

/** `↳ related: "requires the auth setup" (depends_on), from Source 3`. */
function relatedLine(r: Ranked): string {
  const via = r.result.via!
  return formatRelated(via.description, via.relation, via.direction, r.from?.human_readable_id ?? via.from)
}
