/**
 * finalize_graph (spec §5.7): degrees, human-readable ids and deterministic ids for the final
 * entities and relationships, and the optional GraphML snapshot of the relationship graph.
 */
import type { EntityRow, ExtractedEntityRow } from '../../model/entities.js'
import type { ExtractedRelationshipRow, RelationshipRow } from '../../model/relationships.js'
import { entityId, relationshipId } from './graph-ids.js'

type EntityIn = Pick<ExtractedEntityRow, 'title' | 'type' | 'description' | 'text_unit_ids' | 'frequency'>
type RelationshipIn = Pick<ExtractedRelationshipRow, 'source' | 'target' | 'description' | 'weight' | 'text_unit_ids'>

export function finalizeGraph(
  entities: readonly EntityIn[],
  relationships: readonly RelationshipIn[],
): { entities: EntityRow[]; relationships: RelationshipRow[] } {
  const degrees = computeDegrees(relationships)
  return { entities: finalizeEntities(entities, degrees), relationships: finalizeRelationships(relationships, degrees) }
}

/** Undirected degree: each distinct unordered pair adds one to both ends (a self-loop adds two). */
function computeDegrees(relationships: readonly Pick<RelationshipIn, 'source' | 'target'>[]): Map<string, number> {
  const seen = new Set<string>()
  const degrees = new Map<string, number>()
  for (const { source, target } of relationships) {
    const key = source < target ? `${source}\u0000${target}` : `${target}\u0000${source}`
    if (seen.has(key)) continue
    seen.add(key)
    degrees.set(source, (degrees.get(source) ?? 0) + 1)
    degrees.set(target, (degrees.get(target) ?? 0) + 1)
  }
  return degrees
}

export function finalizeEntities(entities: readonly EntityIn[], degrees: ReadonlyMap<string, number>): EntityRow[] {
  const seen = new Set<string>()
  const out: EntityRow[] = []
  for (const e of entities) {
    if (e.title === '' || seen.has(e.title)) continue
    seen.add(e.title)
    out.push({
      id: entityId(e.title),
      human_readable_id: out.length,
      title: e.title,
      type: e.type,
      description: e.description,
      text_unit_ids: e.text_unit_ids,
      frequency: e.frequency,
      degree: degrees.get(e.title) ?? 0,
    })
  }
  return out
}

function finalizeRelationships(
  relationships: readonly RelationshipIn[],
  degrees: ReadonlyMap<string, number>,
): RelationshipRow[] {
  const seen = new Set<string>()
  const out: RelationshipRow[] = []
  for (const r of relationships) {
    const key = `${r.source}\u0000${r.target}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push({
      id: relationshipId(r.source, r.target),
      human_readable_id: out.length,
      source: r.source,
      target: r.target,
      description: r.description,
      weight: r.weight,
      combined_degree: (degrees.get(r.source) ?? 0) + (degrees.get(r.target) ?? 0),
      text_unit_ids: r.text_unit_ids,
    })
  }
  return out
}

/**
 * GraphML of the undirected relationship graph with `weight` as the only attribute, laid out as
 * NetworkX writes it (nodes in first-appearance order; a repeated pair keeps the last weight).
 */
export function renderGraphml(relationships: readonly Pick<RelationshipIn, 'source' | 'target' | 'weight'>[]): string {
  const nodes = new Set<string>()
  const edges = new Map<string, { source: string; target: string; weight: number }>()
  for (const { source, target, weight } of relationships) {
    nodes.add(source)
    nodes.add(target)
    const key = source < target ? `${source}\u0000${target}` : `${target}\u0000${source}`
    const existing = edges.get(key)
    if (existing !== undefined) existing.weight = weight
    else edges.set(key, { source, target, weight })
  }
  const lines = [
    "<?xml version='1.0' encoding='utf-8'?>",
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    '  <key id="d0" for="edge" attr.name="weight" attr.type="double" />',
    '  <graph edgedefault="undirected">',
    ...[...nodes].map((n) => `    <node id="${xmlEscape(n)}" />`),
    ...[...edges.values()].flatMap((e) => [
      `    <edge source="${xmlEscape(e.source)}" target="${xmlEscape(e.target)}">`,
      `      <data key="d0">${pythonFloat(e.weight)}</data>`,
      '    </edge>',
    ]),
    '  </graph>',
    '</graphml>',
  ]
  return `${lines.join('\n')}\n`
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** Python's `repr(float)` for the values that occur here (`8.0`, `2.5`). */
function pythonFloat(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? `${n}.0` : String(n)
}
