/**
 * extraction_results.json (seed design 001's file of that name, ours in graphrag): what graph
 * extraction kept of each text unit, after the per-unit caps and before titles are merged across
 * units and entity resolution. Written beside the tables in the output folder, so it travels with
 * the index generation and object-storage sync like them.
 */
import { join } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import type { UnitExtraction } from '../operations/extract-graph/merge.js'

const EXTRACTION_RESULTS_FILE = 'extraction_results.json'

export async function writeExtractionResults(settings: Settings, units: readonly UnitExtraction[]): Promise<void> {
  const text_units = units.map((u) => ({
    id: u.textUnitId,
    entities: u.entities.map((e) => ({ title: e.title, type: e.type, description: e.description })),
    relationships: u.relationships.map((r) => ({
      source: r.source,
      target: r.target,
      description: r.description,
      weight: r.weight,
    })),
  }))
  const body = { entity_types: settings.extract_graph.entity_types, text_units }
  await writeFileAtomic(
    join(settings.output_storage.base_dir, EXTRACTION_RESULTS_FILE),
    `${JSON.stringify(body, null, 1)}\n`,
  )
}
