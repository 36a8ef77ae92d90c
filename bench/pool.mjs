// Model pool benchmark: the same chat calls through one fake server and through a pool of three
// (one of them four times slower, one stopped a third of the way in), each endpoint allowed SLOTS
// concurrent calls. Prints calls per endpoint and wall time against the single endpoint.
// Run: npm run bench:pool   Optional: node bench/pool.mjs <calls> <slots> <latencyMs>
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createChatModel, createEndpointPool } from '../dist/llm/index.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
if (!existsSync(fakePath)) execSync('npx tsc -p tsconfig.support.json', { cwd: root, stdio: 'inherit' })
const { startFakeLlm } = await import(fakePath)

const CALLS = Number(process.argv[2] ?? 300)
const SLOTS = Number(process.argv[3] ?? 8)
const LATENCY_MS = Number(process.argv[4] ?? 100)

const base = {
  id: 'bench',
  settingsPath: 'completion_models.bench',
  provider: 'hosted_vllm',
  model: 'bench-model',
  apiKey: undefined,
  apiVersion: undefined,
  azureDeploymentName: undefined,
  callArgs: {},
  retry: { type: 'exponential_backoff', maxRetries: 3, baseDelay: 0.01, jitter: false, maxDelay: 0.1 },
  concurrentRequests: SLOTS,
  rateLimit: undefined,
  requestTimeoutSeconds: 30,
  encodingModel: undefined,
  dimensions: undefined,
  pricing: undefined,
  keyOrigin: undefined,
}
const question = (i) => [{ role: 'user', content: `Question ${i}: what happened on Christmas Eve?` }]

async function timed(model, onProgress) {
  const started = performance.now()
  let done = 0
  await Promise.all(
    Array.from({ length: CALLS }, async (_, i) => {
      await model.complete({ messages: question(i) })
      onProgress?.(++done)
    }),
  )
  return (performance.now() - started) / 1000
}

const single = await startFakeLlm({ latency: { fixedMs: LATENCY_MS } })
const singleSeconds = await timed(createChatModel({ ...base, apiBase: single.baseUrl }))
await single.close()

const servers = await Promise.all([
  startFakeLlm({ latency: { fixedMs: LATENCY_MS } }),
  startFakeLlm({ latency: { fixedMs: LATENCY_MS * 4 } }),
  startFakeLlm({ latency: { fixedMs: LATENCY_MS } }),
])
const pooled = {
  ...base,
  apiBase: servers[0].baseUrl,
  pool: servers.map((s) => ({
    apiBase: s.baseUrl,
    apiKey: undefined,
    concurrentRequests: SLOTS,
    requestsPerMinute: undefined,
    tokensPerMinute: undefined,
    weight: 1,
  })),
}
const pool = createEndpointPool(pooled)
let stopping
const poolSeconds = await timed(createChatModel(pooled, { pool }), (done) => {
  if (done === Math.floor(CALLS / 3)) stopping = servers[2].close()
})
await stopping
await Promise.all(servers.slice(0, 2).map((s) => s.close()))

const names = ['fast', 'slow (4x latency)', 'stopped at 1/3']
console.log(`${CALLS} calls, ${SLOTS} slots per endpoint, ${LATENCY_MS} ms latency`)
console.log(`one endpoint:        ${singleSeconds.toFixed(2)} s`)
console.log(`pool of three:       ${poolSeconds.toFixed(2)} s  (${(singleSeconds / poolSeconds).toFixed(2)}x faster)`)
pool.stats().forEach((s, i) => {
  console.log(`  ${names[i].padEnd(18)} calls ${String(s.calls).padStart(4)}  failures ${s.failures}  state ${s.state}`)
})
