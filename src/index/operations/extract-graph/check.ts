/**
 * The failure policy after an extraction: too many failed units, or no entities at all, fail the
 * workflow with a message that names the likely cause. Entities without any relationship (a tiny
 * corpus) do not: the index is still published for basic search, with a warning.
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

/**
 * checkFailures, then fails when the graph has no entities, showing one raw reply. Returns the
 * warning to give when there are entities but no relationships.
 */
export function checkExtraction(
  workflow: string,
  outcome: ExtractionOutcome,
  maxFailedFraction: number,
  setting: string,
): string | undefined {
  checkFailures(workflow, outcome, maxFailedFraction, setting)
  const succeeded = outcome.attempted - outcome.failures.length
  if (outcome.entities > 0 && outcome.relationships > 0) return undefined
  if (outcome.entities > 0)
    return (
      `Graph extraction found ${outcome.entities} entities but no relationships in ${succeeded} text units: ` +
      'the graph is empty, so local, global, DRIFT and graph search have nothing to work with; ' +
      'documents, text units and their vectors are published for basic search'
    )
  throw new WorkflowError(
    workflow,
    `Graph extraction found no entities in ${succeeded} text units. The model most likely does not follow the ` +
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

/**
 * Blank replies are read as "no records", but a run where every reply was blank has extracted
 * nothing at all: that is a model that does not answer (often a local server whose context window
 * is smaller than the prompt), not a corpus without entities.
 */
export function checkEmptyReplies(
  workflow: string,
  outcome: { calls: number; emptyReplies?: readonly string[] },
): void {
  const empty = outcome.emptyReplies?.length ?? 0
  if (empty === 0 || empty < outcome.calls) return
  throw new WorkflowError(
    workflow,
    `every one of the ${outcome.calls} replies of the model was empty (blank after its retries): the model answers ` +
      'nothing to the extraction prompt. Check that it is loaded and that its context window holds the prompt ' +
      '(a local server may cut it short; lower chunking.size or raise the context length), or try another model',
  )
}
