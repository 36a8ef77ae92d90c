/**
 * discovered_types.json (seed design 001's consolidated taxonomy): the types graph extraction gave
 * the entities of each document, consolidated as prompt-tune does (text/entity-types.ts, stratified:
 * each document's most frequent types in turn) with the design's numbers by default, 15 types of at
 * least a 10 % share. prompt-tune keeps 12 and 5 % for its sample of a few chunks (docs/seeds.md).
 */
import { join } from 'node:path'
import type { Settings } from '../../config/schema.js'
import type { BaseTextUnitRow } from '../../model/text-units.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import { consolidateTypes, countTypes, type TypedMention } from '../../text/entity-types.js'
import type { UnitExtraction } from '../operations/extract-graph/merge.js'

const DISCOVERED_TYPES_FILE = 'discovered_types.json'

export async function writeDiscoveredTypes(
  settings: Settings,
  units: readonly UnitExtraction[],
  baseUnits: readonly Pick<BaseTextUnitRow, 'id' | 'document_id'>[],
): Promise<string[]> {
  const documentOf = new Map(baseUnits.map((u) => [u.id, u.document_id]))
  const mentions: TypedMention[] = units.flatMap((u) =>
    u.entities.map((e) => ({ documentId: documentOf.get(u.textUnitId) ?? '', name: e.title, type: e.type })),
  )
  const s = settings.extract_graph
  const options = {
    strategy: 'stratified' as const,
    maxTypes: s.discovered_types_max,
    minShare: s.discovered_types_min_share,
  }
  const types = consolidateTypes(mentions, options)
  const counts = countTypes(mentions)
  const total = counts.reduce((n, c) => n + c.count, 0)
  const body = {
    strategy: options.strategy,
    max_types: options.maxTypes,
    min_share: options.minShare,
    types,
    counts: counts.map((c) => ({ type: c.type, entities: c.count, share: total > 0 ? c.count / total : 0 })),
  }
  await writeFileAtomic(
    join(settings.output_storage.base_dir, DISCOVERED_TYPES_FILE),
    `${JSON.stringify(body, null, 1)}\n`,
  )
  return types
}
