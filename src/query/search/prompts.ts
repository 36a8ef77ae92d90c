/**
 * Built-in prompts that have no settings key (and so no file in prompts/): the relevance rater of
 * dynamic community selection, the DRIFT hypothetical-answer and primer prompts, and the canned
 * answer when global search finds nothing. Written for this project; `{name}` placeholders.
 */

export const NO_DATA_ANSWER = 'The indexed data does not contain information that answers this question.'

/** System prompt; the user message is the question. Reply {"reason": str, "rating": 0-5}. */
export const RATE_REPORT_PROMPT = `# Role
You judge whether a community report from a document collection is relevant to a user's question.

# Task
Read the report below and rate how relevant it is to the question in the user message, on a whole-number scale:
- 0: unrelated.
- 1: mentions something loosely connected.
- 2: touches on the topic but would add little to an answer.
- 3: contains information that would help answer the question.
- 4: contains important parts of the answer.
- 5: is essential to answering the question.

# Report
{description}

# Output format
Reply with one JSON object and nothing else: {{"reason": "<one sentence>", "rating": <0 to 5>}}`

/** User-only prompt: a hypothetical answer shaped like a report, embedded to find similar reports. */
export const HYDE_PROMPT = `Write a hypothetical answer to the question below, shaped like the example report that follows: use its structure, headings and tone, but do not copy its facts and do not introduce named people, places or organisations that the question does not mention. Reply with the answer only.

Question: {query}

Example report:
{template}`

/** User-only prompt for a DRIFT primer batch; reply {"intermediate_answer", "score", "follow_up_queries"}. */
export const PRIMER_PROMPT = `You are starting research on the question below, using a set of community reports from a document collection.

Question: {query}

1. Write an intermediate answer from the reports: markdown of about 2000 characters that starts with a heading. Cite reports as [Data: Reports (<ids>)] where ids are the community numbers at the top of each report.
2. Score from 0 to 100 how well the reports answer the question.
3. Write at least 5 follow-up questions that would help answer it in more detail. Each must make sense on its own and name the entities it asks about.

Reply with one JSON object and nothing else: {{"intermediate_answer": "<markdown>", "score": <0-100>, "follow_up_queries": ["<question>", "..."]}}

Community reports:
{community_reports}`
