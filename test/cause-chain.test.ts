// One walk down an error's causes (src/errors.ts causeChain) serves the model client's "no server
// there" check and the object stores' retry reasons.
import { describe, expect, it } from 'vitest'
import { causeChain } from '../src/errors.js'
import { unreachableCode } from '../src/llm/client.js'
import { failureReason } from '../src/storage/object/transient.js'

const wrapped = (code: string, depth: number): Error => {
  let error: Error = Object.assign(new Error('socket'), { code })
  for (let i = 0; i < depth; i++) error = new Error(`wrap ${i}`, { cause: error })
  return error
}

describe('the cause chain', () => {
  it('yields the error and its causes, outermost first, at most four', () => {
    expect([...causeChain(wrapped('ECONNRESET', 5))].map((e) => e.message)).toEqual([
      'wrap 4',
      'wrap 3',
      'wrap 2',
      'wrap 1',
    ])
    expect([...causeChain(undefined)]).toEqual([])
  })

  it("a model endpoint's unreachable code is found among the causes (fetch wraps the socket error)", () => {
    expect(unreachableCode(wrapped('ECONNREFUSED', 2))).toBe('ECONNREFUSED')
    expect(unreachableCode(wrapped('ECONNRESET', 2))).toBeUndefined()
    // Only the causes count: the error itself is the SDK's.
    expect(unreachableCode(wrapped('ECONNREFUSED', 0))).toBeUndefined()
    expect(unreachableCode(new Error('fetch failed', { cause: new Error('bad port') }))).toBe('bad port')
  })

  it("a store try's reason is the first code down the chain, else the message's first line", () => {
    expect(failureReason(wrapped('ECONNRESET', 3))).toBe('ECONNRESET')
    expect(failureReason(wrapped('ECONNRESET', 4))).toBe('wrap 3')
    expect(failureReason(new Error('first line\nsecond'))).toBe('first line')
  })
})
