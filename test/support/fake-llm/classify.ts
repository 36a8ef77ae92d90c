/**
 * Recognises which GraphRAG prompt a chat request carries, from structural markers of the prompt
 * (record formats, JSON keys it asks for) rather than exact wording, so edited prompts still match.
 */

export type PromptKind =
  | 'extract_graph'
  | 'extract_graph_continue'
  | 'extract_graph_loop'
  | 'summarize_descriptions'
  | 'extract_claims'
  | 'extract_claims_continue'
  | 'extract_claims_loop'
  | 'community_report'
  | 'community_report_text'
  | 'global_map'
  | 'global_reduce'
  | 'local_search'
  | 'basic_search'
  | 'drift_local'
  | 'drift_reduce'
  | 'drift_primer'
  | 'dynamic_rating'
  | 'chunk_graph'
  | 'hybrid_entities'
  | 'hybrid_search'
  | 'preflight'
  | 'resolution_confirm'
  | EvalKind
  | LazyKind
  | TuneKind
  | 'unknown'

/** Lazy search's calls: sub-questions, relevance tests, claims, the answer. */
export type LazyKind = 'lazy_subqueries' | 'lazy_relevance' | 'lazy_claims' | 'lazy_answer'

/** Lazy search's prompts by the JSON key they ask for (or, for the answer, its claims section). */
function classifyLazy(text: string): LazyKind | undefined {
  if (/"subqueries"/.test(text)) return 'lazy_subqueries'
  if (/"relevant"/.test(text) && /numbered passages/.test(text)) return 'lazy_relevance'
  if (/"claims"/.test(text) && /numbered passages/.test(text)) return 'lazy_claims'
  if (/^---Claims---$/m.test(text)) return 'lazy_answer'
  return undefined
}

/** The questions of `graphrag prompt-tune`, by the step named in their `# Prompt tuning:` heading. */
export type TuneKind =
  | 'tune_domain'
  | 'tune_language'
  | 'tune_persona'
  | 'tune_entity_types'
  | 'tune_example'
  | 'tune_rating'
  | 'tune_role'

const TUNE_STEPS: ReadonlyArray<readonly [RegExp, TuneKind]> = [
  [/^subject domain/, 'tune_domain'],
  [/^language/, 'tune_language'],
  [/^persona/, 'tune_persona'],
  [/^entity types/, 'tune_entity_types'],
  [/^worked extraction example/, 'tune_example'],
  [/^impact rating/, 'tune_rating'],
  [/^report writer role/, 'tune_role'],
]

/** The judge's questions of `graphrag eval` and its question generator, by their `# Eval …: <task>` heading. */
export type EvalKind = 'eval_judge_pairwise' | 'eval_judge_correctness' | 'eval_assertion' | 'eval_generate'

const EVAL_TASKS: Readonly<Record<string, EvalKind>> = {
  'judge: pairwise': 'eval_judge_pairwise',
  'judge: correctness': 'eval_judge_correctness',
  'judge: assertion': 'eval_assertion',
  'generate: questions': 'eval_generate',
}

export interface ChatMessageLike {
  role: string
  content: string
}

