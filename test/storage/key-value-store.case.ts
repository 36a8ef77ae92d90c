// The KeyValueStore contract, run against every implementation (key-value-store.test.ts). A store that
// keeps nothing (NullKeyValueStore) passes with `keeps: false`: it must still never answer what it was not given.
import { describe, expect, it } from 'vitest'
import type { KeyValueStore } from '../../src/storage/key-value-store.js'

export function keyValueStoreContract(
  name: string,
  open: () => Promise<KeyValueStore>,
  options: { keeps: boolean } = { keeps: true },
): void {
  const kept = <T>(value: T, none: T): T => (options.keeps ? value : none)
  describe(`KeyValueStore contract: ${name}`, () => {
    it('answers a set key with its value and an unknown key with undefined', async () => {
      const store = await open()
      expect(await store.get('missing')).toBeUndefined()
      await store.set('a1b2', '{"reply": "Ça va ✓"}')
      expect(await store.get('a1b2')).toBe(kept('{"reply": "Ça va ✓"}', undefined))
      await store.set('a1b2', 'second')
      expect(await store.get('a1b2')).toBe(kept('second', undefined))
      await store.set('empty', '')
      expect(await store.get('empty')).toBe(kept('', undefined))
    })

    it('lists keys in order and forgets deleted ones', async () => {
      const store = await open()
      await store.set('b', '2')
      await store.set('a', '1')
      expect(await store.keys()).toEqual(kept(['a', 'b'], []))
      await store.delete('a')
      await store.delete('never-set')
      expect(await store.get('a')).toBeUndefined()
      expect(await store.keys()).toEqual(kept(['b'], []))
    })

    it('keeps children apart from each other and from the parent, and gives the same child twice', async () => {
      const store = await open()
      await store.child('x').set('k', 'in x')
      await store.child('y').set('k', 'in y')
      expect(await store.child('x').get('k')).toBe(kept('in x', undefined))
      expect(await store.child('y').get('k')).toBe(kept('in y', undefined))
      expect(await store.get('k')).toBeUndefined()
      expect(await store.child('x').keys()).toEqual(kept(['k'], []))
    })
  })
}
