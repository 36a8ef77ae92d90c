/** The web UI's frame: the four pages as tabs (the URL's #hash), and the token dialog when the server asks for one. */
import { useEffect, useState } from 'preact/hooks'
import { forgetToken, hasToken, saveToken, setTokenPrompt } from './api.js'
import { AskPage } from './ask.js'
import { DocumentsPage } from './documents.js'
import { GraphPage } from './graph.js'
import { StatusPage } from './status.js'
import { WorkspaceSwitcher } from './workspace-switcher.js'

const PAGES = { ask: 'Ask', graph: 'Graph', documents: 'Documents', status: 'Status' } as const
type Page = keyof typeof PAGES

const pageOf = (hash: string): Page => {
  const name = hash.replace(/^#/, '')
  return name in PAGES ? (name as Page) : 'ask'
}

interface TokenRequest {
  wrong: boolean
  done: () => void
}

export function App() {
  const [page, setPage] = useState<Page>(pageOf(location.hash))
  // Ask and Documents stay mounted once opened, so the conversation and a running job's progress survive
  // a look at another tab; Graph and Status are built afresh on each visit (fresh data, no hidden WebGL).
  const [kept, setKept] = useState<ReadonlySet<Page>>(new Set())
  useEffect(() => {
    if ((page === 'ask' || page === 'documents') && !kept.has(page)) setKept(new Set([...kept, page]))
  }, [page])
  const [tokenRequest, setTokenRequest] = useState<TokenRequest | undefined>()
  useEffect(() => {
    const onHash = () => setPage(pageOf(location.hash))
    window.addEventListener('hashchange', onHash)
    setTokenPrompt((wrong) => new Promise<void>((done) => setTokenRequest({ wrong, done })))
    return () => window.removeEventListener('hashchange', onHash)
  }, [])
  return (
    <>
      <header class="top">
        <span class="brand">graphrag</span>
        <nav>
          {(Object.keys(PAGES) as Page[]).map((p) => (
            <a href={`#${p}`} key={p} id={`tab-${p}`} class={p === page ? 'active' : ''}>
              {PAGES[p]}
            </a>
          ))}
        </nav>
        <WorkspaceSwitcher />
        {hasToken() && (
          <button
            type="button"
            class="secondary small"
            title="Forget the token kept for this tab"
            onClick={() => {
              forgetToken()
              location.reload()
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <main class={`page page-${page}`} data-page={page}>
        {(page === 'ask' || kept.has('ask')) && (
          <div class="page-slot" hidden={page !== 'ask'}>
            <AskPage />
          </div>
        )}
        {page === 'graph' && <GraphPage />}
        {(page === 'documents' || kept.has('documents')) && (
          <div class="page-slot" hidden={page !== 'documents'}>
            <DocumentsPage />
          </div>
        )}
        {page === 'status' && <StatusPage />}
      </main>
      {tokenRequest !== undefined && (
        <TokenDialog
          request={tokenRequest}
          onSubmit={(token) => {
            saveToken(token)
            setTokenRequest(undefined)
            tokenRequest.done()
          }}
        />
      )}
    </>
  )
}

function TokenDialog({ request, onSubmit }: { request: TokenRequest; onSubmit: (token: string) => void }) {
  const [token, setToken] = useState('')
  return (
    <div class="modal">
      <form
        class="card"
        id="token-form"
        onSubmit={(e) => {
          e.preventDefault()
          if (token.trim() !== '') onSubmit(token.trim())
        }}
      >
        <h3>This server needs a token</h3>
        <p class="meta">
          {request.wrong ? 'That token was not accepted. ' : ''}Enter the server's token (GRAPHRAG_SERVER_TOKEN). It is
          kept for this browser tab only.
        </p>
        <input
          type="password"
          id="token"
          autocomplete="current-password"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <button type="submit">Continue</button>
      </form>
    </div>
  )
}
