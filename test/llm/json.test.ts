import { describe, expect, it } from 'vitest'
import { AttemptFailure } from '../../src/llm/failure.js'
import { parseStructuredReply, parseTolerant } from '../../src/llm/json.js'

const REPORT = {
  type: 'json_schema' as const,
  name: 'report',
  schema: {
    type: 'object',
    required: ['title', 'rating', 'findings'],
    properties: {
      title: { type: 'string' },
      rating: { type: 'number' },
      findings: {
        type: 'array',
        items: { type: 'object', required: ['summary'], properties: { summary: { type: 'string' } } },
      },
    },
  },
}

describe('tolerant JSON', () => {
  it('strips code fences, surrounding prose and trailing commas', () => {
    expect(parseTolerant('```json\n{"a": [1, 2,],}\n```')).toEqual({ a: [1, 2] })
    expect(parseTolerant('Here is the report:\n{"a": "x, }"}\nHope this helps!')).toEqual({ a: 'x, }' })
    expect(parseTolerant('[1, 2, 3,]')).toEqual([1, 2, 3])
    // Whitespace of any kind between the comma and the closer; a comma before a value stays.
    expect(parseTolerant('{"a": [1,\n\t 2 , \u3000],\r\n}')).toEqual({ a: [1, 2] })
    expect(parseTolerant('[[1,] , [2,]\n,]')).toEqual([[1], [2]])
    expect(parseTolerant('no json here')).toBeUndefined()
  })

  it('keeps commas inside strings', () => {
    expect(parseTolerant('{"a": "1,]", "b": "\\",}",}')).toEqual({ a: '1,]', b: '",}' })
  })

  it('validates against the schema and fails retryably', () => {
    expect(parseStructuredReply('{"title": "t", "rating": 5, "findings": [{"summary": "s"}]}', REPORT)).toMatchObject({
      rating: 5,
    })
    for (const bad of [
      '{"title": "t", "findings": []}',
      '{"title": "t", "rating": "high", "findings": []}',
      '{"title": "t", "rating": 1, "findings": [{}]}',
      '{"title": ',
    ]) {
      let error: unknown
      try {
        parseStructuredReply(bad, REPORT)
      } catch (e) {
        error = e
      }
      expect(error, bad).toBeInstanceOf(AttemptFailure)
      expect((error as AttemptFailure).retryable).toBe(true)
    }
  })

  it('json_object needs an object', () => {
    expect(() => parseStructuredReply('[1]', { type: 'json_object' })).toThrow(AttemptFailure)
    expect(parseStructuredReply('{"x": 1}', { type: 'json_object' })).toEqual({ x: 1 })
  })
})
