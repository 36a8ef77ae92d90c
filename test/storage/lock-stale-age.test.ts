/** GRAPHRAG_LOCK_STALE_SECONDS: at least two 30 s heartbeats, or one clear error naming the variable and the minimum. */
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import { staleAfterMs } from '../../src/storage/run-lock.js'

describe('the stale age of a store lock', () => {
  it('defaults to 120 s and accepts any age of two heartbeats or more', () => {
    expect(staleAfterMs({})).toBe(120_000)
    expect(staleAfterMs({ GRAPHRAG_LOCK_STALE_SECONDS: '  ' })).toBe(120_000)
    expect(staleAfterMs({ GRAPHRAG_LOCK_STALE_SECONDS: '60' })).toBe(60_000)
    expect(staleAfterMs({ GRAPHRAG_LOCK_STALE_SECONDS: '600.5' })).toBe(600_500)
  })

  it.each(['1', '30', '59.9', '0', '-5', 'two minutes'])('refuses %s, naming the variable and the minimum', (value) => {
    const error = (() => {
      try {
        return staleAfterMs({ GRAPHRAG_LOCK_STALE_SECONDS: value })
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as Error).message).toBe(
      `GRAPHRAG_LOCK_STALE_SECONDS=${value}: a lock is taken over when unrefreshed for that long, and its holder refreshes it every 30 s, so it must be a number of seconds ≥ 60 (two refreshes); unset it for the default 120`,
    )
  })
})
