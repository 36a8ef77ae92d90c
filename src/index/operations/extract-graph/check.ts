/**
 * The failure policy after an extraction: too many failed units, or no entities at all, fail the
 * workflow with a message that names the likely cause.
 */
import { WorkflowError } from '../../../errors.js'
import { enforceFailureBudget } from '../failure-budget.js'

export interface FailureOutcome {
  attempted: number
  failures: ReadonlyArray<{ textUnitId: string; reason: string; error: Error }>
}

export interface ExtractionOutcome extends FailureOutcome {
  entities: number
  relationships: number
  sampleReply: string | undefined
}

const SAMPLE_CHARS = 600

/** Throws when more than `maxFailedFraction` of the units failed; `setting` names the key to raise. */
export function checkFailures(
  workflow: string,
  outcome: FailureOutcome,
  maxFailedFraction: number,
  setting: string,
): void {
  const failures = outcome.failures.map((f) => ({ item: f.textUnitId, reason: f.reason, error: f.error }))
  enforceFailureBudget(workflow, {
    what: 'text units',
    attempted: outcome.attempted,
    failures,
    maxFailedFraction,
    setting,
  })
}

/** checkFailures, then fails when the graph has no entities or no relationships, showing one raw reply. */
export function checkExtraction(
  workflow: string,
  outcome: ExtractionOutcome,
  maxFailedFraction: number,
  setting: string,
): void {
  checkFailures(workflow, outcome, maxFailedFraction, setting)
  if (outcome.entities > 0 && outcome.relationships > 0) return
  const what = outcome.entities === 0 ? 'no entities' : 'no relationships'
  const succeeded = outcome.attempted - outcome.failures.length
  throw new WorkflowError(
    workflow,
    `Graph extraction found ${what} in ${succeeded} text units. The model most likely does not follow the ` +
      'record format of the extraction prompt (("entity"<|>NAME<|>TYPE<|>DESCRIPTION) and ' +
      '("relationship"<|>SOURCE<|>TARGET<|>DESCRIPTION<|>STRENGTH) records separated by ##); ' +
      `try a stronger model or adapt extract_graph.prompt. One raw reply:\n${truncate(outcome.sampleReply ?? '(no reply received)')}`,
  )
}

function truncate(text: string): string {
  return text.length <= SAMPLE_CHARS
    ? text
    : `${text.slice(0, SAMPLE_CHARS)}… (${text.length - SAMPLE_CHARS} more characters)`
}
