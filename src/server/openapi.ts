/** /openapi.json: the HTTP API described as OpenAPI 3.1, written as data (a test checks every route is here). */
import { DOCUMENT_SORTS, DOCUMENT_STATUSES, MAX_PAGE } from './document-listing.js'
import { API_VERSION } from './diagnostics.js'
import { SEARCH_METHODS } from '../query/methods.js'

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } })
const sse = { 'text/event-stream': { schema: { type: 'string' } } }
const error = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) })
const body = (schema: Record<string, unknown>) => ({ required: true, content: json(schema) })
const ok = (description: string, schema: Record<string, unknown> = { type: 'object' }) => ({
  description,
  content: json(schema),
})
const STANDARD_ERRORS = {
  '400': error('Bad JSON, a body that is not an object, or a missing/invalid field (the message names it)'),
  '401': error('Missing or wrong bearer token'),
  '403': error(
    'Host not a name of this server (server.allowed_hosts), or a cross-origin request (server.cors_origins)',
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

export const OPENAPI = {
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
        description: 'Required when GRAPHRAG_SERVER_TOKEN is set (all paths but /health).',
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
      Query: {
        type: 'object',
        required: ['question'],
        properties: {
          question: { type: 'string' },
          method: { enum: [...SEARCH_METHODS], default: 'global' },
          community_level: { type: 'integer', minimum: 0, default: 2 },
          response_type: { type: 'string', default: 'Multiple Paragraphs' },
          dynamic_community_selection: { type: 'boolean', default: false },
          history: {
            type: 'array',
            items: {
              type: 'object',
              properties: { role: { enum: ['user', 'assistant'] }, content: { type: 'string' } },
            },
          },
          budget: {
            type: 'integer',
            minimum: 1,
            description:
              'lazy only: at most this many text units tested for relevance (default lazy_search.relevance_budget)',
          },
          context: {
            type: 'array',
            description: 'hybrid only: passages from outside the index (strings or {id, text}), citable in the answer',
            items: {
              oneOf: [
                { type: 'string' },
                {
                  type: 'object',
                  required: ['text'],
                  properties: { id: { type: 'string' }, text: { type: 'string' } },
                },
              ],
            },
          },
          stream: { type: 'boolean', default: false },
        },
      },
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
        requestBody: body({ type: 'object', required: ['question'], properties: { question: { type: 'string' } } }),
        responses: {
          '200': ok(
            '{question, ranking, explain_text, entities, warnings, degraded, usage}; each ranking row has our fields (vector, bm25, graph, fused, fused_norm, bonuses, composite, reason, why) and the seed API names: score_raw, base_norm (= fused_norm), bonus (sum of bonuses), composite_score (= composite), final_score (= composite), rel_type, rel_conf; degraded: a signal (vector, BM25, graph) was unavailable',
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    '/index': {
      post: {
        summary: 'Start an index job (one at a time)',
        requestBody: body({
          type: 'object',
          properties: {
            mode: {
              enum: ['index', 'update'],
              default: 'index',
              description: 'update: only new, edited and deleted documents (graphrag update)',
            },
            method: { enum: ['standard', 'fast'] },
          },
        }),
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
            'With refresh: default true; false is refused (relations are extracted with entities)',
          ),
          seedFlag(
            'progress',
            'Wait for the job; the answer carries its result and progress events (design stage names)',
          ),
          seedFlag('wait', 'Wait for the job; the answer carries its result'),
          seedFlag('checkpoint', 'Accepted as true (the default); false is refused'),
        ],
        requestBody: body({
          type: 'object',
          required: ['path'],
          properties: {
            path: { type: 'string', description: 'Absolute, or relative to the project root' },
            incremental: {
              type: 'boolean',
              description:
                'true: update (index when there is none yet); false: full index (default server.ingest_incremental, true; the query parameter wins)',
            },
            method: { enum: ['standard', 'fast'] },
          },
        }),
        responses: {
          '202': ok('{job, mode, stream, files, documents, skipped}'),
          '200': ok(
            'With progress or wait: the same, plus the result (files_processed, chunks_new, chunks_skipped, chunks_total, entities_created, relations_created, elapsed_sec, incremental, refresh, and the run figures) and with progress its events',
          ),
          '500': error('With progress or wait: the job failed'),
          ...STANDARD_ERRORS,
          '403': error('server.ingest_roots is empty, the path is outside it, or a Host/Origin guard refused'),
          '404': error('No such path inside the roots'),
          '409': error('A job is already running'),
        },
      },
    },
    '/ingest/stream': {
      get: {
        summary: `Progress of an ingest job, as /index/stream but with the seed design's stage names (stage: scan_input, hash_computed, entity_extraction, relates_to, relation_extraction, embedding_progress…; workflow: ours) and the result also as {"stage":"result","result":…}: ${JOB_STREAM_EVENTS}`,
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
        responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
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
          '400': error('Neither entity nor text_unit given'),
          '401': STANDARD_ERRORS['401'],
          '404': error('No such entity, or the index has no such table yet'),
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
        requestBody: body({
          type: 'object',
          required: ['model', 'messages'],
          properties: {
            model: {
              enum: SEARCH_METHODS.map((m) => `graphrag-${m}`),
            },
            messages: { type: 'array' },
            stream: { type: 'boolean' },
          },
        }),
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
        requestBody: body({
          type: 'object',
          required: ['from', 'into'],
          properties: { from: { type: 'string' }, into: { type: 'string' } },
        }),
        responses: CURATION_RESPONSES,
      },
    },
    '/graph/entities/{title}': {
      patch: {
        summary: 'Rename an entity (`title`) and/or set its type (`type`), as curation.yaml rules',
        parameters: [{ name: 'title', in: 'path', required: true, schema: { type: 'string' } }, CURATION_UPDATE],
        requestBody: body({ type: 'object', properties: { title: { type: 'string' }, type: { type: 'string' } } }),
        responses: CURATION_RESPONSES,
      },
      delete: {
        summary: 'Delete an entity and its relationships (a curation.yaml rule)',
        parameters: [{ name: 'title', in: 'path', required: true, schema: { type: 'string' } }, CURATION_UPDATE],
        responses: CURATION_RESPONSES,
      },
    },
  },
} as const
