/** `--shard auto`: each array-job platform's variables → the 1-based slice, and the errors a user can meet. */
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../src/errors.js'
import { resolveShard, shardFromEnvironment } from '../../../src/index/run/shard-platforms.js'

const slice = (env: Record<string, string>) => {
  const { slice: s, origin } = shardFromEnvironment(env)
  return { index: s.index, count: s.count, origin }
}

const failure = (env: Record<string, string>) => {
  try {
    shardFromEnvironment(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error(`no error for ${JSON.stringify(env)}`)
}

describe('--shard auto', () => {
  it.each([
    ['Kubernetes Indexed Job', { JOB_COMPLETION_INDEX: '2', GRAPHRAG_SHARD_COUNT: '5' }, 3, 5],
    ['AWS Batch array job', { AWS_BATCH_JOB_ARRAY_INDEX: '0', AWS_BATCH_JOB_ARRAY_SIZE: '4' }, 1, 4],
    ['Google Cloud Run Job', { CLOUD_RUN_TASK_INDEX: '2', CLOUD_RUN_TASK_COUNT: '3' }, 3, 3],
    ['a CI matrix (our own variables)', { GRAPHRAG_SHARD_INDEX: '1', GRAPHRAG_SHARD_COUNT: '2' }, 2, 2],
  ])('%s: the 0-based index is shard index + 1 of the count', (_platform, env, index, count) => {
    const found = slice(env)
    expect([found.index, found.count]).toEqual([index, count])
    // The origin names every variable read, with its value.
    for (const [name, value] of Object.entries(env)) expect(found.origin).toContain(`${name}=${value}`)
  })

  it('slices the items as --shard I/N does', () => {
    const items = Array.from({ length: 7 }, (_, i) => i)
    const auto = resolveShard('auto', { CLOUD_RUN_TASK_INDEX: '1', CLOUD_RUN_TASK_COUNT: '3' }).slice
    expect(auto.select(items)).toEqual(resolveShard('2/3', {}).slice.select(items))
    expect(resolveShard(' AUTO ', { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '1' }).slice.count).toBe(1)
    expect(resolveShard('2/3', { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '3' }).origin).toBeUndefined()
  })

  it('accepts several platforms that agree, and refuses ones that disagree, naming both', () => {
    const agree = {
      CLOUD_RUN_TASK_INDEX: '1',
      CLOUD_RUN_TASK_COUNT: '3',
      GRAPHRAG_SHARD_INDEX: '1',
      GRAPHRAG_SHARD_COUNT: '3',
    }
    expect(slice(agree)).toMatchObject({ index: 2, count: 3 })
    const message = failure({ ...agree, JOB_COMPLETION_INDEX: '0' })
    expect(message).toContain('the variables disagree')
    expect(message).toContain('JOB_COMPLETION_INDEX=0')
    expect(message).toContain('CLOUD_RUN_TASK_INDEX=1')
    expect(
      failure({
        AWS_BATCH_JOB_ARRAY_INDEX: '1',
        AWS_BATCH_JOB_ARRAY_SIZE: '4',
        CLOUD_RUN_TASK_INDEX: '1',
        CLOUD_RUN_TASK_COUNT: '3',
      }),
    ).toContain('the variables disagree')
  })

  it('says what to set when no platform variable is there', () => {
    const message = failure({ HOSTNAME: 'runner-1', GRAPHRAG_SHARD_COUNT: '3' })
    for (const name of [
      'JOB_COMPLETION_INDEX',
      'AWS_BATCH_JOB_ARRAY_INDEX',
      'CLOUD_RUN_TASK_INDEX',
      'GRAPHRAG_SHARD_INDEX',
    ])
      expect(message).toContain(name)
    expect(message).toContain('--shard I/N')
    expect(failure({ CLOUD_RUN_TASK_INDEX: '  ' })).toContain('no array-job variables found')
  })

  it('asks for GRAPHRAG_SHARD_COUNT on Kubernetes, which does not pass the completions', () => {
    expect(failure({ JOB_COMPLETION_INDEX: '0' })).toBe(
      '--shard auto: JOB_COMPLETION_INDEX is set but GRAPHRAG_SHARD_COUNT is not (Kubernetes Indexed Jobs do not pass their count to the workers); set GRAPHRAG_SHARD_COUNT to the number of shards',
    )
    expect(failure({ AWS_BATCH_JOB_ARRAY_INDEX: '0' })).toContain('AWS_BATCH_JOB_ARRAY_SIZE is not')
  })

  it('refuses an index not below the count, and values that are not whole numbers', () => {
    expect(failure({ CLOUD_RUN_TASK_INDEX: '3', CLOUD_RUN_TASK_COUNT: '3' })).toBe(
      '--shard auto: CLOUD_RUN_TASK_INDEX=3 is not below CLOUD_RUN_TASK_COUNT=3 (the index counts from 0, so it runs from 0 to 2)',
    )
    expect(failure({ GRAPHRAG_SHARD_INDEX: '1', GRAPHRAG_SHARD_COUNT: '0' })).toContain(
      'GRAPHRAG_SHARD_COUNT must be a whole number ≥ 1, got "0"',
    )
    expect(failure({ GRAPHRAG_SHARD_INDEX: '-1', GRAPHRAG_SHARD_COUNT: '2' })).toContain('GRAPHRAG_SHARD_INDEX must be')
    expect(failure({ CLOUD_RUN_TASK_INDEX: '1.5', CLOUD_RUN_TASK_COUNT: '3' })).toContain('got "1.5"')
    expect(failure({ CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '5000' })).toContain('above the 1000 shards')
  })
})
