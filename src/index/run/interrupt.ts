/**
 * Ctrl-C during a run: no new model call starts, calls already on the wire may finish for a grace
 * period (so their answers are cached and a re-run does not pay for them again), then the rest are
 * cancelled and stats.json says `interrupted`.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { GraphragError } from '../../errors.js'
import type { ChatModel, EmbeddingModel } from '../../llm/types.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import type { ModelRegistry } from './models.js'
import type { ModelProvider } from '../workflow.js'

const INTERRUPTED_MESSAGE = 'interrupted: no new model calls were started'

/** Not an LlmError, so operations that record failed items pass it on and the workflow stops. */
class RunInterrupted extends GraphragError {
  constructor() {
    super('WORKFLOW', INTERRUPTED_MESSAGE)
    this.name = 'RunInterrupted'
  }
}

export class Interruption {
  private asked = false
  private inFlight = 0
  private readonly waiting: Array<() => void> = []
  private readonly hard = new AbortController()
  private readonly asking = new AbortController()

  get requested(): boolean {
    return this.asked
  }

  /** Aborted when the grace period ends: cancels the calls still running. */
  get signal(): AbortSignal {
    return this.hard.signal
  }

  /**
   * Aborted, with the interruption as its reason, the moment a stop is requested: for waits that cost
   * nothing to abandon (a provider batch runs on and is collected by the next run).
   */
  get requestedSignal(): AbortSignal {
    return this.asking.signal
  }

  request(): void {
    this.asked = true
    this.asking.abort(new RunInterrupted())
  }

  throwIfRequested(): void {
    if (this.asked) throw new RunInterrupted()
  }

  /** Waits until no call is in flight or `graceMs` passed, then cancels whatever still runs. */
  async drain(graceMs: number): Promise<void> {
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs)
        this.waiting.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    this.hard.abort(new RunInterrupted())
  }

  /** The registry with every model call refused once an interruption was requested. */
  gate(registry: ModelRegistry): ModelRegistry {
    return {
      forWorkflow: (name) => this.gateProvider(registry.forWorkflow(name)),
      usageByWorkflow: () => registry.usageByWorkflow(),
      endpointStats: () => registry.endpointStats(),
      liveStatus: (workflow) => registry.liveStatus(workflow),
      preflight: (ids) => registry.preflight(ids),
    }
  }

  private gateProvider(provider: ModelProvider): ModelProvider {
    return {
      chat: (id, options) => this.gateChat(provider.chat(id, options)),
      embedding: (id, options) => this.gateEmbedding(provider.embedding(id, options)),
      hasChat: (id) => provider.hasChat(id),
    }
  }

  private gateChat(model: ChatModel): ChatModel {
    const self = this
    return {
      id: model.id,
      model: model.model,
      complete: (request) =>
        this.track(() => model.complete({ ...request, beforeSend: this.beforeSend(request.beforeSend) })),
      async *stream(request) {
        self.throwIfRequested()
        self.inFlight += 1
        try {
          yield* model.stream({ ...request, beforeSend: self.beforeSend(request.beforeSend) })
        } finally {
          self.ended()
        }
      },
      countTokens: (text) => model.countTokens(text),
    }
  }

  private gateEmbedding(model: EmbeddingModel): EmbeddingModel {
    return {
      id: model.id,
      model: model.model,
      embed: (texts, options) =>
        this.track(() => model.embed(texts, { ...options, beforeSend: this.beforeSend(options?.beforeSend) })),
      countTokens: (text) => model.countTokens(text),
    }
  }

  /**
   * Refuses each attempt that has not gone on the wire yet: calls queued behind the rate limiter and
   * retries stop too, while requests already sent may finish.
   */
  private beforeSend(outer: (() => void) | undefined): () => void {
    return () => {
      outer?.()
      this.throwIfRequested()
    }
  }

  /** Counts a call until it settles, so drain() knows when nothing is running any more. */
  private async track<T>(call: () => Promise<T>): Promise<T> {
    this.throwIfRequested()
    this.inFlight += 1
    try {
      return await call()
    } finally {
      this.ended()
    }
  }

  private ended(): void {
    this.inFlight -= 1
    if (this.inFlight === 0) for (const wake of this.waiting.splice(0)) wake()
  }
}

/** The registry itself when there is no interruption to watch for. */
export function interruptible(registry: ModelRegistry, interruption: Interruption | undefined): ModelRegistry {
  return interruption === undefined ? registry : interruption.gate(registry)
}

/**
 * Marks stats.json of an interrupted run: `status: interrupted` at the top, and on the workflow that
 * was stopped (written as failed by the runner). Creates the file when the run stopped before any.
 */
export async function recordInterruption(outputDir: string): Promise<void> {
  const path = join(outputDir, 'stats.json')
  let stats: Record<string, unknown> = {}
  try {
    stats = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const workflows = (stats.workflows ?? {}) as Record<string, { status?: string; error?: string }>
  for (const entry of Object.values(workflows)) {
    if (entry.status === 'failed' && entry.error?.includes(INTERRUPTED_MESSAGE) === true) entry.status = 'interrupted'
  }
  await writeFileAtomic(path, `${JSON.stringify({ ...stats, workflows, status: 'interrupted' }, null, 4)}\n`)
}
