/**
 * /openapi.json: the HTTP API as OpenAPI 3.1. Request bodies are generated from the zod schemas the
 * routes validate with (z.toJSONSchema), so a field added to a route is in the document too; the
 * summaries and responses are written here, and a test checks that the document's paths are exactly
 * the routes the app registers. Every project route is listed twice: as is (the default workspace)
 * and under /w/{workspace} (docs/workspaces.md).
 */
import { z } from 'zod'
import { MERGE, PATCH, RELATE } from './curation-routes.js'
import { DOCUMENT_SORTS, DOCUMENT_STATUSES, MAX_PAGE } from './document-listing.js'
import { API_VERSION } from './diagnostics.js'
import { INGEST } from './ingest.js'
import { SEARCH_METHODS } from '../query/methods.js'
import { CHAT, EMPTY, INDEX, PREVIEW, QUERY } from './requests.js'

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } })
const sse = { 'text/event-stream': { schema: { type: 'string' } } }
const error = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) })
const body = (schema: Record<string, unknown>) => ({ required: true, content: json(schema) })

/**
 * Descriptions of body fields the zod schemas cannot say themselves (free-form fields checked by
 * hand after parsing, and what a field means), kept apart so the request schemas stay plain.
 */
const FIELD_NOTES = z.registry<Record<string, unknown>>()
FIELD_NOTES.add(QUERY.shape.history, {
  description: 'Earlier turns of the conversation, oldest first',
  type: 'array',
  items: { type: 'object', properties: { role: { enum: ['user', 'assistant'] }, content: { type: 'string' } } },
})
FIELD_NOTES.add(QUERY.shape.context, {
  description: 'hybrid only: passages from outside the index (strings or {id, text}), citable in the answer',
  type: 'array',
  items: {
    oneOf: [
      { type: 'string' },
      { type: 'object', required: ['text'], properties: { id: { type: 'string' }, text: { type: 'string' } } },
    ],
  },
})
FIELD_NOTES.add(QUERY.shape.budget, {
  description: 'lazy only: at most this many text units tested for relevance (default lazy_search.relevance_budget)',
})
FIELD_NOTES.add(QUERY.shape.context_only, {
  description: 'local, basic, graph: the response is the context the model would read; no model is asked',
})
FIELD_NOTES.add(QUERY.shape.prompt_only, {
  description: 'local, basic, graph: the response is the messages the model would be sent; no model is asked',
})
FIELD_NOTES.add(QUERY.shape.stream, { description: 'true: SSE chunks of the answer, then event: result' })
FIELD_NOTES.add(INDEX.shape.mode, { description: 'update: only new, edited and deleted documents (graphrag update)' })
FIELD_NOTES.add(INGEST.shape.path, { description: 'Absolute, or relative to the project root' })
FIELD_NOTES.add(INGEST.shape.incremental, {
  description: 'true: update (index when there is none yet); false: full index',
})
FIELD_NOTES.add(CHAT.shape.model, {
  description: `graphrag-<method>: ${SEARCH_METHODS.map((m) => `graphrag-${m}`).join(', ')}`,
})

