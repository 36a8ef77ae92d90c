/** /openapi.json: the HTTP API described as OpenAPI 3.1, written as data (a test checks every route is here). */
import { API_VERSION } from './diagnostics.js'

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } })
const sse = { 'text/event-stream': { schema: { type: 'string' } } }
const error = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) })
const body = (schema: Record<string, unknown>) => ({ required: true, content: json(schema) })
const ok = (description: string, schema: Record<string, unknown> = { type: 'object' }) => ({
  description,
  content: json(schema),
})
const STANDARD_ERRORS = {
  '400': error('Bad JSON or a missing/invalid field (the message names it)'),
  '401': error('Missing or wrong bearer token'),
  '413': error('Body too large'),
}

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'graphrag serve',
    version: API_VERSION,
    description: 'Queries, index jobs and diagnostics over a graphrag project.',
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
        },
      },
      Query: {
        type: 'object',
        required: ['question'],
        properties: {
          question: { type: 'string' },
          method: { enum: ['local', 'global', 'drift', 'basic', 'graph', 'hybrid'], default: 'global' },
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
      QueryResult: {
        description:
          'local/global/drift/basic/graph: {method, response, context, usage, warnings?}; hybrid: {answer, sources, references, entities, warnings, usage}',
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
          ...STANDARD_ERRORS,
        },
      },
    },
    '/ranking/preview': {
      post: {
        summary:
          "Hybrid search's ranking table (signals, fused score, bonuses, why included) without asking for an answer",
        requestBody: body({ type: 'object', required: ['question'], properties: { question: { type: 'string' } } }),
        responses: { '200': ok('{question, ranking, explain_text, entities, warnings, usage}'), ...STANDARD_ERRORS },
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
        summary:
          'Progress of a job as SSE: event: start, data: {stage, detail, current, total}…, event: result, data: {"stage":"done"} (or {"stage":"error","error"})',
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
    '/diagnostics': {
      get: {
        summary: 'Index, tables, vector tables, models, settings (masked), features',
        responses: { '200': ok('The report'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/cache/stats': {
      get: {
        summary: 'Sizes and hit rates of the query caches',
        responses: { '200': ok('{embeddings, answers}'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/cache/clear': {
      post: {
        summary: 'Empty the query caches',
        responses: { '200': ok('{cleared: true}'), '401': STANDARD_ERRORS['401'] },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', responses: { '200': ok('OpenAPI 3.1'), '401': STANDARD_ERRORS['401'] } },
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
              enum: [
                'graphrag-local',
                'graphrag-global',
                'graphrag-drift',
                'graphrag-basic',
                'graphrag-graph',
                'graphrag-hybrid',
              ],
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
  },
} as const
