/**
 * MCP's view of citations: the structured result of the `query` tool (the answer, its citations and
 * the sources they name, with titles) and the `get_source` tool that resolves any of them, so an
 * agent can check what an answer rests on.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { ServedAnswer } from './query-service.js'
import { answerCitations, SOURCE_KINDS, type ResolvedSource, type SourceLookup } from './sources.js'

const TEXT_MAX = 20_000

const citationShape = z.object({
  cited: z.string().describe('The citation as the answer writes it'),
  kind: z.enum(SOURCE_KINDS),
  id: z.string().describe('Pass with kind to get_source'),
})

const sourceShape = z.object({
  kind: z.enum(SOURCE_KINDS),
  id: z.string(),
  human_readable_id: z.number().nullable(),
  title: z.string().describe('The document title of a text unit; the name or title of anything else'),
  cited_as: z.array(z.string()),
})

/** The `query` tool's output schema. */
export const QUERY_OUTPUT = {
  method: z.string(),
  answer: z.string(),
  citations: z.array(citationShape),
  sources: z.array(sourceShape),
}

type HybridSourceJson = { label: string; id: string; kind: string }

/** The answer with its citations and the distinct sources they resolve to (unresolvable ones are left out). */
export async function structuredAnswer(answer: ServedAnswer, lookup: SourceLookup) {
  const hybrid = (answer.json.sources ?? []) as HybridSourceJson[]
  const citations = answerCitations(answer.response, hybrid)
  const sources = new Map<string, z.infer<typeof sourceShape>>()
  for (const c of citations) {
    const found = await lookup.resolve(c.id, c.kind)
    if (found === undefined) continue
    const key = `${found.kind}\u0000${found.id}`
    const known = sources.get(key)
    if (known !== undefined) known.cited_as.push(c.cited)
    else sources.set(key, { ...summary(found), cited_as: [c.cited] })
  }
  return { method: String(answer.json.method), answer: answer.response, citations, sources: [...sources.values()] }
}

function summary(s: ResolvedSource) {
  return { kind: s.kind, id: s.id, human_readable_id: s.human_readable_id, title: s.title }
}

/** Registers `get_source`; `lookup` opens the index when the tool runs. */
export function registerGetSource(
  server: McpServer,
  lookup: () => Promise<SourceLookup>,
  guarded: (run: () => Promise<ToolReply>) => Promise<ToolReply>,
  fail: (message: string) => Error,
): void {
  server.registerTool(
    'get_source',
    {
      title: 'A cited source',
      description:
        'The text behind a citation: a text unit (a passage) or a document, with its title. Pass the id an answer cites ' +
        '("12" from [Data: Sources (12)] or (Source 12), a full id) or a document id or title; or take kind and id from ' +
        "the `citations` of a query result (that is how hybrid's [S1] labels, entities and reports resolve).",
      inputSchema: {
        id: z.string().min(1).describe('The cited id, e.g. "12", "Sources (12)", a full id, or a document title'),
        kind: z.enum(SOURCE_KINDS).optional().describe('What the id names; by default a text unit, else a document'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id, kind }) =>
      guarded(async () => {
        if (/^\[?S\d+\]?$/.test(id.trim()))
          throw fail(`${id} is a label of one hybrid answer; take its kind and id from that query result's citations`)
        const found = await (await lookup()).resolve(id, kind)
        if (found === undefined) throw fail(`no ${kind ?? 'text unit or document'} with id "${id}"`)
        const text = found.text.length <= TEXT_MAX ? found.text : `${found.text.slice(0, TEXT_MAX)}…`
        const reply = { ...found, text }
        return { content: [{ type: 'text', text: JSON.stringify(reply, null, 2) }], structuredContent: reply }
      }),
  )
}

export interface ToolReply {
  [key: string]: unknown
  content: Array<{ type: 'text'; text: string }>
  isError?: boolean
}
