// Only "absent" (ENOENT) reads as absent: every other file system failure surfaces as a StorageError.
// The failures used here (a regular file where a folder is expected: ENOTDIR; a folder where a file is
// expected: EISDIR) happen as root too, unlike a permission error.
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LlmError, QueryError, StorageError } from '../../src/errors.js'
import { listInputFiles } from '../../src/index/input/files.js'
import { readResumeState } from '../../src/index/run/resume.js'
import { clearStaging } from '../../src/index/run/staged-table-store.js'
import { COVARIATES } from '../../src/model/index.js'
import { isModelFailure } from '../../src/query/search/model-failure.js'
import { exists, readdirOrEmpty } from '../../src/storage/fs-errors.js'
import { FileKeyValueStore } from '../../src/storage/key-value-store.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

/** A project folder with a regular file at `file`, so `file/...` fails with ENOTDIR. */
async function fileAt(): Promise<string> {
  const root = await testdir({ 'not-a-folder': 'x' })
  return join(root, 'not-a-folder')
}

describe('file system errors other than "absent"', () => {
  it('KeyValueStore: an absent folder is empty, an unreadable one is a StorageError, not a cache miss', async () => {
    const root = await testdir({})
    const absent = new FileKeyValueStore(join(root, 'cache'))
    expect(await absent.get('k')).toBeUndefined()
    expect(await absent.keys()).toEqual([])
    const broken = new FileKeyValueStore(await fileAt())
    await expect(broken.get('k')).rejects.toThrow(StorageError)
    await expect(broken.get('k')).rejects.toThrow(/cannot read cache entry .*not-a-folder\/k: ENOTDIR/)
    await expect(broken.keys()).rejects.toThrow(StorageError)
    await mkdir(join(root, 'cache', 'k'), { recursive: true })
    await expect(absent.get('k')).rejects.toThrow(/EISDIR/)
  })

  it('TableStore: has, names and fingerprint report an unreadable folder; read says why it failed', async () => {
    const root = await testdir({})
    const absent = new ParquetTableStore(join(root, 'output'))
    expect(await absent.has('covariates')).toBe(false)
    expect(await absent.names()).toEqual([])
    expect(await absent.fingerprint('covariates')).toBeUndefined()
    await expect(absent.read(COVARIATES)).rejects.toThrow(/table covariates not found/)
    const broken = new ParquetTableStore(await fileAt())
    await expect(broken.has('covariates')).rejects.toThrow(StorageError)
    await expect(broken.names()).rejects.toThrow(StorageError)
    await expect(broken.fingerprint('covariates')).rejects.toThrow(StorageError)
    await mkdir(join(root, 'output', 'covariates.parquet'), { recursive: true })
    await expect(absent.read(COVARIATES)).rejects.toThrow(
      /cannot read table covariates from .*covariates\.parquet: EISDIR/,
    )
    // A folder named like a table is not listed, as `has` does not count it.
    expect([await absent.has('covariates'), await absent.names()]).toEqual([false, []])
  })

  it('an unreadable input folder is an error, not an empty input', async () => {
    const root = await testdir({})
    expect(await listInputFiles(join(root, 'input'), /.*/)).toEqual([])
    await expect(listInputFiles(await fileAt(), /.*/)).rejects.toThrow(/cannot read input folder .*: ENOTDIR/)
  })

  it('resume state and staging: absent is "nothing there", unreadable is an error', async () => {
    const root = await testdir({ 'output/not-json/.keep': '' })
    expect((await readResumeState(join(root, 'output'))).completed).toEqual([])
    await clearStaging(join(root, 'output', '.staging'))
    await mkdir(join(root, 'output', '.graphrag-resume.json'))
    await expect(readResumeState(join(root, 'output'))).rejects.toThrow(StorageError)
    await expect(clearStaging(await fileAt())).rejects.toThrow(StorageError)
  })
})

describe('search steps skip only model failures', () => {
  it('exists and readdirOrEmpty: absent is false / empty, unreadable is a StorageError naming the path', async () => {
    const file = await fileAt()
    expect(await exists(join(file, '..', 'none'))).toBe(false)
    expect(await exists(file)).toBe(true)
    await expect(exists(join(file, 'inside'))).rejects.toThrow(/cannot read .*not-a-folder\/inside: ENOTDIR/)
    expect(await readdirOrEmpty(join(file, '..', 'none'))).toEqual([])
    await expect(readdirOrEmpty(file)).rejects.toThrow(/cannot list .*not-a-folder: ENOTDIR/)
  })

  it('counts LlmError and QueryError as failed calls, and nothing else', () => {
    expect(
      isModelFailure(new LlmError('m: 500 (1 attempt)', { model: 'm', attempts: 1, status: 500, retryable: true })),
    ).toBe(true)
    expect(isModelFailure(new QueryError('the reply has no "response" text'))).toBe(true)
    expect(isModelFailure(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false)
    expect(isModelFailure(new StorageError('cannot read vectors'))).toBe(false)
    expect(isModelFailure(new DOMException('aborted', 'AbortError'))).toBe(false)
  })
})
