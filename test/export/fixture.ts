/**
 * A small hand-made index for export tests: entities with descriptions that stress every writer
 * (commas, quotes, newlines, markup, a control character), two community levels with reports,
 * an entity in no community, and parallel relationships.
 */
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  type CommunityReportRow,
  type CommunityRow,
  type EntityRow,
  type RelationshipRow,
} from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { testdir } from '../support/testdir.js'

export const NASTY = 'Keeps the "North Light", <b>lamps</b> & logs;\nsecond line, with commas\u0001.'

const entity = (i: number, title: string, description: string, degree: number): EntityRow => ({
  id: `e${i}`,
  human_readable_id: i,
  title,
  type: 'PERSON',
  description,
  text_unit_ids: ['t1'],
  frequency: 1,
  degree,
})
const relationship = (
  i: number,
  source: string,
  target: string,
  weight: number,
  description: string,
): RelationshipRow => ({
  id: `r${i}`,
  human_readable_id: i,
  source,
  target,
  description,
  weight,
  combined_degree: 4,
  text_unit_ids: ['t1'],
})
const community = (
  c: number,
  level: number,
  parent: number,
  entityIds: string[],
  children: number[] = [],
): CommunityRow => ({
  id: `c${c}`,
  human_readable_id: c,
  community: c,
  level,
  parent,
  children,
  title: `Community ${c}`,
  entity_ids: entityIds,
  relationship_ids: [],
  text_unit_ids: ['t1'],
  period: '2026-01-01',
  size: entityIds.length,
})
const report = (c: number, level: number, title: string, summary: string): CommunityReportRow => ({
  id: `cr${c}`,
  human_readable_id: c,
  community: c,
  level,
  parent: -1,
  children: [],
  title,
  summary,
  full_content: `# ${title}\n\n${summary}`,
  rank: 5,
  rating_explanation: 'test',
  findings: [{ summary: 'a finding', explanation: 'why' }],
  full_content_json: '{}',
  period: '2026-01-01',
  size: 2,
})

export const ENTITY_ROWS: EntityRow[] = [
  entity(0, 'ADA LOVELACE', NASTY, 2),
  entity(1, 'CHARLES BABBAGE', 'Designed the Analytical Engine.', 3),
  entity(2, 'ANALYTICAL ENGINE', 'A mechanical general-purpose computer.', 2),
  entity(3, 'LONDON', 'Capital city.', 1),
  entity(4, 'HERMIT', 'Connected to nobody in any community.', 0),
]
export const RELATIONSHIP_ROWS: RelationshipRow[] = [
  relationship(0, 'ADA LOVELACE', 'CHARLES BABBAGE', 3, 'Corresponded about "the Engine", at length.'),
  relationship(1, 'CHARLES BABBAGE', 'ANALYTICAL ENGINE', 5, 'Designed it.'),
  relationship(2, 'ANALYTICAL ENGINE', 'ADA LOVELACE', 2, 'Wrote its first program.'),
  relationship(3, 'CHARLES BABBAGE', 'ADA LOVELACE', 1, 'The same pair, the other way round.'),
  relationship(4, 'CHARLES BABBAGE', 'LONDON', 1, 'Lived in <London> & worked there.'),
]
const COMMUNITY_ROWS: CommunityRow[] = [
  community(0, 0, -1, ['e0', 'e1', 'e2'], [2, 3]),
  community(1, 0, -1, ['e3']),
  community(2, 1, 0, ['e0', 'e2']),
  community(3, 1, 0, ['e1']),
]
export const REPORT_ROWS: CommunityReportRow[] = [
  report(0, 0, 'The Engine & its makers', 'Babbage designed it; Lovelace programmed it.'),
  report(1, 0, 'London', 'Where they lived.'),
  report(2, 1, 'Programming the Engine', 'Lovelace and the Engine.'),
]

/** Writes the hand-made tables into a fresh folder and returns it. */
export async function handMadeIndex(): Promise<string> {
  const dir = await testdir()
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, ENTITY_ROWS)
  await store.write(RELATIONSHIPS, RELATIONSHIP_ROWS)
  await store.write(COMMUNITIES, COMMUNITY_ROWS)
  await store.write(COMMUNITY_REPORTS, REPORT_ROWS)
  return dir
}
