/** The entity-resolution step both extraction workflows run before their graph is written (docs/entity-resolution.md). */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Settings } from '../../config/schema.js'
import { CURATION_RULES } from '../../model/curation-rules.js'
import { ENTITY_ALIASES } from '../../model/entity-aliases.js'
import type { RawEntityRow, RawRelationshipRow } from '../../model/raw-graph.js'
import type { NounGraph, NounGraphRelationshipRow } from '../operations/build-noun-graph.js'
import { rewireRelationships } from '../operations/entity-resolution/merge-relationships.js'
import { unlessAbsent } from '../../storage/fs-errors.js'
import { curationPath, parseCurationRules, readCurationRules } from '../../config/curation-file.js'
import { NOISE_REASONS } from '../operations/entity-resolution/noise.js'
import {
  type Resolution,
  type ResolutionOptions,
  resolutionOptions,
  resolveGraph,
} from '../operations/entity-resolution/resolve.js'
import { curationRows } from '../operations/entity-resolution/curation-state.js'
import { candidateMerges } from './entity-resolution-candidates.js'
import type { WorkflowContext } from '../workflow.js'

const curationFile = (s: Settings) => curationPath(s.root, s.entity_resolution.curation_file)

/**
 * The curation file's content joins the resume fingerprint (its hash; "" when absent). Read before
 * the first workflow, so a malformed rule stops the run before any work.
 */
export async function curationFingerprint(settings: Settings): Promise<string> {
  const path = curationFile(settings)
  const text = await unlessAbsent(path, 'read', () => readFile(path, 'utf8'), '')
  parseCurationRules(text, path)
  return text === '' ? '' : createHash('sha256').update(text).digest('hex')
}

/** Resolves the graph, writes entity_aliases and records the counts (stats.json) and warnings. */
export async function resolveEntities(
  ctx: WorkflowContext,
  graph: { entities: readonly RawEntityRow[]; relationships: readonly RawRelationshipRow[] },
  method: 'standard' | 'fast',
): Promise<Resolution> {
  return resolveEntitiesWith(ctx, graph.entities, method, (entities, options) =>
    resolveGraph(entities, graph.relationships, options),
  )
}

/**
 * resolveEntities with the relationships left to `resolve` (the fast method keeps its pairs as columns
 * and resolves them there when no name is renamed: noun-graph-resolution.ts).
 */
export async function resolveEntitiesWith(
  ctx: WorkflowContext,
  entities: readonly RawEntityRow[],
  method: 'standard' | 'fast',
  resolve: (entities: readonly RawEntityRow[], options: ResolutionOptions) => Resolution,
): Promise<Resolution> {
  const file = curationFile(ctx.settings)
  const rules = await readCurationRules(file)
  const options = resolutionOptions(ctx.settings, method, rules)
  const keyMerges = await candidateMerges(ctx, entities, options)
  const out = resolve(entities, { ...options, keyMerges })
  if (out.aliases.length > 0 || options.normalize) await ctx.tables.write(ENTITY_ALIASES, out.aliases)
  else if (await ctx.tables.has(ENTITY_ALIASES.name)) {
    // Left from a run that merged names: its aliases name entities this run does not merge.
    await ctx.tables.delete(ENTITY_ALIASES.name)
  }
  if (rules.length > 0) await ctx.tables.write(CURATION_RULES, curationRows(rules))
  else if (await ctx.tables.has(CURATION_RULES.name)) await ctx.tables.delete(CURATION_RULES.name)
  ctx.stats.count('merged_spellings', out.merged)
  for (const reason of NOISE_REASONS) ctx.stats.count(`noise_${reason}`, out.dropped[reason])
  ctx.stats.count(
    'noise_entities',
    NOISE_REASONS.reduce((n, r) => n + out.dropped[r], 0),
  )
  ctx.stats.count('noise_relationships', out.droppedRelationships)
  ctx.stats.count('curation_rules_applied', out.applied)
  ctx.stats.count('curation_rules_absent', out.absent.length)
  for (const line of out.absent) ctx.stats.warning(`${file}: ${line} (rule not applied)`)
  return out
}

/**
 * The fast method's rows in the shape resolution merges (descriptions as lists). Relationship rows
 * are changed in place, not copied: the noun graph is the caller's to give up, and on a dense corpus
 * each copy of its millions of rows cost ~0.1 GB at the step's peak.
 */
export function toRawGraph(graph: NounGraph): { entities: RawEntityRow[]; relationships: RawRelationshipRow[] } {
  const list = (d: string | null) => (d === null || d === '' ? [] : [d])
  for (const r of graph.relationships) asRaw(r).description = list(r.description)
  return {
    entities: graph.entities.map((e) => ({ ...e, description: list(e.description) })),
    relationships: graph.relationships as unknown as RawRelationshipRow[],
  }
}

/** A noun-graph row about to become a raw row (only its description changes shape). */
const asRaw = (r: NounGraphRelationshipRow) => r as unknown as { description: string[] }

/**
 * Back to noun-graph rows: co-occurrence edges are undirected, so merged pairs are re-ordered source <
 * target. The resolution's relationship rows are changed in place (as toRawGraph's are): it is used up.
 */
export function fromRawGraph(graph: Resolution): NounGraph {
  const ordered = graph.relationships.map((r) =>
    r.source <= r.target ? r : { ...r, source: r.target, target: r.source },
  )
  // Already unique and in order (nothing merged or re-ordered: the usual case) means rewiring would copy
  // every row for nothing; on a dense corpus that copy and its pair keys were the step's largest memory.
  const merged = strictlyAscending(ordered) ? ordered : rewireRelationships(ordered, (t) => t).relationships
  merged.sort(byPair)
  const relationships = merged as unknown as NounGraphRelationshipRow[]
  for (const r of merged) asNounGraph(r).description = r.description.join('\n')
  return {
    entities: graph.entities.map((e) => ({
      title: e.title,
      frequency: e.frequency,
      text_unit_ids: e.text_unit_ids,
      type: e.type,
      description: e.description.join('\n'),
    })),
    relationships,
  }
}

/** A raw row about to become a noun-graph row (only its description changes shape). */
const asNounGraph = (r: RawRelationshipRow) => r as unknown as { description: string }

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const byPair = (a: RawRelationshipRow, b: RawRelationshipRow) =>
  a.source === b.source ? compare(a.target, b.target) : compare(a.source, b.source)

/** Whether every pair sorts strictly after the one before it: no pair repeats and the order is final. */
function strictlyAscending(rows: readonly RawRelationshipRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (byPair(rows[i - 1]!, rows[i]!) >= 0) return false
  return true
}
