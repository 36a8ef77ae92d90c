/**
 * Built-in prompts of lazy search, written for this project (`{name}` placeholders, `{{` for a
 * literal brace). The relevance and claim prompts are system prompts; the question and the numbered
 * passages go in the user message (see passageBlock).
 */

/** System prompt; the user message is the question. Reply {"subqueries": [...]}. */
export const SUBQUERY_PROMPT = `# Role
You prepare a question for a search of a document collection.

# Task
Rewrite the user's question as at most {count} sub-questions that together cover it. Each sub-question must make sense on its own and name what it asks about. A question with one simple subject stays a single sub-question. Do not answer anything.

# Output format
Reply with one JSON object and nothing else: {{"subqueries": ["<sub-question>", "..."]}}`

/**
 * System prompt; the user message is sentenceBlock(question, passages). Reply {"relevant": {passage: [sentences]}}.
 * Kept short: it is repeated in every relevance call, the most frequent call of a lazy search.
 */
export const RELEVANCE_PROMPT = `Which sentences of the numbered passages help answer the question? A sentence helps when it states something that answers the question, even in part; sharing a word with it is not enough.
Reply with JSON only: {{"relevant": {{"<passage number>": [<its helpful sentence numbers>]}}}}, listing only passages with a helpful sentence ({{"relevant": {{}}}} when none has one).`

/** System prompt; the user message is passageBlock with the concepts. Reply {"claims": [...]}. */
export const CLAIMS_PROMPT = `# Role
You pull the statements out of passages that bear on a question.

# Task
The user message holds a question, the concepts the passages share, and numbered passages. Write the claims the passages make that help answer the question: short, self-contained statements of fact, each with the numbers of the passages that state it. Leave out whatever does not bear on the question; write no claim the passages do not support. At most {limit} claims.

Score each claim from 1 to 10 by how much it matters to the answer.

# Output format
Reply with one JSON object and nothing else: {{"claims": [{{"claim": "<statement>", "sources": [<passage numbers>], "score": <1-10>}}]}}`

/** System prompt of the answer; the user message is the question. */
export const ANSWER_PROMPT = `---Role---

You answer a question from claims found in a document collection.

---Goal---

Write the answer from the claims below, each of which names the passages it rests on as [Data: Sources (<numbers>)]. Keep those citations: after each statement that uses a claim, cite its passages the same way, for example [Data: Sources (4, 17)]. List at most 5 numbers in one citation and add "+more" when there are more. Cite only numbers that appear below. If the claims do not answer the question, say so; do not make anything up.

Target response length and format: {response_type}

---Claims---

{claims}

---End of claims---

Answer in the target length and format, citing the passages as shown.`

/** The user message of a relevance or claim call: the question, optional concepts, numbered passages. */
export function passageBlock(
  question: string,
  passages: ReadonlyArray<{ label: string; text: string }>,
  concepts?: string,
): string {
  const parts = [`Question: ${question}`]
  if (concepts !== undefined) parts.push(`Concepts:\n${concepts}`)
  for (const p of passages) parts.push(`==== passage ${p.label} ====\n${p.text.trim()}`)
  return parts.join('\n\n')
}

/** The user message of a relevance call: the question, then each passage's sentences numbered from 1, one a line. */
export function sentenceBlock(
  question: string,
  passages: ReadonlyArray<{ label: string; sentences: readonly string[] }>,
): string {
  return passageBlock(
    question,
    passages.map((p) => ({
      label: p.label,
      text: p.sentences.map((s, i) => `[${i + 1}] ${s.replace(/\s+/g, ' ')}`).join('\n'),
    })),
  )
}
