/**
 * The concept subgraph of the relevant text units: the noun phrases (or entities) they contain and
 * the relationships among those, strongest first. The claim step shows it beside the passages, so the
 * model sees which concepts the passages share.
 */

export interface ConceptUnit {
  id: string
  entity_ids: readonly string[] | null
}

export interface ConceptEntity {
  id: string
  title: string
}

export interface ConceptRelationship {
  source: string
  target: string
  weight: number
}

export interface ConceptSubgraph {
  /** Entity titles in the units, most units first, then title. */
  concepts: Array<{ title: string; units: number }>
  /** Relationships whose two ends are both concepts of the subgraph, heaviest first. */
  relationships: ConceptRelationship[]
}

/** Builds the subgraph of any set of units; the graph's maps are made once, not per call. */
export function conceptGraph(
  entities: readonly ConceptEntity[],
  relationships: readonly ConceptRelationship[],
): (units: readonly ConceptUnit[]) => ConceptSubgraph {
  const titleOf = new Map(entities.map((e) => [e.id, e.title]))
  const bySource = new Map<string, ConceptRelationship[]>()
  for (const r of relationships) {
    const list = bySource.get(r.source)
    if (list === undefined) bySource.set(r.source, [{ source: r.source, target: r.target, weight: r.weight }])
    else list.push({ source: r.source, target: r.target, weight: r.weight })
  }
  return (units) => {
    const count = new Map<string, number>()
    for (const unit of units) {
      for (const id of new Set(unit.entity_ids ?? [])) {
        const title = titleOf.get(id)
        if (title !== undefined) count.set(title, (count.get(title) ?? 0) + 1)
      }
    }
    const concepts = [...count]
      .map(([title, n]) => ({ title, units: n }))
      .sort((a, b) => b.units - a.units || byText(a.title, b.title))
    const inside = [...count.keys()]
      .flatMap((title) => (bySource.get(title) ?? []).filter((r) => count.has(r.target)))
      .sort((a, b) => b.weight - a.weight || byText(`${a.source}\u0000${a.target}`, `${b.source}\u0000${b.target}`))
    return { concepts, relationships: inside }
  }
}

/** The subgraph as prompt text, at most `limit` concepts and relationships each. */
export function renderSubgraph(graph: ConceptSubgraph, limit: number): string {
  const concepts = graph.concepts.slice(0, limit).map((c) => c.title)
  const rels = graph.relationships.slice(0, limit).map((r) => `${r.source} — ${r.target}`)
  if (concepts.length === 0) return '(none)'
  return `Concepts: ${concepts.join('; ')}${rels.length > 0 ? `\nLinked: ${rels.join('; ')}` : ''}`
}

/** Code-unit order, the same on every machine (localeCompare depends on the locale). */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
