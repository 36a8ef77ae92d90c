/**
 * The hybrid context: ranked passages, external passages and community reports labelled
 * [S1]…[Sn] (every one citable), then the entities and relationships on the graph paths, filled
 * in that order until the token budget is spent.
 */
import type { TextUnitRow } from '../../model/index.js'
import type { ReachedEntity } from './graph-path.js'
import type { RankedCandidate, Reason } from './ranking.js'
import type { IndexReport } from '../load-index.js'

export interface ExternalPassage {
  id: string
  text: string
}

type SourceKind = 'text_unit' | 'community_report' | 'external'

/** One labelled source, as `--json` prints it. */
export interface HybridSource {
  label: string
  id: string
  kind: SourceKind
  reason: Reason | 'external'
  /** What a person knows the source by: the document title of a text unit, a report's title; null for an external passage. */
  title: string | null
  score_raw: number | null
  base_norm: number | null
  bonus: number | null
  composite_score: number | null
  rel_type: string | null
  rel_conf: number | null
  /** The score the rank is by: the composite, or its blend with the rerank stage's score. */
  final_score: number | null
  /** The rerank stage's raw score of this source; null when the stage did not score it (off, or past rerank.top_n). */
  rerank_score: number | null
}

export interface ContextInput {
  ranked: readonly RankedCandidate[]
  units: ReadonlyMap<string, TextUnitRow>
  /** Document title by id (for the sources' titles). */
  documentTitles: ReadonlyMap<string, string>
  topN: number
  external: readonly ExternalPassage[]
  reports: ReadonlyArray<{ report: IndexReport; score: number }>
  reached: readonly ReachedEntity[]
  maxTokens: number
  countTokens: (text: string) => number
}

export interface HybridContext {
  sources: HybridSource[]
  /** Source text by label (the offline answer prints it). */
  texts: Map<string, string>
  text: string
  records: Record<string, Array<Record<string, string | number>>>
}

/** The ranked list's raw score of the signal that brought a candidate in (the edge bonus for an edge-only one). */
function rawScore(c: RankedCandidate): number {
  return c.reason === 'edge' ? (c.edge?.bonus ?? 0) : c.signals[c.reason]!.score
}

/** A candidate's scores under the names of the seed system's API (sources and explain rows carry them). */
export function seedScores(c: RankedCandidate) {
  return {
    score_raw: rawScore(c),
    base_norm: c.fusedNorm,
    bonus: c.bonuses.shared_entities + c.bonuses.cooccurrence + c.bonuses.edge + c.bonuses.degree,
    composite_score: c.composite,
    rel_type: c.edge?.relation ?? null,
    rel_conf: c.edge?.confidence ?? null,
    final_score: c.final ?? c.composite,
    rerank_score: c.rerank?.score ?? null,
  }
}

export function buildHybridContext(input: ContextInput): HybridContext {
  const budget = { left: input.maxTokens }
  const list = new SourceBlocks(budget, input.countTokens)
  addTextUnits(list, input)
  // External passages were asked for explicitly: they go in even over the budget.
  for (const p of input.external)
    list.add(
      `[{label}] (external ${p.id})\n${p.text.trim()}\n\n`,
      { ...NO_SCORES, id: p.id, kind: 'external', reason: 'external' },
      p.text,
      true,
    )
  addReports(list, input.reports)
  const paths = graphPaths(input.reached, budget, input.countTokens)
  const records: HybridContext['records'] = {
    sources: list.sources.map((s) => ({ label: s.label, id: s.id, kind: s.kind })),
    entities: paths.entities,
    relationships: paths.relationships,
  }
  const sections = [`-----Sources-----\n${list.blocks.join('')}`]
  if (paths.entityLines.length > 0)
    sections.push(`-----Entities on the graph paths-----\nentity|description|hops\n${paths.entityLines.join('')}`)
  if (paths.relationLines.length > 0)
    sections.push(
      `-----Relationships on the graph paths-----\nsource|target|description|weight\n${paths.relationLines.join('')}`,
    )
  return { sources: list.sources, texts: list.texts, text: sections.join('\n'), records }
}

