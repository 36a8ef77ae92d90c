import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chainFingerprint, resumablePrefix, stableJson, type ResumeState } from '../../src/index/resume.js'
import { StagedTableStore } from '../../src/index/staged-table-store.js'
import { COVARIATES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

const planned = [
  { workflow: 'a', fingerprint: 'fa' },
  { workflow: 'b', fingerprint: 'fb' },
  { workflow: 'c', fingerprint: 'fc' },
]
const state: ResumeState = {
  version: 1,
  completed: [
    { workflow: 'a', fingerprint: 'fa', tables: { documents: 'h1' } },
    { workflow: 'b', fingerprint: 'fb', tables: { documents: 'h1', text_units: 'h2' } },
  ],
}

describe('resumablePrefix', () => {
  it('skips the finished prefix when the tables on disk are as recorded', () => {
    expect(resumablePrefix(planned, state, { documents: 'h1', text_units: 'h2' })).toBe(2)
  })

  it('falls back to an earlier point when a later table changed or is missing', () => {
    expect(resumablePrefix(planned, state, { documents: 'h1' })).toBe(1)
    expect(resumablePrefix(planned, state, { documents: 'h1', text_units: 'h2', entities: 'later' })).toBe(2)
    expect(resumablePrefix(planned, state, { documents: 'changed' })).toBe(0)
  })

  it('stops at the first workflow whose fingerprint changed', () => {
    const changed = [planned[0]!, { workflow: 'b', fingerprint: 'other' }, planned[2]!]
    expect(resumablePrefix(changed, state, { documents: 'h1', text_units: 'h2' })).toBe(1)
  })

  it('chains fingerprints so an upstream change changes every later one', () => {
    const a1 = chainFingerprint('v', 'a', { x: 1 })
    const a2 = chainFingerprint('v', 'a', { x: 2 })
    expect(chainFingerprint(a1, 'b', {})).not.toBe(chainFingerprint(a2, 'b', {}))
    expect(stableJson({ b: 1, a: { d: 1, c: 2 } })).toBe(stableJson({ a: { c: 2, d: 1 }, b: 1 }))
  })
})

describe('StagedTableStore', () => {
  it('keeps writes out of the index until commit, and discards them on failure', async () => {
    const dir = await testdir({})
    const target = new ParquetTableStore(join(dir, 'output'))
    const staged = new StagedTableStore(target, join(dir, 'output', '.staging', 'w'))
    await staged.write(COVARIATES, [])
    expect(await target.has('covariates')).toBe(false)
    expect(await staged.read(COVARIATES)).toEqual([])
    await staged.discard()
    expect(await target.has('covariates')).toBe(false)
    await staged.write(COVARIATES, [])
    await staged.commit()
    expect(await target.has('covariates')).toBe(true)
    expect(existsSync(join(dir, 'output', '.staging', 'w'))).toBe(false)
    expect(await readdir(join(dir, 'output'))).toContain('covariates.parquet')
  })
})
