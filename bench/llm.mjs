// LLM layer benchmark: ≥ 500 chat calls through N concurrent slots against the fake OpenAI server
// with a fixed latency, through the full stack (usage → retry → rate limit → openai client).
// Prints slot utilisation = busy slot-time / (N × wall), where busy time is what the server spent
// on each request, then how quickly an aborted call settles. Run: npm run bench:llm   Optional: node bench/llm.mjs <calls> <slots> <latencyMs>
import { execSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createChatModel, UsageMeter } from '../dist/llm/index.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const fakePath = join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js')
if (!existsSync(fakePath)) execSync('npx tsc -p tsconfig.support.json', { cwd: root, stdio: 'inherit' })
const { startFakeLlm } = await import(fakePath)

const CALLS = Number(process.argv[2] ?? 600)
const SLOTS = Number(process.argv[3] ?? 16)
// Real completions take seconds; 250 ms keeps the client's own per-call work visible without letting
// a busy CI machine's scheduling noise dominate.
const LATENCY_MS = Number(process.argv[4] ?? 250)

const fake = await startFakeLlm({ latency: { fixedMs: LATENCY_MS } })
const options = {
  id: 'bench',
  settingsPath: 'completion_models.bench',
  provider: 'openai',
  model: 'gpt-4.1-mini',
  apiKey: 'bench-key',
  apiBase: fake.baseUrl,
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
const meter = new UsageMeter(undefined)
const model = createChatModel(options, { meter })

// Warm-up (tokenizers, connections, JIT) with a third of the calls, so the measured run is steady state.
await Promise.all(
  Array.from({ length: Math.ceil(CALLS / 3) }, (_, i) =>
    model.complete({ messages: [{ role: 'user', content: `warm-up ${i}` }] }),
  ),
)
const warmUpCalls = meter.snapshot().calls
const first = fake.requests.length

const started = performance.now()
await Promise.all(
  Array.from({ length: CALLS }, (_, i) =>
    model.complete({ messages: [{ role: 'user', content: `Question ${i}: what happened on Christmas Eve?` }] }),
  ),
)
const wallMs = performance.now() - started
const measured = fake.requests.slice(first)
const busyMs = measured.reduce((sum, r) => sum + (r.endedAt - r.startedAt), 0)
const peak = Math.max(
  ...measured.map((r) => measured.filter((o) => o.startedAt <= r.startedAt && o.endedAt > r.startedAt).length),
)
const utilisation = busyMs / (SLOTS * wallMs)
const ideal = (Math.ceil(CALLS / SLOTS) * LATENCY_MS) / 1000

console.log(`calls ${CALLS}, slots ${SLOTS}, fixed latency ${LATENCY_MS} ms`)
console.log(
  `wall ${(wallMs / 1000).toFixed(2)} s (ideal ${ideal.toFixed(2)} s), throughput ${(CALLS / (wallMs / 1000)).toFixed(1)} calls/s`,
)
console.log(`peak concurrent requests at the server: ${peak} (limit ${SLOTS})`)
console.log(
  `slot utilisation: ${(utilisation * 100).toFixed(1)} %${utilisation >= 0.9 ? '' : '  (below the 90 % target)'}`,
)
console.log(`usage (incl. ${warmUpCalls} warm-up calls): ${JSON.stringify(meter.snapshot())}`)
await fake.close()

// Abort latency (was a wall-clock bound in test/llm/index.test.ts): a call to a server that answers after
// 2 s, aborted after 50 ms, should settle within a few ms of the abort.
const slow = await startFakeLlm({ latency: { fixedMs: 2000 } })
const controller = new AbortController()
const abortable = createChatModel({ ...options, apiBase: slow.baseUrl }, { meter: new UsageMeter(undefined) })
setTimeout(() => controller.abort(), 50)
const abortStarted = performance.now()
await abortable
  .complete({ messages: [{ role: 'user', content: 'slow' }], signal: controller.signal })
  .catch(() => undefined)
const abortMs = performance.now() - abortStarted - 50
console.log(
  `abort: settled ${abortMs.toFixed(1)} ms after the abort (server would answer after 2000 ms)${abortMs < 500 ? '' : '  (slow)'}`,
)
await slow.close()
if (peak > SLOTS) process.exitCode = 1
