/**
 * Calls to the graphrag server from the page: same origin, the bearer token (when the server has one)
 * asked for once and kept in sessionStorage for this tab's session, errors as the server's message.
 */

const TOKEN_KEY = 'graphrag-token'

/** Shows the token dialog and resolves once the user has given a token (set by the App). */
type TokenPrompt = (wrong: boolean) => Promise<void>
let promptForToken: TokenPrompt = () => Promise.reject(new ApiError(401, 'this server needs a token'))
let pending: Promise<void> | undefined

export function setTokenPrompt(prompt: TokenPrompt): void {
  promptForToken = prompt
}

const tokenListeners = new Set<() => void>()

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token)
  for (const listener of tokenListeners) listener()
}

/** Calls `listener` whenever a token is given; returns the unsubscribe. */
export function onTokenSaved(listener: () => void): () => void {
  tokenListeners.add(listener)
  return () => tokenListeners.delete(listener)
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY)
}

export function hasToken(): boolean {
  return sessionStorage.getItem(TOKEN_KEY) !== null
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The workspace this page works on: `/w/{name}` when it was opened at /w/{name}/, else '' (the
 * server's default workspace). Every project call goes below it.
 */
export function apiBase(pathname: string = location.pathname): string {
  const match = /^\/w\/([a-z0-9-]+)\//.exec(pathname)
  return match === null ? '' : `/w/${match[1]}`
}

/** fetch of a project route (below the page's workspace) with the token; a 401 asks for the token and tries again. */
export function api(path: string, init: RequestInit = {}): Promise<Response> {
  return authorized(`${apiBase()}${path}`, init)
}

/**
 * A route of the server itself (GET /workspaces), not of a workspace: the token kept, no base, and
 * no token prompt (the page's own calls ask for it); undefined when refused.
 */
export async function serverJson<T>(path: string): Promise<T | undefined> {
  const token = sessionStorage.getItem(TOKEN_KEY)
  const response = await fetch(path, token === null ? {} : { headers: { authorization: `Bearer ${token}` } })
  return response.ok ? ((await response.json()) as T) : undefined
}

/** fetch with the token; a 401 asks for the token (once for all concurrent calls) and tries again. */
async function authorized(path: string, init: RequestInit = {}): Promise<Response> {
  for (;;) {
    const token = sessionStorage.getItem(TOKEN_KEY)
    const headers = new Headers(init.headers)
    if (token !== null) headers.set('authorization', `Bearer ${token}`)
    const response = await fetch(path, { ...init, headers })
    if (response.status !== 401) return response
    if (init.signal?.aborted) return response
    if (pending === undefined) {
      if (token !== null) forgetToken()
      pending = promptForToken(token !== null).finally(() => (pending = undefined))
    }
    await pending
  }
}

/** The JSON of a successful reply; otherwise an ApiError with the server's message. */
export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await api(path, init)
  if (!response.ok) throw await errorOf(response)
  return (await response.json()) as T
}

export function postJson(body: unknown, signal?: AbortSignal): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal }
}

export async function errorOf(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`
  try {
    const body = (await response.json()) as { error?: { message?: string } }
    if (typeof body.error?.message === 'string') message = body.error.message
  } catch {
    // Not our JSON error: the status line says enough.
  }
  return new ApiError(response.status, message)
}
