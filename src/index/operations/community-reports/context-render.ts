/**
 * Rendering a community's context as Entities / Claims / Relationships CSV sections (after an
 * optional head such as a Reports section) and cutting it to a token budget. Relationships are
 * added in rank order, each with its member endpoints and their claims; members no relationship
 * mentions follow by degree. The cut is the longest prefix whose exact token count fits: line
 * token counts (memoised per tokenizer) give a near-exact estimate to search on, and exact counts
 * of one or two renderings settle it, so long contexts are not re-tokenised again and again.
 */
import type { ClaimDetails, EdgeDetails, EntityDetails, LocalContext } from './context.js'
import {
  type ContextRow,
  type ContextSection,
  joinParts,
  type RenderedContext,
  renderContextSection,
  renderRow,
} from './context-rows.js'
import { sectionHead } from './csv.js'

export type CountTokens = (text: string) => number
export type { RenderedContext } from './context-rows.js'

const SECTIONS = {
  entities: { label: 'Entities', columns: ['human_readable_id', 'title', 'description', 'degree'] },
  claims: { label: 'Claims', columns: ['human_readable_id', 'subject_id', 'type', 'status', 'description'] },
  edges: {
    label: 'Relationships',
    columns: ['human_readable_id', 'source', 'target', 'description', 'combined_degree'],
  },
} as const
type Section = keyof typeof SECTIONS
const ORDER: readonly Section[] = ['entities', 'claims', 'edges']
/** Estimates may miss by a token or two where sections meet; beyond this margin no exact check is needed. */
const SLACK = 16

const entityRow = (e: EntityDetails): ContextRow => ({
  table: 'Entities',
  id: e.human_readable_id,
  identity: e.title,
  fields: [e.title, e.description],
  degree: e.degree,
})
const claimRow = (c: ClaimDetails): ContextRow => ({
  table: 'Claims',
  id: c.human_readable_id,
  identity: c.id,
  fields: [c.subject_id, c.type, c.status, c.description],
})
const edgeRow = (e: EdgeDetails): ContextRow => ({
  table: 'Relationships',
  id: e.human_readable_id,
  identity: `${e.source}\u0000${e.target}`,
  fields: [e.source, e.target, e.description],
  degree: e.combined_degree,
})

/** A row with its CSV line, rendered once however many prefixes it is part of. */
interface Line {
  row: ContextRow
  text: string
}
const line = (row: ContextRow): Line => ({ row, text: renderRow(row) })

// A row's line is the same in every plan made of it: a parent over budget makes one plan per list of
// sub-reports it tries, and a relationship is in the contexts of both its endpoints' communities.
const madeLines = new WeakMap<object, Line>()
function lineOf<T extends object>(details: T, toRow: (details: T) => ContextRow): Line {
  let made = madeLines.get(details)
  if (made === undefined) madeLines.set(details, (made = line(toRow(details))))
  return made
}

const memos = new WeakMap<CountTokens, Map<string, number>>()
function lineTokens(count: CountTokens, text: string): number {
  let memo = memos.get(count)
  if (memo === undefined) memos.set(count, (memo = new Map()))
  let n = memo.get(text)
  if (n === undefined) memo.set(text, (n = count(text)))
  return n
}

type Step = Record<Section, Line[]>

/**
 * The rows each ranked step adds, one step at a time: its new member entities (with their claims) and
 * its relationship; members no relationship mentions follow by degree. Lazy, because a hub's community
 * has thousands of steps and the budget is spent after the first few hundred.
 */
function* stepLines(ctx: LocalContext, members: ReadonlySet<string>): Generator<Step> {
  const added = new Set<string>()
  const step = (titles: readonly string[], edge: EdgeDetails | null): Step => {
    const lines: Step = { entities: [], claims: [], edges: edge === null ? [] : [lineOf(edge, edgeRow)] }
    for (const title of titles) {
      if (added.has(title)) continue
      added.add(title)
      lines.entities.push(lineOf(ctx.members.get(title)!, entityRow))
      for (const claim of ctx.claims.get(title) ?? []) lines.claims.push(lineOf(claim, claimRow))
    }
    return lines
  }
  for (const edge of ctx.edges) {
    const titles = [edge.source, edge.target].filter((t) => members.has(t))
    if (titles.length > 0) yield step(titles, edge)
  }
  const lone = [...members].filter((t) => !added.has(t)).map((t) => ctx.members.get(t)!)
  lone.sort((a, b) => b.degree - a.degree || a.human_readable_id - b.human_readable_id)
  for (const e of lone) yield step([e.title], null)
}

interface PlanOptions {
  /** The members whose rows the context shows (default: all). */
  members?: ReadonlySet<string>
  /** A section before the rows (a parent's substituted reports). */
  head?: ContextSection
  /** The head's token count when the caller knows it (it starts the estimates; the final count is exact). */
  headTokens?: number
}

/**
 * A context ready to be cut: exact rendering of any prefix, and estimated tokens of every prefix.
 * Steps are built (rendered and counted) only as far as a caller asks: estimates never fall as steps
 * are added, so a prefix over budget says the rest is too without building it.
 */
