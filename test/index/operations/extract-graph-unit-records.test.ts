/**
 * Unit records are keyed by UNIT_RECORD_FORMAT, not by the code that asks the model and reads its
 * replies: a change to that code must bump the format, or indexes would keep replaying what the old
 * code read. This pins the files' hash to the format, so such a change fails here until it is bumped.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { UNIT_RECORD_FORMAT } from '../../../src/index/operations/extract-graph/unit-records.js'
import { PROJECT_ROOT } from '../../support/shared.js'

const CONVERSATION_AND_READING = [
  'caps.ts',
  'extract.ts',
  'gleaning.ts',
  'parse.ts',
  'read-reply.ts',
  'reply-text.ts',
  'structured-reply.ts',
  'unit-records.ts',
]

/**
 * When this fails: if the change can alter what a unit's conversation asks or what is read from its
 * replies, bump UNIT_RECORD_FORMAT; either way, set the hash printed (a change that cannot, such as a
 * comment, only needs the hash).
 */
const PINNED = { format: 1, hash: '37d8320ce94ba6ead4c25903d306b0e9931636f865f10c10305786459789a47c' }

describe('unit record format', () => {
  it('is bumped with the code that asks and reads (or the new hash is declared harmless)', () => {
    const hash = createHash('sha256')
    for (const file of CONVERSATION_AND_READING)
      hash
        .update(file)
        .update('\u0000')
        .update(readFileSync(join(PROJECT_ROOT, 'src/index/operations/extract-graph', file)))
    expect({ format: UNIT_RECORD_FORMAT, hash: hash.digest('hex') }).toEqual(PINNED)
  })
})
