/**
 * A standard index over a pool of three local servers, one stopped mid-run and one slow, writes the
 * same tables as a single-endpoint run, and stats.json shows the calls, failures and state of each.
 * Two full indexes: behind GRAPHRAG_SLOW_TESTS=1.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { COMMUNITY_REPORTS, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { type FakeLlm, fakeModelSettingsYaml, startFakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const VECTOR_SIZE = 32
const DOC = `The harbour master of Tidewick, Ellen Marsh, met the ferry captain Tomas Reyes at dawn.
Reyes reported that the Northern Light ferry had lost a drive gear near Gull Rock.
Marsh asked the salvage company Brightwater Marine to tow the ferry to the Tidewick dry dock.
Brightwater Marine sent its tug Osprey under captain Ada Finch, who towed the Northern Light home.
Finch later testified before the Tidewick Salvage Court about the Osprey and the Northern Light.
`

describe.skipIf(process.env.GRAPHRAG_SLOW_TESTS !== '1')('model pool end to end', () => {
  const servers: FakeLlm[] = []
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close().catch(() => {})))
  })

  it('one server stopped mid-run and one slow: the run completes with the tables of a single-endpoint run', async () => {
    const [single, fast, slow, stopped] = await Promise.all([
      startFakeLlm({ embeddingDimension: VECTOR_SIZE }),
      startFakeLlm({ embeddingDimension: VECTOR_SIZE, latency: { fixedMs: 20 } }),
      startFakeLlm({ embeddingDimension: VECTOR_SIZE, latency: { fixedMs: 600 } }),
      startFakeLlm({ embeddingDimension: VECTOR_SIZE, latency: { fixedMs: 100 } }),
    ])
    servers.push(single!, fast!, slow!, stopped!)
    // Small chunks: enough calls that each server gets its share before the third one stops.
    const extra = `vector_store:\n  vector_size: ${VECTOR_SIZE}\nconcurrent_requests: 1\nchunking:\n  size: 60\n  overlap: 0\n`
    const one = await testdir({ 'settings.yaml': fakeModelSettingsYaml(single!.baseUrl) + extra, 'input/doc.txt': DOC })
    const pooledYaml = fakeModelSettingsYaml(fast!.baseUrl).replaceAll(
      `    api_base: ${fast!.baseUrl}`,
      `    api_base:\n${[fast!, stopped!, slow!].map((s) => `      - ${s.baseUrl}`).join('\n')}`,
    )
    const pooled = await testdir({ 'settings.yaml': pooledYaml + extra, 'input/doc.txt': DOC })

    const alone = await runCli(['index', '--root', one])
    expect(alone.code, alone.stderr).toBe(0)
    let finished = false
    const run = runCli(['index', '--root', pooled]).finally(() => {
      finished = true
    })
    while (!finished && stopped!.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(finished, 'the third server got calls before the run ended').toBe(false)
    await stopped!.close()
    const result = await run
    expect(result.code, result.stderr).toBe(0)

    for (const table of [TEXT_UNITS, ENTITIES, RELATIONSHIPS, COMMUNITY_REPORTS]) {
      const a = await new ParquetTableStore(join(one, 'output')).read(table)
      const b = await new ParquetTableStore(join(pooled, 'output')).read(table)
      expect(b, table.name).toEqual(a)
    }
    const stats = JSON.parse(await readFile(join(pooled, 'output', 'stats.json'), 'utf8')) as {
      endpoints: Record<string, Array<{ endpoint: string; state: string; calls: number; failures: number }>>
    }
    expect(Object.keys(stats.endpoints).sort()).toEqual([
      'completion_models.default_completion_model',
      'embedding_models.default_embedding_model',
    ])
    const all = Object.values(stats.endpoints).flat()
    const of = (url: string) => all.filter((e) => e.endpoint === url)
    const sum = (url: string, key: 'calls' | 'failures') => of(url).reduce((n, e) => n + e[key], 0)
    // The stopped server failed calls (those in flight and any tried later), which were answered elsewhere.
    expect(sum(stopped!.baseUrl, 'failures')).toBeGreaterThan(0)
    expect(of(stopped!.baseUrl).some((e) => e.state !== 'up')).toBe(true)
    expect(sum(fast!.baseUrl, 'failures') + sum(slow!.baseUrl, 'failures')).toBe(0)
    expect(sum(fast!.baseUrl, 'calls')).toBeGreaterThan(sum(slow!.baseUrl, 'calls'))
  }, 600_000)
})