function plan(ctx: LocalContext, count: CountTokens, options: PlanOptions) {
  const { members, head } = options
  const source = stepLines(ctx, members ?? new Set(ctx.members.keys()))
  const steps: Step[] = []
  let exhausted = false
  const headText = head === undefined ? '' : renderContextSection(head)
  const estimates = [headText === '' ? 0 : (options.headTokens ?? count(headText))]
  const present = new Set<Section>()
  /** Builds steps until `n` exist or none are left; whether `n` exist. */
  const reach = (n: number): boolean => {
    while (steps.length < n && !exhausted) {
      const next = source.next()
      if (next.done === true) exhausted = true
      else add(next.value)
    }
    return steps.length >= n
  }
  const add = (lines: Step): void => {
    let tokens = estimates[estimates.length - 1]!
    for (const section of ORDER) {
      if (lines[section].length === 0) continue
      if (!present.has(section)) {
        const { label, columns } = SECTIONS[section]
        tokens += lineTokens(count, sectionHead(label, columns)) + (present.size > 0 || headText !== '' ? 1 : 0)
        present.add(section)
      }
      for (const l of lines[section]) tokens += lineTokens(count, l.text)
    }
    steps.push(lines)
    estimates.push(tokens)
  }
  /** The estimate of the first `n` steps; undefined when there are fewer. */
  const estimate = (n: number): number | undefined => (reach(n) ? estimates[n] : undefined)
  /** Whether there are more than `at` steps. */
  const beyond = (at: number): boolean => reach(at + 1)
  const render = (n: number): RenderedContext => {
    reach(n)
    const sections: ContextSection[] = head === undefined || headText === '' ? [] : [head]
    const parts = ORDER.map((section) => {
      const lines = steps.slice(0, n).flatMap((s) => s[section])
      if (lines.length === 0) return ''
      const rendered: ContextSection = { ...SECTIONS[section], rows: lines.map((l) => l.row) }
      sections.push(rendered)
      return renderContextSection(
        rendered,
        lines.map((l) => l.text),
      )
    })
    const text = joinParts(headText, ...parts)
    return { text, tokens: count(text), sections }
  }
  /** The number of steps, building all of them. */
  const size = (): number => {
    reach(Number.POSITIVE_INFINITY)
    return steps.length
  }
  return { estimate, beyond, render, size }
}

/** The whole context of `members` (default: all), with its exact token count. */
export function renderFull(ctx: LocalContext, count: CountTokens, members?: ReadonlySet<string>): RenderedContext {
  const p = plan(ctx, count, { members })
  return p.render(p.size())
}

/** The whole context after `head` when it fits the budget, else undefined. */
export function renderIfFits(
  ctx: LocalContext,
  budget: number,
  count: CountTokens,
  options: PlanOptions = {},
): RenderedContext | undefined {
  return tryRender(ctx, budget, count, options).context
}

/**
 * renderIfFits, also telling whether `head` alone is past the budget's margin: then no longer head
 * (more rows appended) can fit either, which spares a caller trying ever longer ones.
 */
export function tryRender(
  ctx: LocalContext,
  budget: number,
  count: CountTokens,
  options: PlanOptions = {},
): { context: RenderedContext | undefined; overMargin: boolean } {
  const p = plan(ctx, count, options)
  const overMargin = p.estimate(0)! > budget + SLACK
  // Steps are built only until the estimate passes the margin: a hub's thousands of rows are not rendered.
  for (let n = 0; ; n++) {
    const tokens = p.estimate(n)
    if (tokens === undefined) break
    if (tokens > budget + SLACK) return { context: undefined, overMargin }
  }
  const full = p.render(p.size())
  return { context: full.tokens <= budget ? full : undefined, overMargin }
}

/**
 * The longest ranked prefix of the context of `members` (default: all) after `head` whose exact
 * token count fits `budget`. When even the first step is over budget it is kept anyway (a report
 * needs some input), unless `allowEmpty` (the head alone is enough).
 */
export function renderTrimmed(
  ctx: LocalContext,
  budget: number,
  count: CountTokens,
  options: PlanOptions & { allowEmpty?: boolean } = {},
): RenderedContext {
  const p = plan(ctx, count, options)
  const least = options.allowEmpty === true || !p.beyond(0) ? 0 : 1
  // Largest prefix whose estimate fits (estimates grow with the prefix), then settle on exact counts.
  let lo = 0
  while ((p.estimate(lo + 1) ?? Number.POSITIVE_INFINITY) <= budget) lo++
  let k = Math.max(least, lo)
  let best = p.render(k)
  while (best.tokens > budget && k > least) best = p.render(--k)
  // A next step whose estimate is past the margin cannot fit (as in renderIfFits): not rendered and counted.
  while (p.beyond(k) && p.estimate(k + 1)! <= budget + SLACK) {
    const next = p.render(k + 1)
    if (next.tokens > budget) break
    best = next
    k++
  }
  return best
}
