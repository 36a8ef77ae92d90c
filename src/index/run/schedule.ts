/**
 * Workflows as a graph, not a list: a workflow depends on every earlier one in the list that writes a
 * table it reads, reads a table it writes, or writes a table it writes (so every reader sees exactly the
 * table it would see run in list order), and starts as soon as those have finished. Results stay in list order.
 */
import type { Workflow } from '../workflow.js'

/** What the order depends on: the tables, plus stores outside the table store (the vector store). */
type Access = Pick<Workflow, 'reads' | 'writes' | 'readsVectorStore' | 'writesVectorStore'>

const VECTOR_STORE = '\u0000vector store'

function touched(w: Access): { reads: Set<string>; writes: Set<string> } {
  const reads = new Set(w.reads)
  const writes = new Set(w.writes)
  if (w.readsVectorStore === true) reads.add(VECTOR_STORE)
  if (w.writesVectorStore === true) writes.add(VECTOR_STORE)
  return { reads, writes }
}

const overlaps = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].some((x) => b.has(x))

/** For each workflow of the list, the indexes of the earlier ones it must wait for. */
export function workflowGraph(workflows: readonly Access[]): number[][] {
  const access = workflows.map(touched)
  return access.map((mine, i) =>
    access
      .slice(0, i)
      .flatMap((earlier, j) =>
        overlaps(earlier.writes, mine.reads) ||
        overlaps(earlier.reads, mine.writes) ||
        overlaps(earlier.writes, mine.writes)
          ? [j]
          : [],
      ),
  )
}

/** The list as it stands: each waits for the one before it (update runs, whose bookkeeping workflows declare no writes). */
export function inSequence(count: number): number[][] {
  return Array.from({ length: count }, (_, i) => (i === 0 ? [] : [i - 1]))
}

export interface ScheduleOutcome {
  /** Indexes of the workflows that ran to the end, in list order. */
  finished: number[]
  /** The failure of the earliest failed workflow in list order, if any (the others were let finish). */
  error: unknown
  failed: boolean
}

/**
 * Runs `run(i)` for every workflow once its dependencies have finished, several at once. After a
 * failure or a `stop`, nothing new starts; those already running are let finish (their work is kept).
 */
export async function runGraph(
  graph: readonly (readonly number[])[],
  run: (index: number) => Promise<{ stop: boolean }>,
): Promise<ScheduleOutcome> {
  const state = graph.map(() => 'waiting' as 'waiting' | 'running' | 'done' | 'failed')
  const errors = new Map<number, unknown>()
  const running = new Map<number, Promise<void>>()
  let halted = false
  for (;;) {
    if (!halted) {
      graph.forEach((deps, i) => {
        if (state[i] !== 'waiting' || !deps.every((d) => state[d] === 'done')) return
        state[i] = 'running'
        const task = run(i).then(
          (outcome) => {
            state[i] = 'done'
            if (outcome.stop) halted = true
          },
          (error: unknown) => {
            state[i] = 'failed'
            errors.set(i, error)
            halted = true
          },
        )
        running.set(
          i,
          task.finally(() => running.delete(i)),
        )
      })
    }
    if (running.size === 0) break
    await Promise.race(running.values())
  }
  const failedAt = [...errors.keys()].sort((a, b) => a - b)[0]
  return {
    finished: state.flatMap((s, i) => (s === 'done' ? [i] : [])),
    error: failedAt === undefined ? undefined : errors.get(failedAt),
    failed: failedAt !== undefined,
  }
}

/**
 * Hands completion records on in list order: a workflow that finishes before an earlier one waits
 * until that one has finished, so a resume record list is always a prefix of the plan.
 */
export class InOrderRecorder<T> {
  private readonly held = new Map<number, T>()
  private next = 0
  // Flushes one after another, so a slower write of fewer records never lands last.
  private chain: Promise<void> = Promise.resolve()

  constructor(private readonly flush: (record: T, index: number) => Promise<void>) {}

  record(index: number, record: T): Promise<void> {
    this.held.set(index, record)
    while (this.held.has(this.next)) {
      const [ready, at] = [this.held.get(this.next)!, this.next]
      this.held.delete(this.next)
      this.next++
      this.chain = this.chain.then(() => this.flush(ready, at))
    }
    return this.chain
  }
}

/**
 * The table hashes a resume record gets, as they would be had the list run in order: the previous
 * record's, with this workflow's own tables as it left them. Later workflows running beside it may
 * already have rewritten other tables; their own records say so.
 */
export function tablesInListOrder(
  previous: Readonly<Record<string, string>>,
  atFinish: Readonly<Record<string, string>>,
  writes: readonly string[],
): Record<string, string> {
  const own = Object.entries(atFinish).filter(([name]) => writes.includes(name))
  return { ...previous, ...Object.fromEntries(own) }
}
