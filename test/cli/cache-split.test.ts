/** The end-of-run lines that split each workflow's model calls into those made here and those the cache answered. */
import { describe, expect, it } from 'vitest'
import { cacheSplitLines } from '../../src/cli/cache-split.js'
import { emptyUsage } from '../../src/index/run/run-stats.js'
import { usageByWorkflow } from '../../src/index/run/usage-by-model.js'

const usage = (calls: number, cacheHits: number) => ({ ...emptyUsage(), calls, cacheHits })

describe('cacheSplitLines', () => {
  it('gives per workflow the calls made here and those the cache answered, summed over its models', () => {
    const byWorkflow = usageByWorkflow({
      preflight: { chat: usage(1, 0) },
      extract_graph: { chat: usage(30, 24) },
      generate_text_embeddings: { embed: usage(12, 9) },
      create_communities: {},
      create_community_reports: { chat: usage(2, 0), other: usage(3, 1) },
    })
    expect(cacheSplitLines({ usage: usage(48, 34), usageByWorkflow: byWorkflow })).toEqual([
      'Model calls per workflow (from the cache: made by --shard runs or an earlier run):',
      '  extract_graph:            6 made here, 24 from the cache',
      '  generate_text_embeddings: 3 made here, 9 from the cache',
      '  create_community_reports: 4 made here, 1 from the cache',
    ])
  })

  it('says nothing when the cache answered no call', () => {
    const byWorkflow = usageByWorkflow({ extract_graph: { chat: usage(5, 0) } })
    expect(cacheSplitLines({ usage: usage(5, 0), usageByWorkflow: byWorkflow })).toEqual([])
  })
})
