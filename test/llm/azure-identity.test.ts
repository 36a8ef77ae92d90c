/**
 * `auth_method: azure_managed_identity`: tokens come from @azure/identity's credential chain, here
 * an App Service style managed-identity endpoint (IDENTITY_ENDPOINT + IDENTITY_HEADER) on 127.0.0.1,
 * reach the fake Azure OpenAI server as a bearer header, and are refreshed once they expire.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel, createEmbeddingModel } from '../../src/llm/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions, HELLO } from './helpers.js'
import { snapshotEnv } from '../support/env-snapshot.js'

const TOKEN_LIFETIME_S = 2

interface TokenRequest {
  url: string
  identityHeader: string | undefined
}

describe('Azure OpenAI with managed identity', () => {
  let fake: FakeLlm
  let identity: Server
  const issued: TokenRequest[] = []
  const restoreEnv = snapshotEnv()

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4 })
    identity = createServer((req, res) => {
      issued.push({ url: req.url ?? '', identityHeader: req.headers['x-identity-header'] as string | undefined })
      const body = JSON.stringify({
        access_token: `mi-token-${issued.length}`,
        expires_on: String(Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_S),
        resource: 'https://cognitiveservices.azure.com',
        token_type: 'Bearer',
      })
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(body)
    })
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve))
    for (const key of Object.keys(process.env)) if (key.startsWith('AZURE_')) delete process.env[key]
    process.env.IDENTITY_ENDPOINT = `http://127.0.0.1:${(identity.address() as AddressInfo).port}/msi/token`
    process.env.IDENTITY_HEADER = 'identity-header-secret'
  })

  afterAll(async () => {
    restoreEnv()
    identity.closeAllConnections()
    await new Promise<void>((resolve) => identity.close(() => resolve()))
    await fake.close()
  })

  it('sends a bearer token from the identity endpoint, and a new one after it expired', async () => {
    const options = fakeOptions(fake, {
      provider: 'azure',
      model: 'gpt-4.1',
      apiBase: fake.baseUrl.replace(/\/v1$/, ''),
      apiKey: undefined,
      apiVersion: '2024-10-21',
      azureDeploymentName: 'chat-deploy',
      authMethod: 'azure_managed_identity',
    })
    const model = createChatModel(options)
    await model.complete({ messages: HELLO })
    const first = fake.requests[0]!
    expect(first.path).toBe('/openai/deployments/chat-deploy/chat/completions')
    expect(first.headers.authorization).toMatch(/^Bearer mi-token-\d+$/)
    expect(first.headers['api-key']).toBeUndefined()
    expect(issued[0]!.identityHeader).toBe('identity-header-secret')
    expect(issued[0]!.url).toContain('resource=https%3A%2F%2Fcognitiveservices.azure.com')

    await new Promise((resolve) => setTimeout(resolve, (TOKEN_LIFETIME_S + 1) * 1000))
    await model.complete({ messages: HELLO, noCache: true })
    await createEmbeddingModel({ ...options, azureDeploymentName: 'embed-deploy' }).embed(['x'])
    const later = fake.requests.slice(1).map((r) => r.headers.authorization)
    expect(issued.length).toBeGreaterThanOrEqual(2)
    expect(later.every((h) => typeof h === 'string' && /^Bearer mi-token-\d+$/.test(h))).toBe(true)
    expect(later.at(-1)).not.toBe(first.headers.authorization)
  }, 30_000)
})
