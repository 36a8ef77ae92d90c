/** Small entity and community rows for the community-report tests (contexts, replay, fingerprints). */
import type { CommunityRow, EntityRow } from '../../src/model/index.js'

/** Entity `i`: id `e<i>`, title `E<i>`, degree `i % degreeModulo`. */
export function entityRow(
  i: number,
  { type, degreeModulo, units = [] }: { type: string; degreeModulo: number; units?: string[] },
): EntityRow {
  return {
    id: `e${i}`,
    human_readable_id: i,
    title: `E${i}`,
    type,
    description: `entity ${i}`,
    text_unit_ids: units,
    frequency: 1,
    degree: i % degreeModulo,
  }
}

/** Community `c` of `level` holding `entityIds`, with no parent, children, relationships or units. */
export function communityRow(c: number, level: number, entityIds: string[], period: string): CommunityRow {
  return {
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level,
    parent: -1,
    children: [],
    title: `Community ${c}`,
    entity_ids: entityIds,
    relationship_ids: [],
    text_unit_ids: [],
    period,
    size: entityIds.length,
  }
}
