/** `npm run fake-llm`: runs the fake OpenAI server until interrupted and prints its base URL. */
import { parseArgs } from 'node:util'
import { startFakeLlm } from './index.js'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    replay: { type: 'boolean', default: false },
    'latency-ms': { type: 'string' },
  },
})

const fake = await startFakeLlm({
  replay: values.replay === true ? 'christmas-carol' : false,
  latency: { fixedMs: Number(values['latency-ms'] ?? 0) },
  port: Number(values.port ?? 0),
})
console.log(fake.baseUrl)
process.on('SIGINT', () => void fake.close().then(() => process.exit(0)))
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)))
