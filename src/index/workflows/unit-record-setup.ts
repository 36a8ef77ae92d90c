/**
 * Where extract_graph keeps and replays each text unit's outcome (operations/extract-graph/unit-records.ts):
 * the extraction model's cache partition, and the key material every record of this run shares.
 */
import { createHash } from 'node:crypto'
import type { Settings } from '../../config/schema.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import { canonicalJson } from '../../text/canonical-json.js'
import { VERSION } from '../../version.js'
import {
  UNIT_RECORD_FORMAT,
  UNIT_RECORD_PARTITION,
  type UnitRecords,
} from '../operations/extract-graph/unit-records.js'
import { workflowMaterial } from './workflow-material.js'
import type { Workflow } from '../workflow.js'

export function graphUnitRecords(
  cache: KeyValueStore,
  settings: Settings,
  workflow: Workflow,
  entityTypes: readonly string[],
): UnitRecords {
  const replies = cache.child(settings.extract_graph.model_instance_name)
  // The workflow's settings, models and prompts as its resume fingerprint has them, the entity types
  // they default to, and the code's own format and version: what shapes a unit's conversation besides its text.
  const material = canonicalJson({
    format: UNIT_RECORD_FORMAT,
    version: VERSION,
    entityTypes,
    workflow: workflowMaterial(workflow, settings),
  })
  return {
    store: replies.child(UNIT_RECORD_PARTITION),
    replies,
    material: createHash('sha256').update(material).digest('hex'),
  }
}
