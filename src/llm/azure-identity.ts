/**
 * Entra ID bearer tokens for Azure OpenAI (`auth_method: azure_managed_identity`) from the standard
 * Azure credential chain (environment, workload identity, managed identity, Azure CLI, …).
 * getBearerTokenProvider caches the token and fetches a new one shortly before it expires.
 */
import { AttemptFailure } from './failure.js'

const SCOPE = 'https://cognitiveservices.azure.com/.default'

export function azureTokenProvider(): () => Promise<string> {
  // @azure/identity is large: loaded only by runs that use it.
  let provider: Promise<() => Promise<string>> | undefined
  return async () => {
    provider ??= import('@azure/identity').then(({ DefaultAzureCredential, getBearerTokenProvider }) =>
      getBearerTokenProvider(new DefaultAzureCredential(), SCOPE),
    )
    try {
      return await (await provider)()
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
      throw new AttemptFailure(`no Azure token from the credential chain (${reason})`, {
        kind: 'connection',
        retryable: true,
      })
    }
  }
}
