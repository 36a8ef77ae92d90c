/**
 * `--shard auto`: the slice from the variables an array-job platform gives each worker. Every
 * platform counts from 0; `--shard I/N` counts from 1, so index k of the platform is shard k + 1.
 *
 * - Kubernetes Indexed Jobs: JOB_COMPLETION_INDEX. Kubernetes does not export the job's
 *   `completions`, so the count comes from GRAPHRAG_SHARD_COUNT (set it in the pod template).
 * - AWS Batch array jobs: AWS_BATCH_JOB_ARRAY_INDEX and AWS_BATCH_JOB_ARRAY_SIZE.
 * - Google Cloud Run Jobs: CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT.
 * - Anything else (a GitHub Actions matrix has no such variables): GRAPHRAG_SHARD_INDEX (0-based,
 *   like the others) and GRAPHRAG_SHARD_COUNT, passed by the workflow.
 *
 * Several platforms' variables may be present at once (a Cloud Run task that also sets ours); they
 * must then name the same slice, or the run would silently take a slice another worker also takes.
 */
import { ConfigError } from '../../errors.js'
import type { ShardSlice } from '../workflow.js'
import { MAX_SHARDS, parseShard } from './shard.js'

type Env = Readonly<Record<string, string | undefined>>

interface Platform {
  name: string
  index: string
  count: string
}

const COUNT = 'GRAPHRAG_SHARD_COUNT'

const PLATFORMS: readonly Platform[] = [
  { name: 'Kubernetes Indexed Job', index: 'JOB_COMPLETION_INDEX', count: COUNT },
  { name: 'AWS Batch array job', index: 'AWS_BATCH_JOB_ARRAY_INDEX', count: 'AWS_BATCH_JOB_ARRAY_SIZE' },
  { name: 'Google Cloud Run Job', index: 'CLOUD_RUN_TASK_INDEX', count: 'CLOUD_RUN_TASK_COUNT' },
  { name: 'GRAPHRAG_SHARD_INDEX', index: 'GRAPHRAG_SHARD_INDEX', count: COUNT },
]

/** A slice and the variables it was read from (`CLOUD_RUN_TASK_INDEX=0, CLOUD_RUN_TASK_COUNT=3`). */
export interface ResolvedShard {
  slice: ShardSlice
  /** Undefined for an explicit `I/N`. */
  origin: string | undefined
}

/** `--shard I/N`, or `--shard auto` read from the environment. */
export function resolveShard(spec: string, env: Env): ResolvedShard {
  if (spec.trim().toLowerCase() !== 'auto') return { slice: parseShard(spec), origin: undefined }
  return shardFromEnvironment(env)
}

export function shardFromEnvironment(env: Env): ResolvedShard {
  const found = PLATFORMS.filter((p) => present(env, p.index)).map((p) => readPlatform(env, p))
  if (found.length === 0)
    throw new ConfigError(
      `--shard auto: no array-job variables found: expected ${PLATFORMS.filter((p) => p.index !== p.name)
        .map((p) => `${p.index} (${p.name})`)
        .join(
          ', ',
        )}, or GRAPHRAG_SHARD_INDEX with ${COUNT} (0-based, e.g. from a CI matrix); or give the slice as --shard I/N`,
    )
  const [first, ...others] = found
  const other = others.find((o) => o.index !== first!.index || o.count !== first!.count)
  if (other !== undefined)
    throw new ConfigError(
      `--shard auto: the variables disagree: ${first!.origin} but ${other.origin}; unset the ones that do not belong to this job`,
    )
  return { slice: parseShard(`${first!.index + 1}/${first!.count}`), origin: first!.origin }
}

function present(env: Env, name: string): boolean {
  return (env[name] ?? '').trim() !== ''
}

function readPlatform(env: Env, p: Platform): { index: number; count: number; origin: string } {
  if (!present(env, p.count)) {
    const why = p.count === COUNT && p.index !== p.name ? ` (${p.name}s do not pass their count to the workers)` : ''
    throw new ConfigError(
      `--shard auto: ${p.index} is set but ${p.count} is not${why}; set ${p.count} to the number of shards`,
    )
  }
  const index = wholeNumber(env, p.index, 0)
  const count = wholeNumber(env, p.count, 1)
  if (count > MAX_SHARDS)
    throw new ConfigError(`--shard auto: ${p.count}=${count} is above the ${MAX_SHARDS} shards a run may have`)
  if (index >= count)
    throw new ConfigError(
      `--shard auto: ${p.index}=${index} is not below ${p.count}=${count} (the index counts from 0, so it runs from 0 to ${count - 1})`,
    )
  return { index, count, origin: `${p.index}=${index}, ${p.count}=${count}` }
}

function wholeNumber(env: Env, name: string, min: number): number {
  const text = env[name]!.trim()
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min)
    throw new ConfigError(`--shard auto: ${name} must be a whole number ≥ ${min}, got "${env[name]}"`)
  return value
}
