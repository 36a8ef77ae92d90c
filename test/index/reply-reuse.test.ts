import { describe, expect, it } from 'vitest'
import { ReplyReuse } from '../../src/index/run/reply-reuse.js'
import { MODEL_REPLIES } from '../../src/model/model-replies.js'
import { MemoryKeyValueStore, NullKeyValueStore } from '../../src/storage/key-value-store.js'
import { MemoryTableStore } from '../../src/storage/table-store.js'

describe('model replies kept in the index', () => {
  it('answers a cache miss from the previous replies, and each workflow keeps exactly the entries it used', async () => {
    const tables = new MemoryTableStore()
    await tables.write(MODEL_REPLIES, [
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'k-old', value: 'old reply' },
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'k-unused', value: 'unused reply' },
      { workflow: 'create_community_reports', partition: 'community_reporting', key: 'r1', value: 'report' },
    ])
    const reuse = await ReplyReuse.open(tables, ['text_embedding'])
    const cache = reuse.wrap(new NullKeyValueStore())
    reuse.startWorkflow('extract_graph')
    expect(await cache.child('extract_graph').get('k-old')).toBe('old reply')
    expect(await cache.child('extract_graph').get('k-missing')).toBeUndefined()
    await cache.child('extract_graph').set('k-new', 'new reply')
    await cache.child('text_embedding').set('e1', '{"vector":[1]}')
    await reuse.finishWorkflow(tables)
    expect(reuse.reused).toBe(1)
    expect(await tables.read(MODEL_REPLIES)).toEqual([
      { workflow: 'create_community_reports', partition: 'community_reporting', key: 'r1', value: 'report' },
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'k-new', value: 'new reply' },
      { workflow: 'extract_graph', partition: 'extract_graph', key: 'k-old', value: 'old reply' },
    ])
  })

  it('the cache answers first and is warmed with reused entries', async () => {
    const tables = new MemoryTableStore()
    await tables.write(MODEL_REPLIES, [{ workflow: 'w', partition: 'p', key: 'k', value: 'from index' }])
    const reuse = await ReplyReuse.open(tables, [])
    const inner = new MemoryKeyValueStore()
    await inner.child('p').set('k2', 'from cache')
    const cache = reuse.wrap(inner)
    reuse.startWorkflow('w')
    expect(await cache.child('p').get('k2')).toBe('from cache')
    expect(await cache.child('p').get('k')).toBe('from index')
    expect(await inner.child('p').get('k')).toBe('from index')
    expect(reuse.hadReplies).toBe(true)
  })
})
