/**
 * Applies curation.yaml's rules in file order to the merged graph. Names are found by exact title,
 * then as an alias, then by resolution key. A rule naming something absent is reported, never
 * silently skipped.
 */
import type { EntityAliasRow } from '../../../model/entity-aliases.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../model/raw-graph.js'
import type { CurationRule } from '../../../config/curation-file.js'
import { rewireRelationships } from './merge-relationships.js'

export interface ResolvedGraph {
  entities: RawEntityRow[]
  relationships: RawRelationshipRow[]
  aliases: EntityAliasRow[]
}

export interface CurationOutcome extends ResolvedGraph {
  applied: number
  /** One line per rule that named an absent entity or relationship. */
  absent: string[]
}

type Key = (name: string) => string

export function applyCuration(graph: ResolvedGraph, rules: readonly CurationRule[], key: Key): CurationOutcome {
  const g: ResolvedGraph = {
    entities: graph.entities.map((e) => ({
      ...e,
      description: [...e.description],
      text_unit_ids: [...e.text_unit_ids],
    })),
    relationships: [...graph.relationships],
    aliases: [...graph.aliases],
  }
  const absent: string[] = []
  rules.forEach((rule, i) => {
    const missing = applyRule(g, rule, key)
    if (missing.length > 0)
      absent.push(`rules[${i}] (${rule.action}): ${missing.map((m) => `"${m}"`).join(', ')} not in the graph`)
  })
  return { ...g, applied: rules.length - absent.length, absent }
}

/** Applies one rule; returns the names it could not find (nothing changed then). */
function applyRule(g: ResolvedGraph, rule: CurationRule, key: Key): string[] {
  if (rule.action === 'delete_relationship' || rule.action === 'add_relationship') return relationshipRule(g, rule, key)
  const entity = find(g, rule.entity, key)
  if (entity === undefined) return [rule.entity]
  if (rule.action === 'set_type') entity.type = rule.type
  else if (rule.action === 'delete') deleteEntity(g, entity)
  else if (rule.action === 'merge') {
    const into = find(g, rule.into, key)
    if (into === undefined) return [rule.into]
    if (into !== entity) mergeInto(g, entity, into, key)
  } else {
    const other = find(g, rule.to, key)
    if (other !== undefined && other !== entity) mergeInto(g, entity, other, key)
    retitle(g, other ?? entity, rule.to, key)
  }
  return []
}

function relationshipRule(g: ResolvedGraph, rule: Extract<CurationRule, { source: string }>, key: Key): string[] {
  const source = find(g, rule.source, key)
  const target = find(g, rule.target, key)
  const missing = [...(source ? [] : [rule.source]), ...(target ? [] : [rule.target])]
  if (source === undefined || target === undefined) return missing
  const joins = (r: RawRelationshipRow) =>
    (r.source === source.title && r.target === target.title) || (r.source === target.title && r.target === source.title)
  if (rule.action === 'delete_relationship') {
    if (!g.relationships.some(joins)) return [`${rule.source} — ${rule.target}`]
    g.relationships = g.relationships.filter((r) => !joins(r))
    return []
  }
  const added = {
    source: source.title,
    target: target.title,
    description: [rule.description],
    text_unit_ids: [],
    weight: rule.weight ?? 1,
  }
  g.relationships = rewireRelationships([...g.relationships, added], (t) => t).relationships
  return []
}

function find(g: ResolvedGraph, name: string, key: Key): RawEntityRow | undefined {
  const exact = g.entities.find((e) => e.title === name)
  if (exact !== undefined) return exact
  const alias = g.aliases.find((a) => a.alias === name)
  if (alias !== undefined) return g.entities.find((e) => e.title === alias.title)
  const k = key(name)
  return g.entities.find((e) => key(e.title) === k)
}

function deleteEntity(g: ResolvedGraph, entity: RawEntityRow): void {
  g.entities = g.entities.filter((e) => e !== entity)
  g.relationships = g.relationships.filter((r) => r.source !== entity.title && r.target !== entity.title)
  g.aliases = g.aliases.filter((a) => a.title !== entity.title)
}

/** `from` joins `into`: descriptions and text units, its title and aliases become aliases of `into`. */
function mergeInto(g: ResolvedGraph, from: RawEntityRow, into: RawEntityRow, key: Key): void {
  into.description.push(...from.description)
  into.text_unit_ids = [...new Set([...into.text_unit_ids, ...from.text_unit_ids])]
  into.frequency = into.text_unit_ids.length
  g.entities = g.entities.filter((e) => e !== from)
  moveAliases(g, from.title, into.title, key)
}

/** Gives `entity` a new title; the old one becomes an alias. */
function retitle(g: ResolvedGraph, entity: RawEntityRow, title: string, key: Key): void {
  if (entity.title === title) return
  const old = entity.title
  entity.title = title
  moveAliases(g, old, title, key)
}

/** Aliases and relationships of `from` move to `to`; `from` itself becomes an alias of `to`. */
function moveAliases(g: ResolvedGraph, from: string, to: string, key: Key): void {
  g.aliases = g.aliases.map((a) => (a.title === from ? { ...a, title: to } : a)).filter((a) => a.alias !== to)
  g.aliases.push({ title: to, alias: from, normalized: key(from) })
  g.relationships = rewireRelationships(g.relationships, (t) => (t === from ? to : t)).relationships
}
