/**
 * The offline (no-LLM) community report writer: a title from the community's most central phrases,
 * a summary of its highest-ranked sentences (TextRank biased towards member mentions), findings
 * from its strongest relationships with a supporting sentence, and a rating from size and centrality.
 */
import type { CommunityRow } from '../../../model/communities.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import type { TextUnitRow } from '../../../model/text-units.js'
import type { CommunityReportDraft, ReportFinding } from '../community-reports/render.js'
import { buildSentenceCorpus, type Sentence, type SentenceCorpus } from './corpus.js'
import { entityFinding, relationshipFinding, type FindingContext } from './findings.js'
import { displayName, listPhrase, plural, round1 } from './text.js'
import { bestOf } from './best-of.js'
import { textRank } from './textrank.js'

export interface ExtractiveReportOptions {
  /** extract_graph_nlp.text_analyzer.word_delimiter: how phrase titles join their words. */
  readonly wordDelimiter: string
  readonly maxSummarySentences: number
  /** The summary stops adding sentences once it has this many words. */
  readonly maxSummaryWords: number
  readonly minFindings: number
  readonly maxFindings: number
  /** Sentences ranked per community (the best-scoring by member mentions). */
  readonly maxCandidates: number
}

/** Findings of a report at most (by default). */
export const MAX_FINDINGS = 8

const EXTRACTIVE_REPORT_DEFAULTS: ExtractiveReportOptions = Object.freeze({
  wordDelimiter: ' ',
  maxSummarySentences: 3,
  maxSummaryWords: 120,
  minFindings: 3,
  maxFindings: MAX_FINDINGS,
  maxCandidates: 250,
})

export interface ExtractiveReportInput {
  readonly communities: readonly CommunityRow[]
  readonly entities: readonly Pick<EntityRow, 'id' | 'title' | 'degree' | 'frequency'>[]
  readonly relationships: readonly Pick<
    RelationshipRow,
    'id' | 'source' | 'target' | 'weight' | 'combined_degree' | 'text_unit_ids'
  >[]
  readonly textUnits: readonly Pick<TextUnitRow, 'id' | 'human_readable_id' | 'text'>[]
}

/** A community as the writer reads it: its relationships come from a CommunityRelationships. */
export type WrittenCommunity = Pick<CommunityRow, 'community' | 'level' | 'entity_ids' | 'text_unit_ids'>

/** What a finding reads of a relationship. */
export type ReportedRelationship = Pick<
  RelationshipRow,
  'source' | 'target' | 'weight' | 'combined_degree' | 'text_unit_ids'
>

/** The relationships of each community, by its position in the communities given to the writer. */
export interface CommunityRelationships {
  count(position: number): number
  /** Its `count` strongest, strongest first (`stronger`'s order). */
  strongest(position: number, count: number): ReportedRelationship[]
}

type Member = ExtractiveReportInput['entities'][number]

/** One draft per community, in the communities' order (each community's relationships by its relationship_ids). */
export function writeExtractiveReports(
  input: ExtractiveReportInput,
  options: Partial<ExtractiveReportOptions> = {},
): CommunityReportDraft[] {
  const relationshipById = new Map(input.relationships.map((r) => [r.id, r]))
  const ofCommunity = (position: number) =>
    input.communities[position]!.relationship_ids.flatMap((id) => relationshipById.get(id) ?? [])
  const relationships: CommunityRelationships = {
    count: (position) => input.communities[position]!.relationship_ids.length,
    strongest: (position, count) => bestOf(ofCommunity(position), count, stronger),
  }
  return writeExtractiveReportsOf(input, relationships, options)
}