/** The JSON Schema of what a route accepts (its input: fields with a default are optional). */
function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', metadata: FIELD_NOTES })
  return rest
}
const zodBody = (schema: z.ZodType) => body(schemaOf(schema))
const page = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } })
const asset = (type: string) => ({ description: type, content: { [type]: { schema: { type: 'string' } } } })
const WORKSPACE_PARAMETER = {
  name: 'workspace',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$' },
  description: 'A name from server.workspaces or --workspace (docs/workspaces.md)',
}
const ok = (description: string, schema: Record<string, unknown> = { type: 'object' }) => ({
  description,
  content: json(schema),
})
const STANDARD_ERRORS = {
  '400': error('Bad JSON, a body that is not an object, or a missing/invalid field (the message names it)'),
  '401': error('Missing or wrong bearer token'),
  '403': error(
    "Host not a name of this server (server.allowed_hosts), a cross-origin request (server.cors_origins), or a workspace's token on the default workspace's routes",
  ),
  '413': error('Body too large'),
  '415': error('POST without Content-Type: application/json (multipart/form-data for uploads)'),
}
/** A true/false query parameter of the seed design's ingest API. */
const seedFlag = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { enum: ['true', 'false', '1', '0'] },
})
/** A query parameter of the seed design's relations-only ingest (inc_rel_only=true). */
const relationsParam = (name: string, schema: Record<string, unknown>, description: string) => ({
  name,
  in: 'query',
  required: false,
  description: `With inc_rel_only=true: ${description}`,
  schema,
})
const RELATIONS_ONLY_PARAMETERS = [
  seedFlag(
    'inc_rel_only',
    "Relations-only incremental mode: the path's file is in the index; typed chunk-graph edges are sought for its new text units only (with the rel_window - 1 units before them), added to the kept edges, none removed; a job re-runs create_chunk_graph alone. Result: {mode: relations_incremental, created, skipped, pairs, old, new, window}; stages relation_incremental_start / _progress / _done",
  ),
  relationsParam(
    'new_after',
    { type: 'string' },
    'the last old text unit (its id or human_readable_id); the units after it are new',
  ),
  relationsParam(
    'detect_after',
    { enum: ['true', 'false', '1', '0'] },
    'true: the last new_count units are new (instead of new_after)',
  ),
  relationsParam(
    'new_count',
    { type: 'integer', minimum: 1 },
    'with detect_after=true: how many of the last units are new',
  ),
  relationsParam(
    'rel_window',
    { type: 'integer', minimum: 2 },
    'units per typed-edge call, sliding by one (default chunk_graph.batch_size)',
  ),
  relationsParam(
    'rel_truncate',
    { type: 'integer', minimum: 0 },
    'characters of each unit shown to the model, as tokens at 4 characters a token (chunk_graph.relation_unit_max_tokens for the run)',
  ),
  relationsParam(
    'rel_temperature',
    { type: 'number', minimum: 0, maximum: 2 },
    "the typed-edge calls' temperature (chunk_graph.relation_temperature for the run)",
  ),
]
const JOB_STREAM_EVENTS =
  'event: start, data: {stage, detail, current, total}…, event: result, data: {"stage":"done"} (or {"stage":"error","error"}, or {"stage":"interrupted"} when the server stopped)'
const updateParameter = {
  name: 'update',
  in: 'query',
  required: false,
  schema: { type: 'boolean' },
  description: 'Start an update job afterwards (default: server.auto_update)',
}
const LISTING_PARAMETERS = [
  {
    name: 'status',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: `Only these statuses, comma-separated (${DOCUMENT_STATUSES.join(', ')}); default all`,
  },
  {
    name: 'sort',
    in: 'query',
    required: false,
    schema: { enum: [...DOCUMENT_SORTS, ...DOCUMENT_SORTS.map((s) => `-${s}`)] },
    description: 'Sort key, "-" prefix for descending; default title (ties by title, then id)',
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    description: 'At most this many documents (default all)',
  },
  {
    name: 'offset',
    in: 'query',
    required: false,
    schema: { type: 'integer', minimum: 0, default: 0 },
    description: 'Skip this many (paging)',
  },
]
const JOB_REF = {
  job: {
    type: 'object',
    properties: { id: { type: 'string' } },
    description: 'Present when an update job was started',
  },
  warnings: { type: 'array', items: { type: 'string' }, description: 'e.g. a job was already running' },
}

const CURATION_UPDATE = {
  name: 'update',
  in: 'query',
  required: false,
  schema: { type: 'boolean' },
  description:
    'true: start an update job that applies the rule (default false: apply with POST /index {"mode":"update"})',
}
const CURATION_RESPONSES = {
  '201': ok('{rules (as written, with the index titles), job? | apply, warnings?}'),
  '400': STANDARD_ERRORS['400'],
  '401': STANDARD_ERRORS['401'],
  '404': error('No such entity in the index'),
}

const DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'graphrag serve',
    version: API_VERSION,
    description: 'Queries, documents, index jobs, MCP and diagnostics over a graphrag project.',
  },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'Required when GRAPHRAG_SERVER_TOKEN (the admin token, every workspace) or a GRAPHRAG_SERVER_TOKEN_<NAME> (that workspace only) is set; all paths but /health and the pages.',
      },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: { type: 'object', properties: { message: { type: 'string' }, type: { type: 'string' } } },
          detail: { type: 'string', description: 'error.message again, under the seed API name' },
          trace: { type: 'string', description: 'Stack frames of the failure, only with server.debug_errors' },
        },
      },
      Query: schemaOf(QUERY),
      Document: {
        type: 'object',
        required: ['id', 'title', 'size', 'added', 'text_units', 'status'],
        properties: {
          id: {
            type: 'string',
            description: 'Document id (SHA-512 of the text unless input.id_column says otherwise)',
          },
          title: { type: 'string' },
          size: { type: 'integer', description: "Bytes (the file's; a row's text for files of several documents)" },
          added: { type: 'string', description: 'ISO time the file was stored' },
          text_units: { type: 'integer', description: 'Text units in the index (0 until indexed)' },
          status: {
            enum: [...DOCUMENT_STATUSES],
            description:
              'new/edited: waiting for an update; deleted: file gone, still in the index until the update; skipped: the file gives no document (reason says why, as the indexer warns); failed: the file could not be read (reason is the error). A skipped or failed file has its path as id and title',
          },
          file: { type: ['string', 'null'], description: 'Its file in input_storage (null once deleted)' },
          reason: { type: 'string', description: 'Only for skipped and failed: why' },
        },
      },
      QueryResult: {
        description:
          'local/global/drift/basic/graph: {method, response, context, usage, warnings?}; hybrid: {answer, sources, references, entities, warnings, usage}; lazy: also lazy (tests, community path, claims, citations, usage per model)',
        type: 'object',
        properties: {
          answer: { type: 'string' },
          sources: { type: 'array' },
          references: { type: 'array' },
          entities: { type: 'array' },
          method: { type: 'string' },
          response: { type: 'string' },
          context: { type: 'object' },
          usage: { type: 'object' },
          warnings: { type: 'array', items: { type: 'string' } },
        },
      },
    },
  },
  security: [{ bearer: [] }],
  paths: {
    '/health': {
      get: { summary: 'Liveness and API version', security: [], responses: { '200': ok('{status, api_version}') } },
    },
    '/query': {
      post: {
        summary:
          'Answer a question (the same JSON as `graphrag query --json`; stream: true gives SSE chunks, then event: result)',
        requestBody: body({ $ref: '#/components/schemas/Query' }),
        responses: {
          '200': {
            description: 'The answer',
            content: { ...json({ $ref: '#/components/schemas/QueryResult' }), ...sse },
          },
          '409': error('No index yet (or it lacks a table the method reads): run graphrag index or POST /index'),
          '500': error(
            "type settings_error: the server's settings do not let this method run (e.g. a model id naming no model); the message names the key",
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    '/ranking/preview': {
      post: {
        summary:
          "Hybrid search's ranking table (signals, fused score, bonuses, why included) without asking for an answer",
        requestBody: zodBody(PREVIEW),
        responses: {
          '200': ok(
            '{question, ranking, explain_text, entities, warnings, degraded, usage}; each ranking row has our fields (vector, bm25, graph, fused, fused_norm, bonuses, composite, reason, why) and the seed API names: score_raw, base_norm (= fused_norm), bonus (sum of bonuses), composite_score (= composite), final_score (= composite, or its blend with rerank_score when the rerank stage is on), rerank_score, rerank_norm, rel_type, rel_conf; degraded: a signal (vector, BM25, graph) was unavailable',
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    '/index': {
      post: {
        summary: 'Start an index job (one at a time)',
        requestBody: zodBody(INDEX),
        responses: {
          '202': ok('{job, mode, method, stream}'),
          '409': error('A job is already running'),
          ...STANDARD_ERRORS,
        },
      },
    },
    '/index/stream': {
      get: {
        summary: `Progress of a job as SSE: ${JOB_STREAM_EVENTS}`,
        parameters: [
          {
            name: 'job',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'Job id (default: the running or last job)',
          },
        ],
        responses: {
          '200': { description: 'Event stream', content: sse },
          '404': error('No such job'),
          '401': STANDARD_ERRORS['401'],
        },
      },
    },
    '/documents': {
      get: {
        summary: 'The documents of input_storage with their status against the published index',
        parameters: LISTING_PARAMETERS,
        responses: {
          '200': ok('{documents, total, offset, limit, counts, index}', {
            type: 'object',
            properties: {
              documents: { type: 'array', items: { $ref: '#/components/schemas/Document' } },
              total: { type: 'integer', description: 'Documents that pass the status filter (before paging)' },
              offset: { type: 'integer' },
              limit: { type: ['integer', 'null'] },
              counts: {
                type: 'object',
                description: 'Documents by status, of the whole listing (not filtered)',
                additionalProperties: { type: 'integer' },
              },
              index: {
                type: 'boolean',
                description:
                  'Whether a published index exists; when false, POST /index {"mode": "index"} builds the first',
              },
            },
          }),
          '401': STANDARD_ERRORS['401'],
        },
      },
      post: {
        summary:
          'Upload one or more files (multipart field "file"): each checked by content (type, declared zip expansion, gives a document) before any is stored in input_storage',
        parameters: [updateParameter],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } },
              },
            },
          },
        },
        responses: {
          '201': ok('{documents, job?, warnings?}', {
            type: 'object',
            properties: { documents: { type: 'array', items: { $ref: '#/components/schemas/Document' } }, ...JOB_REF },
          }),
          ...STANDARD_ERRORS,
          '413': error(
            'Upload over server.max_upload_bytes, or a .docx/.xlsx declaring more than server.max_upload_expanded_bytes',
          ),
          '415': error(
            'Not multipart, no reader for the file type, content not what the name says, or no document in it',
          ),
        },
      },
    },
    '/documents/{id}': {
      delete: {
        summary: "Delete a document's file from input_storage (the index keeps it until the next update)",
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, updateParameter],
        responses: {
          '200': ok('{deleted, job?, warnings?}', {
            type: 'object',
            properties: { deleted: { type: 'string' }, ...JOB_REF },
          }),
          '404': error('No such document, or already deleted'),
          '409': error('The document is one of several in its file (csv rows)'),
          '401': STANDARD_ERRORS['401'],
        },
      },
    },
    '/ingest': {
      post: {
        summary:
          'Ingest a file or folder by path (seed API): only inside server.ingest_roots (real paths, symlinks resolved), copied into input_storage, then a job runs',
        parameters: [
          seedFlag('incremental', 'Overrides the body field: true update, false full index'),
          seedFlag('refresh', 'Rebuild everything (a full index run); default false'),
          seedFlag(
            'refresh_relations',
            'With refresh: default true; false runs the refresh without the chunk graph model-made relations (chunk_graph.llm_edges off for that run)',
          ),
          seedFlag(
            'progress',
            'Wait for the job; the answer carries its result and progress events (design stage names)',
          ),
          seedFlag('wait', 'Wait for the job; the answer carries its result'),
          seedFlag('checkpoint', 'Accepted as true (the default); false is refused'),
          ...RELATIONS_ONLY_PARAMETERS,
        ],
        requestBody: zodBody(INGEST),
        responses: {
          '202': ok('{job, mode, stream, files, documents, skipped}'),
          '200': ok(
            'With progress or wait: the same, plus the result (files_processed, chunks_new, chunks_skipped, chunks_total, entities_created, relations_created, elapsed_sec, incremental, refresh, and the run figures) and with progress its events: the first 20 and the latest, 200 at most (more: progress_truncated, progress_omitted, progress_events)',
          ),
          '500': error('With progress or wait: the job failed'),
          ...STANDARD_ERRORS,
          '403': error('server.ingest_roots is empty, the path is outside it, or a Host/Origin guard refused'),
          '404': error('No such path inside the roots; with inc_rel_only, a file not in the index'),
          '409': error('A job is already running; with inc_rel_only, the file changed since it was indexed'),
        },
      },
    },
    '/ingest/stream': {
      get: {
        summary: `Progress of an ingest job, as /index/stream but with the seed design's stage names (stage: scan_input, hash_computed, entity_extraction, relates_to, relation_extraction, embedding_batch, embedding_progress, schema_index…, relation_incremental_* for a relations-only job; workflow: ours) and the result also as {"stage":"result","result":…}: ${JOB_STREAM_EVENTS}`,
        parameters: [
          { name: 'job', in: 'query', required: false, schema: { type: 'string' } },
          {
            name: 'path',
            in: 'query',
            required: false,
            description:
              'The path given to POST /ingest: streams the latest job that read it (job or path is required)',
            schema: { type: 'string' },
          },
          seedFlag('checkpoint', 'Accepted as true (the default); false is refused'),
          seedFlag(
            'inc_rel_only',
            'With path: the latest relations-only job of that path (POST /ingest?inc_rel_only=true starts one; a GET starts nothing)',
          ),
        ],
        responses: {
          '200': { description: 'Event stream', content: sse },
          '400': error('Neither job nor path given, or a bad parameter'),
          '404': error('No such job, or no ingest job read that path'),
          '401': STANDARD_ERRORS['401'],
        },
      },
    },
    '/mcp': {
      post: {
        summary:
          'Model Context Protocol over streamable HTTP (stateless, JSON replies): tools query, get_source, search_entities, get_entity, get_community_report, list_documents; resources graphrag://reports/{community}',
        requestBody: body({ type: 'object', description: 'A JSON-RPC message of MCP' }),
        responses: { '200': ok('JSON-RPC response'), '401': STANDARD_ERRORS['401'], '415': STANDARD_ERRORS['415'] },
      },
      get: {
        summary: 'Not offered (stateless server: no server-initiated stream)',
        responses: { '405': error('Method not allowed') },
      },
      delete: {
        summary: 'Not offered (stateless server: no session to end)',
        responses: { '405': error('Method not allowed') },
      },
    },
    '/diagnostics': {
      get: {
        summary: 'Index, tables, vector tables, models, settings (masked), features',
        responses: { '200': ok('The report'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/cache/stats': {
      get: {
        summary:
          'Sizes and hit rates of the query caches; the seed API fields embedding_cache_size, answer_cache_size and the most recent keys (as questions, at most 20 each, clipped)',
        responses: { '200': ok('{embeddings, answers}'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/cache/clear': {
      post: {
        summary: 'Empty the query caches (a body, when sent, is {}; none is needed)',
        requestBody: { ...zodBody(EMPTY), required: false },
        responses: { '200': ok('{cleared: true}'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', responses: { '200': ok('OpenAPI 3.1'), '401': STANDARD_ERRORS['401'] } },
    },
    '/docs': {
      get: {
        summary: 'This reference as an HTML page (rendered from this document; public like the web UI page)',
        security: [],
        responses: { '200': page('HTML page') },
      },
    },
    '/docs/style.css': {
      get: { summary: "The reference page's style sheet", security: [], responses: { '200': asset('text/css') } },
    },
    '/': {
      get: {
        summary: 'The web UI (public: it holds no data, and asks for the token when the server has one)',
        security: [],
        responses: { '200': page('HTML page') },
      },
    },
    '/w/{workspace}/': {
      get: {
        summary: "The web UI on a workspace: the same page, calling that workspace's routes",
        security: [],
        parameters: [WORKSPACE_PARAMETER],
        responses: { '200': page('HTML page') },
      },
    },
    '/w/{workspace}': {
      get: {
        summary: 'Redirects to /w/{workspace}/ (the web UI reads its workspace from the address)',
        security: [],
        parameters: [WORKSPACE_PARAMETER],
        responses: { '308': { description: 'Location: /w/{workspace}/' } },
      },
    },
    '/ui/viewer.css': {
      get: { summary: "The graph viewer's style sheet", security: [], responses: { '200': asset('text/css') } },
    },
    '/ui/{asset}': {
      get: {
        summary: "The web UI's bundle (app.js, app.css; built by npm run build)",
        security: [],
        parameters: [{ name: 'asset', in: 'path', required: true, schema: { enum: ['app.js', 'app.css'] } }],
        responses: {
          '200': asset('text/javascript or text/css'),
          '404': error("Not one of the bundle's files, or the web UI is not built"),
        },
      },
    },
    '/workspaces': {
      get: {
        summary:
          'The workspaces this token reaches (and no others): default is whether the plain routes are reachable; each named workspace is served under its path',
        responses: {
          '200': ok('{default, workspaces: [{name, path}]}', {
            type: 'object',
            properties: {
              default: { type: 'boolean' },
              workspaces: {
                type: 'array',
                items: { type: 'object', properties: { name: { type: 'string' }, path: { type: 'string' } } },
              },
            },
          }),
          '401': STANDARD_ERRORS['401'],
        },
      },
    },
    '/ui/graph': {
      get: {
        summary: "The web UI graph viewer's data for the live index (what `export --format html` embeds)",
        parameters: [
          {
            name: 'level',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 0 },
            description: 'Community level to colour by (default: the deepest)',
          },
        ],
        responses: {
          '200': ok('{nodes, edges, communities, …}'),
          '400': error('level is not a whole number'),
          '401': STANDARD_ERRORS['401'],
        },
      },
    },
    '/ui/passages': {
      get: {
        summary:
          'The passages an entity was extracted from, or one cited passage, each with its document title (at most 10; total says how many)',
        parameters: [
          { name: 'entity', in: 'query', required: false, schema: { type: 'string' }, description: 'An entity title' },
          {
            name: 'text_unit',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'A text unit id (instead of entity)',
          },
          {
            name: 'source',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: 'A cited source id (the human-readable id of `Sources 12`), instead of entity',
          },
        ],
        responses: {
          '200': ok('{total, passages: [{id, human_readable_id, document, text}]}', {
            type: 'object',
            properties: {
              total: { type: 'integer' },
              passages: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'string' },
                    human_readable_id: { type: 'integer' },
                    document: { type: 'string' },
                    text: { type: 'string' },
                  },
                },
              },
            },
          }),
          '400': error('None of entity, text_unit or source given'),
          '401': STANDARD_ERRORS['401'],
          '404': error('No such entity or source, or the index has no such table yet'),
        },
      },
    },
    '/ui/stats': {
      get: {
        summary: "The last index run's stats.json (run time, workflows, model calls and cost); null before any run",
        responses: { '200': ok('{stats}'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/v1/chat/completions': {
      post: {
        summary:
          'OpenAI-compatible chat: the last user message is answered by a query; model graphrag-<method> picks the method',
        requestBody: zodBody(CHAT),
        responses: {
          '200': {
            description: 'chat.completion, or chat.completion.chunk events',
            content: { ...json({ type: 'object' }), ...sse },
          },
          ...STANDARD_ERRORS,
        },
      },
    },
    '/v1/models': {
      get: {
        summary: 'The graphrag-<method> model names',
        responses: { '200': ok('OpenAI model list'), '401': STANDARD_ERRORS['401'] },
      },
    },
    // Ours: graph curation (docs/entity-resolution.md): each edit is a curation.yaml rule, applied by the next update.
    '/graph/entities/merge': {
      post: {
        summary: 'Merge entity `from` into `into` (a curation.yaml rule; names matched after normalisation)',
        parameters: [CURATION_UPDATE],
        requestBody: zodBody(MERGE),
        responses: CURATION_RESPONSES,
      },
    },
    '/graph/entities/{title}': {
      patch: {
        summary: 'Rename an entity (`title`) and/or set its type (`type`), as curation.yaml rules',
        parameters: [{ name: 'title', in: 'path', required: true, schema: { type: 'string' } }, CURATION_UPDATE],
        requestBody: zodBody(PATCH),
        responses: CURATION_RESPONSES,
      },
      delete: {
        summary: 'Delete an entity and its relationships (a curation.yaml rule)',
        parameters: [{ name: 'title', in: 'path', required: true, schema: { type: 'string' } }, CURATION_UPDATE],
        responses: CURATION_RESPONSES,
      },
    },
    '/graph/relationships': {
      post: {
        summary: 'Add a relationship between two entities (a curation.yaml rule; joins an existing pair)',
        parameters: [CURATION_UPDATE],
        requestBody: zodBody(RELATE),
        responses: CURATION_RESPONSES,
      },
    },
    '/graph/relationships/{source}/{target}': {
      delete: {
        summary: 'Delete the relationship between two entities, either direction (a curation.yaml rule)',
        parameters: [
          { name: 'source', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'target', in: 'path', required: true, schema: { type: 'string' } },
          CURATION_UPDATE,
        ],
        responses: CURATION_RESPONSES,
      },
    },
  },
} as const

/** Routes of the server itself; every other path is a project's, served for each workspace too. */
const SERVER_PATHS = new Set([
  '/health',
  '/',
  '/w/{workspace}/',
  '/w/{workspace}',
  '/ui/viewer.css',
  '/ui/{asset}',
  '/docs',
  '/docs/style.css',
  '/openapi.json',
  '/workspaces',
])

type PathItem = Record<string, { parameters?: readonly unknown[]; responses: Record<string, unknown> }>

/** A project route as served under /w/{workspace}: the workspace parameter, and the 404 of a name the token does not reach. */
function workspaceCopies(paths: Record<string, PathItem>): Record<string, PathItem> {
  const copies = Object.entries(paths)
    .filter(([path]) => !SERVER_PATHS.has(path))
    .map(([path, item]) => {
      const operations = Object.entries(item).map(([method, op]) => [
        method,
        {
          ...op,
          parameters: [WORKSPACE_PARAMETER, ...(op.parameters ?? [])],
          responses: { ...op.responses, '404': error(notFound(op.responses['404'])) },
          'x-workspace-of': path,
        },
      ])
      return [`/w/{workspace}${path}`, Object.fromEntries(operations) as PathItem]
    })
  return Object.fromEntries(copies)
}

function notFound(own: unknown): string {
  const workspace = 'no such workspace for this token (one it does not reach gets the same reply)'
  const description = (own as { description?: string } | undefined)?.description
  return description === undefined ? `N${workspace.slice(1)}` : `${description}, or ${workspace}`
}

export const OPENAPI = {
  ...DOCUMENT,
  paths: { ...DOCUMENT.paths, ...workspaceCopies(DOCUMENT.paths as unknown as Record<string, PathItem>) },
}
