// The synchronous ingest's progress list (POST /ingest?progress=true) is bounded, and the design's
// stage names come from our events: awaitIngest over a real IndexJob fed the runner's events, and
// the stage shaper over the events the runner sends.
import { describe, expect, it } from 'vitest'
import { IndexJob } from '../../src/server/index-jobs.js'
import { awaitIngest, PROGRESS_LIMIT } from '../../src/server/ingest-wait.js'
import { seedStages } from '../../src/server/seed-stages.js'

const tick = () => new Promise((resolve) => setImmediate(resolve))

async function ingestWith(events: number, limit?: number) {
  const job = new IndexJob('index', undefined)
  const answer = awaitIngest(job, true, new AbortController().signal, limit)
  await tick()
  for (let i = 0; i < events; i++) job.progress({ stage: 'warning', detail: `w${i}`, current: 0, total: 0 })
  job.end(undefined)
  return (await answer).body as { progress: Array<{ detail: string }>; [key: string]: unknown }
}

describe('the synchronous ingest progress list', () => {
  it('keeps the first and the latest events up to the limit and says how many it left out', async () => {
    const body = await ingestWith(50, 10)
    expect(body.progress.map((e) => e.detail)).toEqual([
      'w0',
      'w1',
      'w2',
      'w3',
      'w4',
      'w45',
      'w46',
      'w47',
      'w48',
      'w49',
    ])
    expect(body).toMatchObject({ progress_truncated: true, progress_omitted: 40, progress_events: 50 })
  })

  it('keeps every event under the limit, without the truncation fields', async () => {
    const body = await ingestWith(12, 12)
    expect(body.progress).toHaveLength(12)
    expect('progress_truncated' in body).toBe(false)
    expect(PROGRESS_LIMIT).toBe(200)
    const long = await ingestWith(PROGRESS_LIMIT + 1)
    expect(long.progress).toHaveLength(PROGRESS_LIMIT)
    expect(long.progress_omitted).toBe(1)
  })
})

describe('seed stages from our events', () => {
  const embedding = (detail: string, current: number) => ({
    stage: 'generate_text_embeddings',
    detail,
    current,
    total: 10,
  })

  it('an embedding_batch for each group of texts embedded, schema_index when the vector tables are written', () => {
    const shape = seedStages()
    const events = [
      embedding('started', 0),
      embedding('embeddings text_unit_text', 0),
      embedding('embeddings text_unit_text', 4),
      embedding('embeddings text_unit_text', 10),
      embedding('embeddings text_unit_text', 10),
      embedding('finished in 0.2 s', 1),
    ].flatMap(shape)
    expect(events.map((e) => `${e.stage}:${e.current}`)).toEqual([
      'embedding:0',
      'embedding_progress:0',
      'embedding_batch:4',
      'embedding_progress:4',
      'embedding_batch:10',
      'embedding_progress:10',
      'embedding_progress:10',
      'schema_index:1',
    ])
  })

  it("a relations-only job's chunk-graph events are the design's relation_incremental stages with the patch figures", () => {
    const shape = seedStages({ old: 5, new: 3, window: 2, pairs: 3 })
    const graph = (detail: string, current: number) => shape({ stage: 'create_chunk_graph', detail, current, total: 3 })
    expect(graph('started', 0)[0]).toMatchObject({ stage: 'relation_incremental_start', old: 5, new: 3, pairs: 3 })
    expect(graph('chunk graph batches', 2)[0]).toMatchObject({
      stage: 'relation_incremental_progress',
      processed: 2,
      total: 3,
    })
    expect(seedStages()({ stage: 'create_chunk_graph', detail: 'started', current: 0, total: 1 })[0]!.stage).toBe(
      'relation_start',
    )
  })
})
