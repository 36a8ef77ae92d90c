/**
 * The Ask page's parameters: the search method and what POST /query takes beside the question
 * (community level, response type, global's dynamic selection, lazy's budget), and how many earlier
 * turns of the conversation are sent as history. A collapsible panel; the method stays in view.
 */

const METHODS = [
  ['local', 'Local: entities, relationships and their passages'],
  ['global', 'Global: community reports, for questions about the whole corpus'],
  ['drift', 'DRIFT: local search widened with community follow-ups'],
  ['basic', 'Basic: plain vector search over the text'],
  ['graph', 'Graph: vector-matched passages, then a walk over the chunk graph to the passages they link to'],
  ['hybrid', 'Hybrid: vector + keyword + graph ranking, cited passages'],
  ['lazy', 'Lazy: relevance tests down the communities under a budget (works on an offline index)'],
] as const
export type Method = (typeof METHODS)[number][0]

export interface AskParams {
  method: Method
  communityLevel: number
  responseType: string
  dynamicCommunitySelection: boolean
  /** Lazy search: text units tested for relevance; undefined = lazy_search.relevance_budget. */
  budget: number | undefined
  /** Earlier question-and-answer pairs sent as history (0 = none). */
  historyTurns: number
  /** The method's top-k (entities or text units) and context token budget; undefined = settings.yaml's. */
  topK: number | undefined
  maxContextTokens: number | undefined
  /** Local, basic, graph: the model's answer, or the context (or whole prompt) it would be given. */
  show: 'answer' | 'context' | 'prompt'
}

/** The methods whose settings POST /query's top_k and max_context_tokens set. */
const TOP_K: ReadonlySet<string> = new Set(['local', 'basic', 'drift'])
const CONTEXT_TOKENS: ReadonlySet<string> = new Set(['local', 'basic', 'global', 'drift'])
/** The methods that can show their context or prompt instead of an answer (one model call over one context). */
const ANSWER_ONLY: ReadonlySet<string> = new Set(['local', 'basic', 'graph'])

export const DEFAULT_PARAMS: AskParams = {
  method: 'local',
  communityLevel: 2,
  responseType: 'Multiple Paragraphs',
  dynamicCommunitySelection: false,
  budget: undefined,
  historyTurns: 10,
  topK: undefined,
  maxContextTokens: undefined,
  show: 'answer',
}

/** The body of POST /query for these parameters (lazy's budget and global's selection only where they apply). */
export function queryBody(question: string, params: AskParams, history: unknown[]): Record<string, unknown> {
  return {
    question,
    method: params.method,
    community_level: params.communityLevel,
    response_type: params.responseType.trim() === '' ? DEFAULT_PARAMS.responseType : params.responseType,
    ...(params.method === 'global' ? { dynamic_community_selection: params.dynamicCommunitySelection } : {}),
    ...(params.method === 'lazy' && params.budget !== undefined ? { budget: params.budget } : {}),
    ...(TOP_K.has(params.method) && params.topK !== undefined ? { top_k: params.topK } : {}),
    ...(CONTEXT_TOKENS.has(params.method) && params.maxContextTokens !== undefined
      ? { max_context_tokens: params.maxContextTokens }
      : {}),
    ...(ANSWER_ONLY.has(params.method) && params.show !== 'answer' ? { [`${params.show}_only`]: true } : {}),
    history,
    stream: true,
  }
}

type Set = (change: Partial<AskParams>) => void

export function MethodPicker({ params, set }: { params: AskParams; set: Set }) {
  return (
    <select id="method" value={params.method} onChange={(e) => set({ method: e.currentTarget.value as Method })}>
      {METHODS.map(([value, label]) => (
        <option value={value} key={value}>
          {label}
        </option>
      ))}
    </select>
  )
}

export function ParamsPanel({ params, set }: { params: AskParams; set: Set }) {
  return (
    <details class="params" id="ask-params">
      <summary>Parameters</summary>
      <div class="params-grid">
        <NumberField
          id="param-level"
          label="Community level"
          value={params.communityLevel}
          min={0}
          max={100}
          onChange={(n) => set({ communityLevel: n ?? DEFAULT_PARAMS.communityLevel })}
        />
        <label>
          Response type
          <input
            id="param-response-type"
            value={params.responseType}
            maxLength={200}
            onInput={(e) => set({ responseType: e.currentTarget.value })}
          />
        </label>
        <NumberField
          id="param-history"
          label="History turns"
          value={params.historyTurns}
          min={0}
          max={100}
          onChange={(n) => set({ historyTurns: n ?? 0 })}
        />
        <MethodFields params={params} set={set} />
        {ANSWER_ONLY.has(params.method) && <ShowField params={params} set={set} />}
      </div>
    </details>
  )
}

/** The fields only some methods take: top-k and context budget, lazy's budget, global's dynamic selection. */
function MethodFields({ params, set }: { params: AskParams; set: Set }) {
  return (
    <>
      {TOP_K.has(params.method) && (
        <NumberField
          id="param-top-k"
          label={params.method === 'basic' ? 'Top-k text units' : 'Top-k entities'}
          value={params.topK}
          min={1}
          max={1_000_000}
          placeholder="from settings"
          onChange={(n) => set({ topK: n })}
        />
      )}
      {CONTEXT_TOKENS.has(params.method) && (
        <NumberField
          id="param-context-tokens"
          label="Context tokens"
          value={params.maxContextTokens}
          min={1}
          max={10_000_000}
          placeholder="from settings"
          onChange={(n) => set({ maxContextTokens: n })}
        />
      )}
      {params.method === 'lazy' && (
        <NumberField
          id="param-budget"
          label="Lazy budget (text units)"
          value={params.budget}
          min={1}
          max={1_000_000}
          placeholder="relevance_budget"
          onChange={(n) => set({ budget: n })}
        />
      )}
      {params.method === 'global' && (
        <label class="check">
          <input
            type="checkbox"
            id="param-dynamic"
            checked={params.dynamicCommunitySelection}
            onChange={(e) => set({ dynamicCommunitySelection: e.currentTarget.checked })}
          />
          Dynamic community selection
        </label>
      )}
    </>
  )
}

/** What the Ask card shows: the answer, or (no model asked) the context or the whole prompt. */
function ShowField({ params, set }: { params: AskParams; set: Set }) {
  return (
    <label>
      Show
      <select
        id="param-show"
        value={params.show}
        onChange={(e) => set({ show: e.currentTarget.value as AskParams['show'] })}
      >
        <option value="answer">the answer</option>
        <option value="context">context only (no model call)</option>
        <option value="prompt">prompt only (no model call)</option>
      </select>
    </label>
  )
}

/** A whole-number field: an empty or unreadable entry is undefined (the default), out-of-range ones are clamped. */
function NumberField(props: {
  id: string
  label: string
  value: number | undefined
  min: number
  max: number
  placeholder?: string
  onChange: (value: number | undefined) => void
}) {
  return (
    <label>
      {props.label}
      <input
        type="number"
        id={props.id}
        min={props.min}
        max={props.max}
        step={1}
        placeholder={props.placeholder}
        value={props.value ?? ''}
        onInput={(e) => {
          const n = Number.parseInt(e.currentTarget.value, 10)
          props.onChange(Number.isNaN(n) ? undefined : Math.min(props.max, Math.max(props.min, n)))
        }}
      />
    </label>
  )
}
