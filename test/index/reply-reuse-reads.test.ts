import { describe, expect, it } from 'vitest'
import { ReplyReuse } from '../../src/index/run/reply-reuse.js'
import { MODEL_REPLIES } from '../../src/model/model-replies.js'
import type { RowOf, TableSchema } from '../../src/model/schema.js'
import { NullKeyValueStore } from '../../src/storage/key-value-store.js'
import { MemoryTableStore, type ReadOptions } from '../../src/storage/table-store.js'

/** A memory store that counts the reads and writes of each table. */
class CountingStore extends MemoryTableStore {
  readonly reads = new Map<string, number>()
  readonly writes = new Map<string, number>()

  override read<S extends TableSchema>(schema: S, options?: ReadOptions): Promise<RowOf<S>[]> {
    this.reads.set(schema.name, (this.reads.get(schema.name) ?? 0) + 1)
    return super.read(schema, options)
  }

  override write<S extends TableSchema>(schema: S, rows: readonly RowOf<S>[]): Promise<void> {
    this.writes.set(schema.name, (this.writes.get(schema.name) ?? 0) + 1)
    return super.write(schema, rows)
  }
}

describe('model_replies read once per run', () => {
  it('finishing workflows reads the table no more after open, and rewrites it only for workflows whose entries changed', async () => {
    const tables = new CountingStore()
    await tables.write(MODEL_REPLIES, [
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'a', value: 'reply a' },
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'b', value: 'reply b' },
    ])
    tables.writes.clear()
    const reuse = await ReplyReuse.open(tables, [])
    const cache = reuse.wrap(new NullKeyValueStore())
    // A workflow without model calls: nothing read, nothing written.
    await reuse.within('create_communities', async () => undefined)
    await reuse.finishWorkflow(tables, 'create_communities')
    expect(tables.writes.get(MODEL_REPLIES.name)).toBeUndefined()
    // A workflow using one of its two earlier entries and a new one: written from the rows in hand.
    await reuse.within('extract_graph', async () => {
      expect(await cache.child('extract_graph').get('a')).toBe('reply a')
      await cache.child('extract_graph').set('c', 'reply c')
    })
    await reuse.finishWorkflow(tables, 'extract_graph')
    // Another one after it keeps what extract_graph wrote (not the rows read at open).
    await reuse.within('create_community_reports', async () => {
      await cache.child('community_reporting').set('r', 'report')
    })
    await reuse.finishWorkflow(tables, 'create_community_reports')
    await reuse.within('update_clean_state', async () => undefined)
    await reuse.finishWorkflow(tables, 'update_clean_state')
    expect(tables.reads.get(MODEL_REPLIES.name)).toBe(1)
    expect(tables.writes.get(MODEL_REPLIES.name)).toBe(2)
    expect((await tables.read(MODEL_REPLIES)).map((r) => `${r.workflow}/${r.key}`)).toEqual([
      'create_community_reports/r',
      'extract_graph/a',
      'extract_graph/c',
    ])
  })
})