/** One draft per community, in the communities' order, their relationships from `relationships`. */
export function writeExtractiveReportsOf(
  input: Omit<ExtractiveReportInput, 'communities' | 'relationships'> & { communities: readonly WrittenCommunity[] },
  relationships: CommunityRelationships,
  options: Partial<ExtractiveReportOptions> = {},
): CommunityReportDraft[] {
  const opts = { ...EXTRACTIVE_REPORT_DEFAULTS, ...options }
  const entityById = new Map(input.entities.map((e) => [e.id, e]))
  const corpus = buildSentenceCorpus(input.textUnits, new Set(input.entities.map((e) => e.title)), opts.wordDelimiter)
  const stamps = new TextStamps(corpus.distinctTexts)
  const unitNumber = new Map(input.textUnits.map((u) => [u.id, u.human_readable_id]))
  const membersOf = (c: WrittenCommunity): Member[] => c.entity_ids.flatMap((id) => entityById.get(id) ?? [])
  const scale = ratingScale(input.communities.map(membersOf))
  return input.communities.map((community, position) => {
    const members = membersOf(community)
    const ranked = rankSentences(community, members, corpus, stamps, opts)
    const context: FindingContext = { ranked, used: new Set(), unitNumber, delimiter: opts.wordDelimiter }
    const summarySentences = pickSummary(ranked, opts)
    for (const s of summarySentences) context.used.add(s.text)
    const rating = rate(members, scale)
    const strongest = relationships.strongest(position, opts.maxFindings)
    return {
      community: community.community,
      level: community.level,
      title: titleOf(members, opts.wordDelimiter),
      summary: summaryOf(summarySentences, members, relationships.count(position), opts.wordDelimiter),
      findings: findingsOf(members, strongest, context, opts),
      rating: rating.value,
      rating_explanation: rating.explanation(members, community),
    }
  })
}

function byCentrality(a: Member, b: Member): number {
  return b.degree - a.degree || b.frequency - a.frequency || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0)
}

function titleOf(members: readonly Member[], delimiter: string): string {
  const top = [...members]
    .sort(byCentrality)
    .slice(0, 3)
    .map((m) => displayName(m.title, delimiter))
  return top.length === 0 ? 'Unnamed community' : listPhrase(top)
}

/**
 * The community's sentences, best first: candidates are its complete sentences that mention a
 * member (weighted by 1 + ln(1 + degree)), ranked by TextRank teleporting in proportion to that weight.
 */
function rankSentences(
  community: WrittenCommunity,
  members: readonly Member[],
  corpus: SentenceCorpus,
  stamps: TextStamps,
  opts: ExtractiveReportOptions,
): Sentence[] {
  const weight = new Map(members.map((m) => [m.title, 1 + Math.log1p(Math.max(0, m.degree))]))
  const all = communitySentences(community, corpus, stamps)
  // Each score once, in an array the sorts index: a dense corpus's top communities hold tens of
  // thousands of sentences, each compared many times.
  const scores = Float64Array.from(all, (s) => s.mentions.reduce((sum, t) => sum + (weight.get(t) ?? 0), 0))
  const positions = all.map((_, i) => i)
  let pool = positions.filter((i) => all[i].complete && scores[i] > 0)
  if (pool.length === 0) pool = positions.filter((i) => all[i].complete)
  if (pool.length === 0) pool = positions
  const chosen = bestOf(pool, opts.maxCandidates, (a, b) => scores[b] - scores[a] || all[a].index - all[b].index).sort(
    (a, b) => all[a].index - all[b].index,
  )
  const candidates = chosen.map((i) => all[i])
  const ranks = textRank(
    candidates.map((s) => s.wordIds),
    chosen.map((i) => scores[i]),
  )
  const order = candidates
    .map((_, i) => i)
    .sort((a, b) => ranks[b] - ranks[a] || candidates[a].index - candidates[b].index)
  return order.map((i) => candidates[i])
}

/**
 * Marks the texts one community has gathered, without a set of strings per community (the top ones
 * gather most of a dense corpus's sentences): a text is new while its stamp is not the current turn.
 */
class TextStamps {
  private readonly stamp: Int32Array
  private turn = 0

  constructor(distinctTexts: number) {
    this.stamp = new Int32Array(distinctTexts)
  }

  nextCommunity(): void {
    this.turn++
  }

