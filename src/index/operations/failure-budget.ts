/**
 * The failure policy shared by every workflow that tolerates some failed items (text units,
 * community reports): above `maxFailedFraction` of the attempted items, the workflow fails with a
 * message that lists the first failures and says how to retry.
 */
import { WorkflowError } from '../../errors.js'

export interface ItemFailure {
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

const LISTED_FAILURES = 5

export function enforceFailureBudget(workflow: string, budget: FailureBudget): void {
  const failed = budget.failures.length
  if (failed === 0 || failed <= budget.maxFailedFraction * budget.attempted) return
  const listed = budget.failures.slice(0, LISTED_FAILURES).map((f) => `  ${f.item}: ${f.reason}`)
  const more = failed > LISTED_FAILURES ? [`  ... and ${failed - LISTED_FAILURES} more`] : []
  const message = [
    `${failed} of ${budget.attempted} ${budget.what} failed after retries (${budget.setting} = ${budget.maxFailedFraction}):`,
    ...listed,
    ...more,
    `Run the command again to retry only the failed ${budget.what} (the others are answered from the cache).`,
  ].join('\n')
  throw new WorkflowError(workflow, message, { cause: budget.failures[0]!.error })
}
