// What the packed model cache (src/storage/packed-kv.ts) promises on every backend: a folder, Azurite
// and the S3 test server (packed-kv.test.ts, object-kv.test.ts). `open` gives a new store on the same
// cache each time, as a new process (or another machine) would; `legacy` writes an entry the way
// versions before packs did, one file or object per key.
import { expect, it } from 'vitest'
import type { KeyValueStore } from '../../src/storage/key-value-store.js'

export interface PackedCase {
  open: () => KeyValueStore
  legacy: (partition: string, key: string, value: string) => Promise<void>
}

export function packedCacheCases(fresh: () => Promise<PackedCase>): void {
  it('round trip: a miss, then what was set, in this process and, after flush, in a new one', async () => {
    const { open } = await fresh()
    const writer = open().child('extract_graph')
    expect(await writer.get('k1')).toBeUndefined()
    await writer.set('k1', '{"reply":"Ça va ✓"}')
    await writer.set('k2', 'two')
    expect(await writer.get('k1')).toBe('{"reply":"Ça va ✓"}')
    await writer.flush()
    const reader = open().child('extract_graph')
    expect(await reader.get('k1')).toBe('{"reply":"Ça va ✓"}')
    expect(await reader.get('k2')).toBe('two')
    expect(await reader.get('k3')).toBeUndefined()
    expect(await reader.keys()).toEqual(['k1', 'k2'])
    expect(await open().child('other').keys()).toEqual([])
  })

  it('flushing the root writes every partition opened through it', async () => {
    const { open } = await fresh()
    const root = open()
    await root.child('a').set('k', 'in a')
    await root.child('b').child('c').set('k', 'in b/c')
    await root.flush()
    expect(await open().child('a').get('k')).toBe('in a')
    expect(await open().child('b').child('c').get('k')).toBe('in b/c')
    expect(await open().child('b').keys()).toEqual([])
  })

  it('two writers at once keep both their entries; a reader merges their packs', async () => {
    const { open } = await fresh()
    const [one, two] = [open().child('p'), open().child('p')]
    await Promise.all([one.set('from-one', '1'), two.set('from-two', '2')])
    await Promise.all([one.flush(), two.flush()])
    await one.set('later-one', '3')
    await one.flush()
    const reader = open().child('p')
    expect(await reader.keys()).toEqual(['from-one', 'from-two', 'later-one'])
    expect(await reader.get('from-two')).toBe('2')
    expect(await reader.get('later-one')).toBe('3')
  })

  it('reads entries of the one-per-key layout; setting such a key replaces it; delete removes both', async () => {
    const { open, legacy } = await fresh()
    await legacy('extract_graph', 'old1', '{"version":1,"reply":"old"}')
    await legacy('extract_graph', 'old2', 'stale')
    const store = open().child('extract_graph')
    expect(await store.get('old1')).toBe('{"version":1,"reply":"old"}')
    await store.set('old2', 'fresh')
    await store.set('new', 'n')
    await store.flush()
    const reader = open().child('extract_graph')
    expect(await reader.keys()).toEqual(['new', 'old1', 'old2'])
    expect(await reader.get('old2')).toBe('fresh')
    await reader.delete('old1')
    await reader.delete('new')
    await reader.flush()
    expect(await open().child('extract_graph').keys()).toEqual(['old2'])
    expect(await open().child('extract_graph').get('new')).toBeUndefined()
  })

  it('an entry put in the one-per-key layout after a pack holds the key answers in its place', async () => {
    const { open, legacy } = await fresh()
    const store = open().child('extract_noun_phrases')
    await store.set('k', '["OURS"]')
    await store.flush()
    await legacy('extract_noun_phrases', 'k', '["ANOTHER TAGGER"]')
    expect(await open().child('extract_noun_phrases').get('k')).toBe('["ANOTHER TAGGER"]')
  })
}
