/** Settings of `graphrag serve` (ours, not in Microsoft GraphRAG): address, limits and the query-side caches. */
import { int, section, str } from '../fields.js'

export const server = section(
  {
    host: str(
      '127.0.0.1',
      'Address to bind when --host is not given; any other than loopback needs GRAPHRAG_SERVER_TOKEN.',
    ),
    port: int(8010, 'Port to listen on when --port is not given.', { min: 0, max: 65_535 }),
    max_body_bytes: int(1048576, 'Largest request body accepted (bigger ones get 413).', {
      min: 1024,
      max: 1_073_741_824,
    }),
    embedding_cache_size: int(1000, 'Questions whose embedding is kept in memory (0 = no cache).', {
      min: 0,
      max: 1_000_000,
    }),
    answer_cache_size: int(200, 'Answers kept in memory, by question and query settings (0 = no cache).', {
      min: 0,
      max: 1_000_000,
    }),
  },
  'HTTP API (graphrag only): `graphrag serve`.',
)
