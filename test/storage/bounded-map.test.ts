/** The one bounded-concurrency helper (model calls and object-store transfers alike). */
import { describe, expect, it } from 'vitest'
import { mapBounded } from '../../src/storage/bounded-map.js'
import { inParallel } from '../../src/storage/object/folder-sync.js'

/** Runs `items` through `run`, each item taking a few ms; returns the most items seen in flight at once. */
async function peak(run: (work: (item: number) => Promise<number>) => Promise<unknown>): Promise<number> {
  let inFlight = 0
  let most = 0
  await run(async (item) => {
    most = Math.max(most, ++inFlight)
    await new Promise((r) => setTimeout(r, 2 + (item % 3)))
    inFlight -= 1
    return item * 10
  })
  return most
}

describe('mapBounded', () => {
  it('keeps at most `limit` calls in flight and returns the results in input order', async () => {
    const items = Array.from({ length: 20 }, (_, i) => i)
    let results: number[] = []
    const most = await peak(async (work) => {
      results = await mapBounded(items, 3, work)
    })
    expect(most).toBe(3)
    expect(results).toEqual(items.map((i) => i * 10))
    expect(await mapBounded([], 3, async () => 1)).toEqual([])
  })

  it('store transfers (inParallel) go 8 at a time', async () => {
    const items = Array.from({ length: 30 }, (_, i) => i)
    expect(await peak((work) => inParallel(items, async (i) => void (await work(i))))).toBe(8)
  })

  it('rejects with the first failure', async () => {
    await expect(
      mapBounded([1, 2, 3], 2, async (i) => {
        if (i === 2) throw new Error('item 2 failed')
        return i
      }),
    ).rejects.toThrow('item 2 failed')
  })
})
