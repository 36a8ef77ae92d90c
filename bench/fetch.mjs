// Client CPU per chat request through the openai SDK: Node's global fetch (undici) against httpFetch
// (node:http with keep-alive, src/llm/http-fetch.ts). The fake model server runs in this process; each
// client runs in a child of its own, alternating, so its CPU is the client's alone.
// `node bench/fetch.mjs [requests=3000] [rounds=2]` after `npm run build`.
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CONCURRENCY = 25
const PROMPT = 'The clerk kept the fire low in the counting-house. '.repeat(200) // ~10 kB

async function client(mode, baseURL, requests) {
  const { default: OpenAI } = await import('openai')
  const { httpFetch } = await import(join(root, 'dist', 'llm', 'http-fetch.js'))
  const sdk = new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0, ...(mode === 'node' ? { fetch: httpFetch } : {}) })
  const one = (i) =>
    sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `${i} ${PROMPT}` }] })
  const batch = async (from, count) => {
    for (let i = from; i < from + count; i += CONCURRENCY) {
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, from + count - i) }, (_, k) => one(i + k)))
    }
  }
  await batch(0, 200) // warm-up: JIT, sockets
  const start = process.cpuUsage()
  await batch(200, requests)
  const used = process.cpuUsage(start)
  process.stdout.write(JSON.stringify({ ms: (used.user + used.system) / 1000 / requests }))
}

async function main() {
  const [requests = 3000, rounds = 2] = process.argv.slice(2).map(Number)
  spawnSync('npx', ['tsc', '-p', 'tsconfig.support.json'], { cwd: root, stdio: 'inherit' })
  const { startFakeLlm } = await import(join(root, 'dist-test', 'test', 'support', 'fake-llm', 'index.js'))
  const fake = await startFakeLlm()
  const { spawn } = await import('node:child_process')
  const run = (mode) =>
    new Promise((done) => {
      const child = spawn(process.execPath, [
        fileURLToPath(import.meta.url),
        '--child',
        mode,
        fake.baseUrl,
        String(requests),
      ])
      let out = ''
      child.stdout.on('data', (d) => {
        out += d
      })
      child.on('close', () => done(JSON.parse(out).ms))
    })
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of ['undici', 'node']) {
      const ms = await run(mode)
      console.log(`${mode.padEnd(6)} ${ms.toFixed(3)} ms CPU per request (load average ${loadavg()[0].toFixed(1)})`)
    }
  }
  await fake.close()
}

if (process.argv[2] === '--child') await client(process.argv[3], process.argv[4], Number(process.argv[5]))
else await main()
