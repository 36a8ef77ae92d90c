/**
 * The rerank stage of hybrid search (the Evolution RAG design's RERANK_ENABLED / RERANK_ALPHA, with
 * a real reranker behind it): the top candidates are scored against the question by a reranker
 * endpoint, or offline by lexical overlap when no endpoint is configured.
 */
import { bool, int, num, oneOf, optionalStr, section } from '../fields.js'

export const rerank = section(
  {
    enabled: bool(false, 'Rerank the top hybrid candidates (the design default is off).'),
    api_base: optionalStr(
      'Reranker server (POST {api_base}/rerank); null = the offline lexical reranker (share of the question words each passage contains).',
      { example: 'https://api.cohere.com/v2' },
    ),
    protocol: oneOf(
      ['cohere', 'tei'],
      'cohere',
      'Request shape: cohere ({model, query, documents, top_n} → results[].relevance_score; also Jina, Voyage, vLLM) or tei (Hugging Face text-embeddings-inference: {query, texts} → [{index, score}]).',
    ),
    model: optionalStr('Reranker model name sent with each request (null = none, e.g. for TEI).', {
      example: 'rerank-v3.5',
    }),
    api_key: optionalStr('API key, sent as a bearer token; use ${RERANK_API_KEY} and keep the key in .env.'),
    top_n: int(20, 'Candidates (best composite first) sent to the reranker.', { min: 1, max: 10_000 }),
    weight: num(0.5, 'final_score = (1 − weight) × composite + weight × rerank score ÷ the best rerank score.', {
      min: 0,
      max: 1,
    }),
    request_timeout: num(30, 'Seconds before a rerank request is abandoned and retried.', { min: 1, max: 3600 }),
    max_retries: int(2, 'Retries of a rerank request after a timeout, 429 or 5xx.', { min: 0, max: 100 }),
  },
  'Rerank stage of hybrid search (graphrag only).',
)
