/**
 * The scheduler's memory rule (src/index/run/large-reads.ts): workflows that read a large table run
 * one at a time instead of side by side; with small tables nothing changes; the tables are the same.
 */
import { cp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LARGE_TABLE_BYTES, OneAtATime, readsLargeTable } from '../../../src/index/run/large-reads.js'
import { RecordingReporter } from '../../../src/index/run/reporter.js'
import { runIndex } from '../../../src/index/run/runner.js'
import { comparableTables } from '../../support/index-files.js'
import { PROJECT_ROOT } from '../../support/shared.js'
import { testdir } from '../../support/testdir.js'

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

describe('readsLargeTable', () => {
  it('is true when a table it reads is a file of more than the threshold, absent tables being small', async () => {
    const dir = await testdir()
    await writeFile(join(dir, 'relationships.parquet'), new Uint8Array(1000))
    await writeFile(join(dir, 'entities.parquet'), new Uint8Array(10))
    expect(readsLargeTable(dir, ['entities', 'relationships'], 999)).toBe(true)
    expect(readsLargeTable(dir, ['entities', 'relationships'], 1000)).toBe(false)
    expect(readsLargeTable(dir, ['entities', 'covariates'], 9)).toBe(true)
    expect(readsLargeTable(dir, ['covariates', 'text_units'], 0)).toBe(false)
    expect(readsLargeTable(dir, ['relationships'])).toBe(LARGE_TABLE_BYTES < 1000)
  })
})

describe('OneAtATime', () => {
  it('runs one task at a time in the order handed, and goes on after a failure', async () => {
    const slot = new OneAtATime()
    const log: string[] = []
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`)
        await tick()
        log.push(`end ${name}`)
        if (fail) throw new Error(`${name} failed`)
        return name
      }
    const results = await Promise.allSettled([slot.run(task('a', true)), slot.run(task('b')), slot.run(task('c'))])
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c'])
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'a failed',
      'b',
      'c',
    ])
  })
})

/** fixtures/demo in a fresh folder, indexed offline (fast method) with the reporter's events as `start x` / `end x`. */
async function indexDemo(largeTableBytes?: number): Promise<{ events: string[]; tables: Record<string, string> }> {
  const root = join(await testdir(), 'demo')
  await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
  for (const generated of ['output', 'cache', 'logs', '.output.run', 'update_output'])
    await rm(join(root, generated), { recursive: true, force: true })
  const reporter = new RecordingReporter()
  const clock = { now: () => new Date('2026-01-02T03:04:05Z') }
  await runIndex({ root, env: {}, skipValidation: true, reporter, clock, largeTableBytes })
  const events = reporter.events.flatMap((e) =>
    e.type === 'workflowStart' ? [`start ${e.name}`] : e.type === 'workflowEnd' ? [`end ${e.name}`] : [],
  )
  return { events, tables: await comparableTables(join(root, 'output')) }
}

describe('workflows reading a large table (the offline demo index)', () => {
  it('runs create_communities and create_final_text_units side by side with small tables, one after the other with large ones; same tables', async () => {
    const small = await indexDemo()
    const large = await indexDemo(0)
    const between = (events: string[]) =>
      events.slice(events.indexOf('start create_communities'), events.indexOf('end create_communities'))
    expect(between(small.events)).toContain('start create_final_text_units')
    expect(between(large.events)).not.toContain('start create_final_text_units')
    expect(large.events).toContain('start create_final_text_units')
    expect(large.tables).toEqual(small.tables)
  }, 120_000)
})
