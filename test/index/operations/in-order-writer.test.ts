import { describe, expect, it } from 'vitest'
import { InOrderWriter } from '../../../src/index/operations/in-order-writer.js'

/** A promise with its resolve at hand, to finish producers in a chosen order. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('InOrderWriter', () => {
  it('writes items finished out of order in their order, one write at a time', async () => {
    const written: number[] = []
    let writing = 0
    let overlapped = false
    const writer = new InOrderWriter<number>(async (item) => {
      overlapped ||= writing > 0
      writing += 1
      await tick()
      written.push(item)
      writing -= 1
    }, 10)
    const puts = [3, 1, 0, 2, 4].map((at) => writer.put(at, at * 10))
    await Promise.all(puts)
    expect(written).toEqual([0, 10, 20, 30, 40])
    expect(overlapped).toBe(false)
  })

  it('lets no item start more than `ahead` past the next one to write', async () => {
    const writer = new InOrderWriter<number>(async () => {}, 2)
    const started: number[] = []
    const first = gate()
    const producers = [0, 1, 2, 3].map(async (at) => {
      await writer.room(at)
      started.push(at)
      if (at === 0) await first.opened
      await writer.put(at, at)
    })
    await tick()
    // Item 0 is slow: 1 may start, 2 and 3 wait until 0 (then 1) is written.
    expect(started).toEqual([0, 1])
    first.open()
    await Promise.all(producers)
    expect(started).toEqual([0, 1, 2, 3])
  })

  it('stops: waiting and later items fail with the first reason, nothing more is written', async () => {
    const written: number[] = []
    const writer = new InOrderWriter<number>(async (item) => {
      written.push(item)
    }, 1)
    const waiting = writer.room(2)
    writer.stop(new Error('flush 0 failed'))
    await expect(waiting).rejects.toThrow('flush 0 failed')
    await expect(writer.room(0)).rejects.toThrow('flush 0 failed')
    await writer.put(0, 0)
    expect(written).toEqual([])
  })

  it('a failed write stops the writer and reaches every later put', async () => {
    const writer = new InOrderWriter<number>(async (item) => {
      if (item === 1) throw new Error('disk full')
    }, 5)
    await writer.put(0, 0)
    await expect(writer.put(1, 1)).rejects.toThrow('disk full')
    await expect(writer.put(2, 2)).rejects.toThrow('disk full')
    await expect(writer.room(3)).rejects.toThrow('disk full')
  })
})
