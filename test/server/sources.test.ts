/** Citations of an answer as (kind, id) pairs for MCP's get_source. */
import { describe, expect, it } from 'vitest'
import { answerCitations } from '../../src/server/sources.js'

describe('answerCitations', () => {
  it('reads every table of [Data: …] blocks, skipping "+more"', () => {
    const answer =
      'Scrooge [Data: Entities (3, 5); Sources (12, +more)]. Later [Data: Reports (7)] and [Data: Claims (2)].'
    expect(answerCitations(answer)).toEqual([
      { cited: 'Entities (3)', kind: 'entity', id: '3' },
      { cited: 'Entities (5)', kind: 'entity', id: '5' },
      { cited: 'Sources (12)', kind: 'text_unit', id: '12' },
      { cited: 'Reports (7)', kind: 'report', id: '7' },
      { cited: 'Claims (2)', kind: 'claim', id: '2' },
    ])
  })

  it("reads offline answers' (Source n), once each", () => {
    expect(answerCitations('1. "A." (Source 4)\n2. "B." (Source 4)\n3. "C." (Source 9)')).toEqual([
      { cited: 'Source 4', kind: 'text_unit', id: '4' },
      { cited: 'Source 9', kind: 'text_unit', id: '9' },
    ])
  })

  it('maps hybrid labels (ranges too) to the ids of their sources; external passages are not in the index', () => {
    const sources = [
      { label: 'S1', id: 'unit-a', kind: 'text_unit' },
      { label: 'S2', id: 'report-b', kind: 'report' },
      { label: 'S3', id: 'ext-1', kind: 'external' },
    ]
    expect(answerCitations('It is so [S1-S3]. Unknown [S9].', sources)).toEqual([
      { cited: 'S1', kind: 'text_unit', id: 'unit-a' },
      { cited: 'S2', kind: 'report', id: 'report-b' },
    ])
  })
})
