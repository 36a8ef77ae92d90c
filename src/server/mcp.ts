/**
 * The index as a Model Context Protocol server (official @modelcontextprotocol/sdk): tools to ask a
 * question with each search method, look entities and community reports up and list documents,
 * and the community reports as resources. Served over stdio (`graphrag mcp`) and over streamable
 * HTTP at /mcp on `graphrag serve` (stateless: one server per request, behind the same token).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { z } from 'zod'
import { loadConfig } from '../config/index.js'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  type TableSchema,
  type RowOf,
} from '../model/index.js'
import { addCurationRule, type CurationRule } from '../index/run/curation-edit.js'
import { readableIndexDir } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { VERSION } from '../version.js'
import { SEARCH_DEFAULTS } from '../query/index.js'
import { DocumentCatalog } from './documents.js'
import { publicMessage } from './index-jobs.js'
import { QueryService, type Project } from './query-service.js'
import { communityLevel, queryMethod, responseType } from './requests.js'
import { QUERY_OUTPUT, registerGetSource, structuredAnswer, type ToolReply } from './mcp-sources.js'
import { SourceLookup } from './sources.js'
import { LISTING_ARGS, listDocuments, listingQuery } from './document-listing.js'

export interface McpParts {
  queries: QueryService
  documents: DocumentCatalog
}

const QUERY_HELP = [
  'Answer a question from the knowledge graph built over the documents, with citations.',
  'Pick the method by the question:',
  '- local: about specific people, places, things or events (entities and their neighbourhood). The usual choice.',
  '- global: about the whole collection (main themes, overall summary, "what are the top…"); reads community reports, costs more calls.',
  '- drift: a specific question that also needs broad context (local search guided by community reports).',
  '- basic: plain passage retrieval (vector search over text chunks), for quoting or finding where something is said.',
  '- graph: how things are connected (paths and relationships between entities).',
  '- hybrid: ranked passages from vector, keyword and graph signals with [S#] citations; good for precise factual questions.',
  '- lazy: reads the passages themselves, testing them for relevance down the communities under a budget; for local or global questions over an index built without a model (offline).',
].join('\n')

const ENTITY_LIMIT = 50

/** A new MCP server over the project (cheap: tables are read when a tool runs). */
function createMcpServer(parts: McpParts): McpServer {
  const server = new McpServer(
    { name: 'graphrag', version: VERSION },
    {
      instructions:
        'A GraphRAG knowledge graph over a document collection. Use `query` to get answers (see its method guide), ' +
        '`get_source` to read what a citation of an answer points at, ' +
        '`search_entities` then `get_entity` to explore who/what is in the documents, `get_community_report` ' +
        '(or the graphrag://reports resources) for summaries of topic clusters, `list_documents` to see the sources.',
    },
  )
  registerQueryTool(server, parts)
  registerEntityTools(server, parts)
  registerReportTools(server, parts)
  registerDocumentsTool(server, parts)
  registerGetSource(
    server,
    () => sourceLookup(parts),
    guarded,
    (message) => new McpToolError(message),
  )
  registerCurationTool(server, parts)
  registerRelationshipCurationTool(server, parts)
  return server
}

/** `query`: a question answered with the method the client picks, its citations resolved. */
function registerQueryTool(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'query',
    {
      title: 'Ask the knowledge graph',
      description: QUERY_HELP,
      inputSchema: {
        question: z.string().min(1).describe('The question, in natural language'),
        method: queryMethod().default('local').describe('Search method (see the guide above); default local'),
        community_level: communityLevel()
          .default(SEARCH_DEFAULTS.communityLevel)
          .describe('Community hierarchy level for report-based methods (0 = broadest; higher = finer); default 2'),
        response_type: responseType()
          .default(SEARCH_DEFAULTS.responseType)
          .describe('Form of the answer, e.g. "Multiple Paragraphs", "Single Sentence", "List of 3-7 Points"'),
      },
      outputSchema: QUERY_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, extra) =>
      guarded(async () => {
        const request = {
          question: args.question,
          method: args.method,
          communityLevel: args.community_level,
          responseType: args.response_type,
          dynamicCommunitySelection: SEARCH_DEFAULTS.dynamicCommunitySelection,
          history: [],
          externalContext: [],
        }
        const { key, answer: cached } = parts.queries.cached(request)
        const answer = cached ?? (await parts.queries.run(request, key, extra.signal))
        const structured = await structuredAnswer(answer, await sourceLookup(parts))
        return { ...text(answer.response), structuredContent: structured }
      }),
  )
}

/** `search_entities` (by name, else description) and `get_entity` (with relationships and communities). */
function registerEntityTools(server: McpServer, parts: McpParts): void {
  registerSearchEntities(server, parts)
  registerGetEntity(server, parts)
}