/** The token budget the sources and the graph paths share, spent in that order. */
interface Budget {
  left: number
}

/** The scores of a source that was not ranked (an external passage; a report has its similarity only). */
const NO_SCORES = {
  title: null,
  score_raw: null,
  base_norm: null,
  bonus: null,
  composite_score: null,
  rel_type: null,
  rel_conf: null,
  final_score: null,
  rerank_score: null,
}

/** The labelled sources [S1]…[Sn] and their rendered blocks, each paid for from the budget. */
class SourceBlocks {
  readonly sources: HybridSource[] = []
  readonly texts = new Map<string, string>()
  readonly blocks: string[] = []

  constructor(
    private readonly budget: Budget,
    private readonly countTokens: (text: string) => number,
  ) {}

  /** Adds the block with `{label}` filled in; false (nothing added) when it does not fit and is not forced. */
  add(block: string, source: Omit<HybridSource, 'label'>, text: string, force = false): boolean {
    const label = `S${this.sources.length + 1}`
    const rendered = block.replace('{label}', label)
    const cost = this.countTokens(rendered)
    if (cost > this.budget.left && !force) return false
    this.budget.left -= cost
    this.blocks.push(rendered)
    this.sources.push({ label, ...source })
    this.texts.set(label, text)
    return true
  }
}

/** The top ranked text units, in rank order, until one does not fit. */
function addTextUnits(list: SourceBlocks, input: ContextInput): void {
  for (const c of input.ranked.slice(0, input.topN)) {
    const unit = input.units.get(c.id)
    if (unit === undefined) continue
    const source = {
      id: c.id,
      kind: 'text_unit' as const,
      reason: c.reason,
      title: input.documentTitles.get(unit.document_id) ?? null,
      ...seedScores(c),
    }
    if (!list.add(`[{label}] (text unit ${unit.human_readable_id})\n${unit.text.trim()}\n\n`, source, unit.text)) break
  }
}

/** The community reports most similar to the question, until one does not fit. */
function addReports(list: SourceBlocks, reports: ContextInput['reports']): void {
  for (const { report, score } of reports) {
    const source = {
      ...NO_SCORES,
      id: report.id,
      kind: 'community_report' as const,
      reason: 'vector' as const,
      title: report.title,
      score_raw: score,
    }
    const block = `[{label}] (community report ${report.community}: ${report.title})\n${report.full_content.trim()}\n\n`
    if (!list.add(block, source, report.full_content)) break
  }
}

/**
 * The entities on the graph paths (nearest first, until one does not fit) and the relationship
 * each was reached by, when that fits too.
 */
function graphPaths(reached: readonly ReachedEntity[], budget: Budget, countTokens: (text: string) => number) {
  const entityLines: string[] = []
  const relationLines: string[] = []
  const entities: Array<Record<string, string | number>> = []
  const relationships: Array<Record<string, string | number>> = []
  for (const r of reached) {
    const line = `${r.entity.title}|${oneLine(r.entity.description)}|${r.hops}\n`
    const cost = countTokens(line)
    if (cost > budget.left) break
    budget.left -= cost
    entityLines.push(line)
    entities.push({ entity: r.entity.title, description: r.entity.description ?? '', hops: r.hops })
    if (r.via === undefined) continue
    const rel = `${r.via.source}|${r.via.target}|${oneLine(r.via.description)}|${r.via.weight}\n`
    const relCost = countTokens(rel)
    if (relCost > budget.left) continue
    budget.left -= relCost
    relationLines.push(rel)
    const { source, target, description, weight } = r.via
    relationships.push({ source, target, description: description ?? '', weight })
  }
  return { entityLines, relationLines, entities, relationships }
}

function oneLine(text: string | null | undefined): string {
  return String(text ?? '')
    .replace(/\s+/g, ' ')
    .replaceAll('|', '/')
    .trim()
}
