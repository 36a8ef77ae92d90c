/**
 * One run of a chunk-yielding search, however it is consumed: chunks are buffered so every
 * iteration replays them from the first (then follows the live run), and `result` alone drives the
 * run to its end. Leaving the last loop early before anyone asked for `result` abandons the run.
 */
import { QueryError } from '../errors.js'

export interface SharedRun<R> extends AsyncIterable<string> {
  readonly result: Promise<R>
}

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown }

export function sharedRun<R>(start: () => AsyncGenerator<string, R, undefined>): SharedRun<R> {
  const chunks: string[] = []
  let generator: AsyncGenerator<string, R, undefined> | undefined
  let outcome: Outcome<R> | undefined
  let step: Promise<void> | undefined
  let result: Promise<R> | undefined
  let readers = 0

  /** Advances the run by one chunk (or to its end); callers waiting at the same time share the step. */
  const advance = (): Promise<void> =>
    (step ??= (async () => {
      try {
        const next = await (generator ??= start()).next()
        if (next.done === true) outcome = { ok: true, value: next.value }
        else chunks.push(next.value)
      } catch (error) {
        outcome = { ok: false, error }
      } finally {
        step = undefined
      }
    })())

  const finish = async (): Promise<R> => {
    while (outcome === undefined) await advance()
    if (outcome.ok) return outcome.value
    throw outcome.error
  }

  const abandon = () => {
    const error = new QueryError('the search stream was closed before the answer was complete')
    outcome = { ok: false, error }
    // Throwing into the suspended run executes its cleanup (finally blocks); it rethrows our own error.
    void generator?.throw(error).catch(() => undefined)
  }

  async function* read(): AsyncGenerator<string, void, undefined> {
    readers += 1
    try {
      for (let i = 0; ; i++) {
        while (i >= chunks.length && outcome === undefined) await advance()
        if (i < chunks.length) yield chunks[i]!
        else if (outcome?.ok === false) throw outcome.error
        else return
      }
    } finally {
      readers -= 1
      if (outcome === undefined && result === undefined && readers === 0) abandon()
    }
  }

  return {
    [Symbol.asyncIterator]: () => read(),
    get result() {
      return (result ??= finish())
    },
  }
}
