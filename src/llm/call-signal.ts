/**
 * A signal of its own for each request, following the caller's long-lived one (the run's). The openai
 * package adds an abort listener to the signal it is handed and never removes it: given the run's
 * signal, every call would leave one listener behind, holding its request state until the run ends,
 * and each addEventListener walks the whole list, so a run of n calls spent time in n².
 */
export interface CallSignal {
  /** What to hand the SDK: aborted when the outer signal is. */
  signal: AbortSignal | undefined
  /** Lets go of the outer signal once the request is over (read to its end, for a stream). */
  release(): void
}

export function callSignal(outer: AbortSignal | undefined): CallSignal {
  if (outer === undefined) return { signal: undefined, release: () => {} }
  const own = new AbortController()
  const follow = () => own.abort(outer.reason)
  if (outer.aborted) follow()
  else outer.addEventListener('abort', follow, { once: true })
  return { signal: own.signal, release: () => outer.removeEventListener('abort', follow) }
}
