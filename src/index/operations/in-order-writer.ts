/**
 * Hands results that finish out of order to a writer in their order, one write at a time, so a
 * stream of batches can go to storage as it is produced instead of being gathered whole first.
 */
export class InOrderWriter<T> {
  private readonly ready = new Map<number, T>()
  /** Index of the next item to write. */
  private next = 0
  private writing: Promise<void> = Promise.resolve()
  private waiting: Array<() => void> = []
  private stopped: unknown

  /** `ahead`: how many items past the next one to write may be started (bounds what waits in memory). */
  constructor(
    private readonly write: (item: T) => Promise<void>,
    private readonly ahead: number,
  ) {}

  /** Resolves once item `at` may be started; throws once the writer stopped. */
  async room(at: number): Promise<void> {
    while (this.stopped === undefined && at - this.next >= this.ahead)
      await new Promise<void>((wake) => this.waiting.push(wake))
    if (this.stopped !== undefined) throw this.stopped
  }

  /** Gives item `at`; resolves once every item up to the last one ready is written. */
  put(at: number, item: T): Promise<void> {
    this.ready.set(at, item)
    this.writing = this.writing.then(() => this.drain())
    return this.writing
  }

  /** A producer failed: items not started yet never will be (their room() throws `reason`). */
  stop(reason: unknown): void {
    this.stopped ??= reason
    this.wake()
  }

  private async drain(): Promise<void> {
    while (this.stopped === undefined && this.ready.has(this.next)) {
      const item = this.ready.get(this.next)!
      this.ready.delete(this.next)
      try {
        await this.write(item)
      } catch (error) {
        this.stop(error)
        throw error
      }
      this.next += 1
      this.wake()
    }
  }

  private wake(): void {
    for (const wake of this.waiting.splice(0)) wake()
  }
}