function registerSearchEntities(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'search_entities',
    {
      title: 'Find entities by name',
      description:
        'Find people, organisations, places, events and concepts in the graph whose name (or, failing that, description) matches the text. ' +
        'Returns names to pass to get_entity.',
      inputSchema: {
        text: z.string().min(1).describe('A name or part of one (case-insensitive)'),
        limit: z.number().int().min(1).max(ENTITY_LIMIT).default(10).describe(`At most this many (1-${ENTITY_LIMIT})`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ text: wanted, limit }) =>
      guarded(async () => {
        const entities = await readTable(parts, ENTITIES)
        const needle = wanted.toLowerCase()
        const score = (e: RowOf<typeof ENTITIES>) => {
          const title = e.title.toLowerCase()
          if (title === needle) return 3
          if (title.includes(needle)) return 2
          return e.description.toLowerCase().includes(needle) ? 1 : 0
        }
        const matches = entities
          .map((e) => ({ e, s: score(e) }))
          .filter((x) => x.s > 0)
          .sort((a, b) => b.s - a.s || b.e.degree - a.e.degree || (a.e.title < b.e.title ? -1 : 1))
        const found = matches
          .slice(0, limit)
          .map(({ e }) => ({ name: e.title, type: e.type, degree: e.degree, description: clip(e.description, 300) }))
        return json({ entities: found, total_matches: matches.length })
      }),
  )
}

function registerGetEntity(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'get_entity',
    {
      title: 'An entity with its relationships and communities',
      description:
        'Everything the graph holds about one entity: its description, its strongest relationships, and the communities (with report titles) it belongs to.',
      inputSchema: {
        name: z.string().min(1).describe('The entity name as search_entities returns it (case-insensitive)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ name }) =>
      guarded(async () => {
        const entities = await readTable(parts, ENTITIES)
        const entity = entities.find((e) => e.title.toLowerCase() === name.toLowerCase() || e.id === name)
        if (entity === undefined) throw new McpToolError(`no entity named "${name}"; use search_entities to find names`)
        const relationships = (await readTable(parts, RELATIONSHIPS))
          .filter((r) => r.source === entity.title || r.target === entity.title)
          .sort((a, b) => b.weight - a.weight)
          .slice(0, 25)
          .map((r) => ({ source: r.source, target: r.target, description: r.description, weight: r.weight }))
        const reports = new Map((await readTable(parts, COMMUNITY_REPORTS)).map((r) => [r.community, r.title]))
        const communities = (await readTable(parts, COMMUNITIES))
          .filter((c) => c.entity_ids.includes(entity.id))
          .map((c) => ({ community: c.community, level: c.level, report_title: reports.get(c.community) ?? null }))
        return json({
          name: entity.title,
          type: entity.type,
          description: entity.description,
          degree: entity.degree,
          relationships,
          communities,
        })
      }),
  )
}

/** `get_community_report` and the same reports as graphrag://reports/{community} resources. */
function registerReportTools(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'get_community_report',
    {
      title: 'A community report',
      description:
        'The report of one community (a cluster of related entities): title, summary, findings and rating. Community numbers come from get_entity or the graphrag://reports resources.',
      inputSchema: { community: z.number().int().min(0).describe('Community number') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ community }) =>
      guarded(async () => {
        const report = (await readTable(parts, COMMUNITY_REPORTS)).find((r) => r.community === community)
        if (report === undefined) throw new McpToolError(`no report for community ${community}`)
        return text(report.full_content)
      }),
  )
  server.registerResource(
    'community-report',
    new ResourceTemplate('graphrag://reports/{community}', {
      list: async () => ({
        resources: (await readTable(parts, COMMUNITY_REPORTS))
          .sort((a, b) => a.community - b.community)
          .map((r) => ({
            uri: `graphrag://reports/${r.community}`,
            name: `Community ${r.community} (level ${r.level}): ${r.title}`,
            description: clip(r.summary, 200),
            mimeType: 'text/markdown',
          })),
      }),
    }),
    { title: 'Community reports', description: 'Summaries of the communities of the graph', mimeType: 'text/markdown' },
    async (uri, variables) => {
      const community = Number(variables.community)
      const report = (await readTable(parts, COMMUNITY_REPORTS)).find((r) => r.community === community)
      if (report === undefined) throw new McpToolError(`no report for community ${String(variables.community)}`)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: report.full_content }] }
    },
  )
}

/** `list_documents`: the input files and their status, as GET /documents lists them. */
function registerDocumentsTool(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'list_documents',
    {
      title: 'The source documents',
      description:
        'The input files of the collection: title, size, when added, text units and status (indexed; new/edited/deleted waiting for an update; ' +
        'skipped or failed with the reason). Filter by status, sort, page with limit/offset; `total` and `counts` cover every document.',
      inputSchema: LISTING_ARGS,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) =>
      guarded(async () => {
        const query = listingQuery({
          status: args.status?.join(','),
          sort: args.sort,
          limit: String(args.limit),
          offset: String(args.offset),
        })
        return json(await listDocuments(parts.documents, query))
      }),
  )
}