  /** True the first time this community meets the text. */
  first(textId: number): boolean {
    if (this.stamp[textId] === this.turn) return false
    this.stamp[textId] = this.turn
    return true
  }
}

/** The sentences of the community's text units, in unit order, each text once (the first unit's). */
function communitySentences(community: WrittenCommunity, corpus: SentenceCorpus, stamps: TextStamps): Sentence[] {
  stamps.nextCommunity()
  const all: Sentence[] = []
  for (const unit of new Set(community.text_unit_ids)) {
    for (const i of corpus.byUnit.get(unit) ?? []) {
      const s = corpus.sentences[i]
      if (stamps.first(s.textId)) all.push(s)
    }
  }
  return all
}

function pickSummary(ranked: readonly Sentence[], opts: ExtractiveReportOptions): Sentence[] {
  const chosen: Sentence[] = []
  let words = 0
  for (const s of ranked) {
    if (chosen.length >= opts.maxSummarySentences || (chosen.length > 0 && words + s.wordCount > opts.maxSummaryWords))
      break
    chosen.push(s)
    words += s.wordCount
  }
  return chosen.sort((a, b) => a.index - b.index)
}

function summaryOf(
  sentences: readonly Sentence[],
  members: readonly Member[],
  relationshipCount: number,
  delimiter: string,
): string {
  if (sentences.length > 0) return sentences.map((s) => s.text).join(' ')
  const names = [...members]
    .sort(byCentrality)
    .slice(0, 5)
    .map((m) => displayName(m.title, delimiter))
  return `This community of ${plural(members.length, 'phrase')} (${listPhrase(names)}) has no source text of its own; its ${plural(relationshipCount, 'relationship')} come from co-occurrence.`
}

function findingsOf(
  members: readonly Member[],
  strongest: readonly ReportedRelationship[],
  context: FindingContext,
  opts: ExtractiveReportOptions,
): ReportFinding[] {
  const findings = strongest.map((r) => relationshipFinding(r, context))
  for (const m of [...members].sort(byCentrality)) {
    if (findings.length >= opts.minFindings) break
    findings.push(entityFinding(m, context))
  }
  return findings
}

/** Heaviest first, then the higher combined degree, then by source and target. */
function stronger(a: ReportedRelationship, b: ReportedRelationship): number {
  return (
    b.weight - a.weight ||
    b.combined_degree - a.combined_degree ||
    (a.source + '\u0000' + a.target < b.source + '\u0000' + b.target ? -1 : 1)
  )
}

interface RatingScale {
  maxSize: number
  maxMeanDegree: number
}

function meanDegree(members: readonly Member[]): number {
  return members.length === 0 ? 0 : members.reduce((s, m) => s + m.degree, 0) / members.length
}

function ratingScale(all: readonly (readonly Member[])[]): RatingScale {
  return {
    maxSize: all.reduce((max, m) => Math.max(max, m.length), 1),
    maxMeanDegree: all.reduce((max, m) => Math.max(max, meanDegree(m)), 1e-9),
  }
}

/** 1 + 4.5·(log size / log largest size) + 4.5·(mean degree / highest mean degree), one decimal. */
function rate(members: readonly Member[], scale: RatingScale) {
  const sizeScore = Math.log1p(members.length) / Math.log1p(scale.maxSize)
  const mean = meanDegree(members)
  const value = round1(1 + 4.5 * sizeScore + 4.5 * Math.min(1, mean / scale.maxMeanDegree))
  return {
    value,
    explanation: (m: readonly Member[], c: WrittenCommunity): string =>
      `Rated ${value.toFixed(1)} of 10 from its size (${plural(m.length, 'entity', 'entities')} in ${plural(new Set(c.text_unit_ids).size, 'text unit')}; the largest community has ${scale.maxSize}) and the centrality of its members (mean degree ${mean.toFixed(1)}; the highest community mean is ${scale.maxMeanDegree.toFixed(1)}).`,
  }
}
