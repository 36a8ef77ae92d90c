/**
 * The resume fingerprint of each planned workflow: its settings, the models it calls, the text of
 * its prompts and, for loading, the input files, chained onto the fingerprint of the one before.
 */
import { createHash } from 'node:crypto'
import type { Settings } from '../../config/schema.js'
import { VERSION } from '../../version.js'
import type { Workflow } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import { workflowMaterial } from '../workflows/workflow-material.js'
import { canonicalJson } from '../../text/canonical-json.js'

export interface PlannedWorkflow {
  name: WorkflowName
  fingerprint: string
}

/** Reads every declared prompt, so a configured prompt file that is missing fails here, before any workflow runs. */
export async function fingerprintWorkflows(
  names: readonly WorkflowName[],
  settings: Settings,
): Promise<PlannedWorkflow[]> {
  const planned: PlannedWorkflow[] = []
  let previous = VERSION
  for (const name of names) {
    const workflow: Workflow = WORKFLOWS[name]
    previous = chainFingerprint(previous, name, {
      ...workflowMaterial(workflow, settings),
      external: (await workflow.external?.(settings)) ?? null,
    })
    planned.push({ name, fingerprint: previous })
  }
  return planned
}

export function chainFingerprint(previous: string, workflow: string, parts: unknown): string {
  return createHash('sha256')
    .update(previous)
    .update('\u0000')
    .update(workflow)
    .update('\u0000')
    .update(canonicalJson(parts))
    .digest('hex')
}