/** Ours: `curate_entity` writes a curation.yaml rule (docs/entity-resolution.md), as `graphrag curate` does. */
function registerCurationTool(server: McpServer, parts: McpParts): void {
  server.registerTool(
    'curate_entity',
    {
      title: 'Correct an entity of the graph',
      description:
        'Merge an entity into another, rename it, set its type or delete it. The change is written as a rule to curation.yaml (audit log: who "mcp") and applied by the next update (graphrag update, or POST /index {"mode":"update"}).',
      inputSchema: {
        action: z.enum(['merge', 'rename', 'set_type', 'delete']),
        name: z
          .string()
          .min(1)
          .describe('The entity (matched after normalisation: case, punctuation, articles, plurals)'),
        value: z
          .string()
          .min(1)
          .optional()
          .describe('merge: the entity that stays; rename: the new title; set_type: the type; delete: not used'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async ({ action, name, value }) =>
      guarded(async () => {
        if (action !== 'delete' && value === undefined) throw new McpToolError(`${action} needs a value`)
        const v = value ?? ''
        const rule: CurationRule =
          action === 'merge'
            ? { action, entity: name, into: v }
            : action === 'rename'
              ? { action, entity: name, to: v }
              : action === 'set_type'
                ? { action, entity: name, type: v }
                : { action, entity: name }
        const added = await addCurationRule(parts.queries.config().settings, rule, 'mcp', new Date())
        return json({ rule: added.rule, applied_by: 'the next update' })
      }),
  )
}

/** Ours: `curate_relationship` adds or deletes a relationship as a curation.yaml rule. */
function registerRelationshipCurationTool(server: McpServer, parts: McpParts): void {
  const name = (what: string) => z.string().min(1).describe(`${what} (matched after normalisation)`)
  server.registerTool(
    'curate_relationship',
    {
      title: 'Add or delete a relationship of the graph',
      description:
        'Add a relationship between two entities (with a description, and a weight, default 1) or delete the relationship between them (either direction). Written as a rule to curation.yaml (audit log: who "mcp") and applied by the next update.',
      inputSchema: {
        action: z.enum(['add', 'delete']),
        source: name('One entity'),
        target: name('The other entity'),
        description: z.string().min(1).optional().describe('add: what the relationship is'),
        weight: z.number().positive().optional().describe('add: its weight (default 1)'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async ({ action, source, target, description, weight }) =>
      guarded(async () => {
        if (action === 'add' && description === undefined) throw new McpToolError('add needs a description')
        const rule: CurationRule =
          action === 'delete'
            ? { action: 'delete_relationship', source, target }
            : {
                action: 'add_relationship',
                source,
                target,
                description: description ?? '',
                ...(weight === undefined ? {} : { weight }),
              }
        const added = await addCurationRule(parts.queries.config().settings, rule, 'mcp', new Date())
        return json({ rule: added.rule, applied_by: 'the next update' })
      }),
  )
}

/** A tool's failure shown to the agent as a message (never a stack trace or a secret). */
class McpToolError extends Error {}

async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run()
  } catch (error) {
    return {
      isError: true,
      content: [{ type: 'text', text: error instanceof McpToolError ? error.message : publicMessage(error) }],
    }
  }
}

type ToolResult = ToolReply

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] })
const json = (value: unknown): ToolResult => text(JSON.stringify(value, null, 2))

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
}

async function indexStore(parts: McpParts): Promise<ParquetTableStore> {
  const { settings } = parts.queries.config()
  return new ParquetTableStore(await readableIndexDir(settings.output_storage.base_dir))
}

async function sourceLookup(parts: McpParts): Promise<SourceLookup> {
  return new SourceLookup(await indexStore(parts))
}

async function readTable<S extends TableSchema>(parts: McpParts, schema: S): Promise<RowOf<S>[]> {
  const store = await indexStore(parts)
  if (!(await store.has(schema.name)))
    throw new McpToolError(`the index has no ${schema.name} table; run graphrag index first`)
  return store.read(schema)
}

/** POST/GET/DELETE /mcp: one stateless server and transport per request (JSON replies, no session). */
export async function handleMcpRequest(request: Request, parts: McpParts): Promise<Response> {
  const server = createMcpServer(parts)
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  })
  await server.connect(transport)
  try {
    return await transport.handleRequest(request)
  } finally {
    await server.close()
  }
}

/** `graphrag mcp`: the server over stdin/stdout until the client closes it. */
export async function serveMcpStdio(project: Project): Promise<void> {
  const { settings } = loadConfig({ root: project.root, configFile: project.configFile, env: project.env })
  const queries = new QueryService(project, {
    embeddings: settings.server.embedding_cache_size,
    answers: settings.server.answer_cache_size,
  })
  const server = createMcpServer({ queries, documents: new DocumentCatalog(() => queries.config()) })
  const transport = new StdioServerTransport()
  // The client ends the session by closing our stdin.
  const ended = new Promise<void>((resolve) => process.stdin.once('end', resolve))
  await server.connect(transport)
  await ended
  await server.close()
}