const ENTITY_RECORD = /\(\s*"?entity"?\s*<\|>/i
const RELATIONSHIP_RECORD = /\(\s*"?relationship"?\s*<\|>/i
/** A claim tuple has eight fields, i.e. seven `<|>` delimiters on one line. */
const CLAIM_TUPLE = /^[^\n]*(?:<\|>[^\n]*){7}$/m
const YES_NO = /\b(?:Y|YES)\b[^\n]*\b(?:N|NO)\b/

/** Classifies a single prompt text (the system message, or the user message of single-shot prompts). */
function classifyText(text: string): PromptKind {
  // First: these questions quote corpus text, which may look like any other prompt.
  const tune = /^# Prompt tuning: (.*)/.exec(text)
  if (tune !== null) return TUNE_STEPS.find(([pattern]) => pattern.test(tune[1]!))?.[1] ?? 'unknown'
  const evalTask = /^# Eval (\w+: \w+)/.exec(text)
  if (evalTask !== null) return EVAL_TASKS[evalTask[1]!] ?? 'unknown'
  if (/connectivity test/i.test(text)) return 'preflight'
  const lazy = classifyLazy(text)
  if (lazy !== undefined) return lazy
  // Entity resolution's confirmation: numbered name pairs, a JSON list of decisions.
  if (/"decisions"/.test(text) && /same real-world entity/.test(text)) return 'resolution_confirm'
  // Our chunk-graph prompt: numbered units and a JSON list of typed edges between them.
  if (/^-+ unit \S+ -+$/m.test(text) && /"edges"/.test(text)) return 'chunk_graph'
  // DRIFT's HyDE call embeds a report as an example; it has no kind of its own.
  if (/^Write a hypothetical answer/i.test(text)) return 'unknown'
  if (ENTITY_RECORD.test(text) && RELATIONSHIP_RECORD.test(text)) {
    if (isLoopQuestion(text)) return 'extract_graph_loop'
    return /\b(missing|left out|more entities|were missed)\b/i.test(text) && !/Entity[_ ]types:/i.test(text)
      ? 'extract_graph_continue'
      : 'extract_graph'
  }
  if (CLAIM_TUPLE.test(text) || /\bclaim description\b/i.test(text)) {
    if (isLoopQuestion(text)) return 'extract_claims_loop'
    return /\b(missing|left out|were missed)\b/i.test(text) && !/Claim description:/i.test(text)
      ? 'extract_claims_continue'
      : 'extract_claims'
  }
  if (isLoopQuestion(text)) return /claim/i.test(text) ? 'extract_claims_loop' : 'extract_graph_loop'
  if (/"findings"/.test(text) && /rating/.test(text)) {
    return /-----SOURCES-----|entity_degree/.test(text) ? 'community_report_text' : 'community_report'
  }
  // Hybrid search: the question-entity list and the answer that cites [S#] labels.
  if (/looked up in a knowledge graph/i.test(text) && /JSON list/.test(text)) return 'hybrid_entities'
  if (/\[S#\] labels?/.test(text)) return 'hybrid_search'
  if (/intermediate_answer/.test(text)) return 'drift_primer'
  if (/follow_up_queries/.test(text)) return 'drift_local'
  if (/"reason"/.test(text) && /"rating"/.test(text)) return 'dynamic_rating'
  if (/"points"/.test(text)) return 'global_map'
  if (/\banalysts?\b/i.test(text)) return 'global_reduce'
  if (/research notes/i.test(text)) return 'drift_reduce'
  if (
    /descriptions? to merge|description list|comprehensive (summary|description)|merge (their|the) descriptions/i.test(
      text,
    )
  ) {
    return 'summarize_descriptions'
  }
  // Local search cites any table (`[Data: <table> (ids)]`); basic search only cites Sources. The
  // placeholders are matched, not plain references, which also occur inside the data.
  if (/\[Data: <(?:table|dataset name)>/.test(text)) return 'local_search'
  if (/\[Data: Sources \((?:<ids>|record ids)/.test(text)) return 'basic_search'
  return 'unknown'
}

function isLoopQuestion(text: string): boolean {
  return YES_NO.test(text) && /single letter|answer (?:with )?(?:Y|YES)|Y if/i.test(text) && text.length < 1500
}

/**
 * Classifies a whole request. Query prompts put the template in the system message; gleaning
 * follow-ups are short user messages after an assistant turn, classified by the first user message.
 */
export function classifyMessages(messages: readonly ChatMessageLike[]): PromptKind {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n')
  if (system.trim() !== '') return classifyText(system)
  const users = messages.filter((m) => m.role === 'user')
  const last = users[users.length - 1]?.content ?? ''
  const first = users[0]?.content ?? ''
  if (users.length > 1 && messages.some((m) => m.role === 'assistant')) {
    const base = classifyText(first)
    const family = base.startsWith('extract_claims')
      ? 'extract_claims'
      : base.startsWith('extract_graph')
        ? 'extract_graph'
        : undefined
    if (family !== undefined) return isLoopQuestion(last) ? `${family}_loop` : `${family}_continue`
  }
  return classifyText(last)
}
