/**
 * The failure policy shared by every workflow that tolerates some failed items (text units,
 * community reports): above `maxFailedFraction` of the attempted items, the workflow fails with a
 * one-line summary naming the first failure. Every item is listed in stats.json and the log by the runner.
 */
import { WorkflowError } from '../../errors.js'

interface ItemFailure {
  item: string
  reason: string
  error: Error
}

export interface FailureBudget {
  /** What the items are, plural: `text units`, `community reports`. */
  what: string
  attempted: number
  failures: readonly ItemFailure[]
  maxFailedFraction: number
  /** The settings key that sets the fraction. */
  setting: string
}

export function enforceFailureBudget(workflow: string, budget: FailureBudget): void {
  const failed = budget.failures.length
  if (failed === 0 || failed <= budget.maxFailedFraction * budget.attempted) return
  const first = budget.failures[0]!
  const message =
    `${failed} of ${budget.attempted} ${budget.what} failed after retries, more than ${budget.setting} = ${budget.maxFailedFraction} allows ` +
    `(first: ${first.item}: ${firstLine(first.reason)}); to finish the index without them, raise ${budget.setting} or pass --allow-partial`
  throw new WorkflowError(workflow, message, { cause: first.error })
}

function firstLine(text: string): string {
  const end = text.indexOf('\n')
  return end < 0 ? text : `${text.slice(0, end)} …`
}
