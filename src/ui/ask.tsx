/**
 * Ask: a question box, the search method and its parameters, the answer as it streams, citations
 * that open the cited passage, hybrid search's ranking table, and the conversation so far sent as
 * `history`.
 */
import { useState } from 'preact/hooks'
import { useConversation, type Conversation } from './ask/conversation.js'
import { DEFAULT_PARAMS, MethodPicker, ParamsPanel, type AskParams } from './ask/params.js'
import { resolveCitation } from './ask/resolve.js'
import { TurnView } from './ask/turn.js'
import { SourcePanel, type OpenedSource } from './source.js'

export function AskPage() {
  const conversation = useConversation()
  const [opened, setOpened] = useState<OpenedSource | undefined>()
  return (
    <div class={`ask${opened === undefined ? '' : ' with-source'}`}>
      <section class="conversation">
        {conversation.turns.length === 0 && (
          <p class="hint">
            Ask a question about the indexed documents. Citations in the answer open the passage they cite; later
            questions see the conversation so far.
          </p>
        )}
        {conversation.turns.map((turn, i) => (
          <TurnView key={i} turn={turn} onCite={(citation) => setOpened(resolveCitation(turn, citation))} />
        ))}
        <AskForm
          conversation={conversation}
          onClear={() => {
            conversation.clear()
            setOpened(undefined)
          }}
        />
      </section>
      {opened !== undefined && <SourcePanel source={opened} onClose={() => setOpened(undefined)} />}
    </div>
  )
}

function AskForm({ conversation, onClear }: { conversation: Conversation; onClear: () => void }) {
  const [question, setQuestion] = useState('')
  const [params, setParams] = useState<AskParams>(DEFAULT_PARAMS)
  const set = (change: Partial<AskParams>) => setParams({ ...params, ...change })
  const { busy, turns } = conversation
  const submit = (event: Event) => {
    event.preventDefault()
    const text = question.trim()
    if (text === '' || busy) return
    setQuestion('')
    void conversation.ask(text, params)
  }
  return (
    <form class="ask-form" onSubmit={submit}>
      <textarea
        id="question"
        rows={3}
        placeholder="Ask a question…"
        value={question}
        onInput={(e) => setQuestion(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) submit(e)
        }}
      />
      <div class="row">
        <MethodPicker params={params} set={set} />
        {busy ? (
          <button type="button" onClick={conversation.stop}>
            Stop
          </button>
        ) : (
          <button type="submit" id="ask" disabled={question.trim() === ''}>
            Ask
          </button>
        )}
        <button type="button" class="secondary" disabled={busy || turns.length === 0} onClick={onClear}>
          New conversation
        </button>
      </div>
      <ParamsPanel params={params} set={set} />
    </form>
  )
}
