/** Settings of `graphrag serve` (ours, not in Microsoft GraphRAG): address, limits, web-page safety and the query-side caches. */
import { bool, int, section, str, strList, strMap } from '../fields.js'

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
    max_upload_bytes: int(
      52428800,
      'Largest upload to POST /documents, all files together (bigger ones get 413; default 50 MiB).',
      { min: 1024, max: 68_719_476_736 },
    ),
    max_upload_expanded_bytes: int(
      268435456,
      'Largest uncompressed size a .docx/.xlsx upload may declare (zip bombs get 413; default 256 MiB).',
      { min: 1024, max: 68_719_476_736 },
    ),
    auto_update: bool(
      false,
      'Start an update job after POST /documents and DELETE /documents/{id} (the request can say ?update=true|false).',
    ),
    allowed_hosts: strList(
      [],
      'Host names accepted in the Host header besides IP addresses, localhost and the bound host (DNS-rebinding guard).',
      { nullMeansDefault: true, example: ['graphrag.example.internal'] },
    ),
    cors_origins: strList(
      [],
      'Web origins allowed to call the API from a browser (CORS), e.g. http://localhost:5173; empty = none.',
      { nullMeansDefault: true, example: ['http://localhost:5173'] },
    ),
    ingest_roots: strList(
      [],
      'Folders POST /ingest may read a `path` from (absolute, or relative to the project root); empty = ingest by path is refused.',
      { nullMeansDefault: true, example: ['/srv/shared-documents'] },
    ),
    embedding_cache_size: int(1000, 'Questions whose embedding is kept in memory (0 = no cache).', {
      min: 0,
      max: 1_000_000,
    }),
    answer_cache_size: int(200, 'Answers kept in memory, by question and query settings (0 = no cache).', {
      min: 0,
      max: 1_000_000,
    }),
    // The seed API's behaviours (docs/seeds.md): its ingest default and its error `trace`.
    ingest_incremental: bool(
      true,
      "What POST /ingest does when the request does not say `incremental`: true = an update of the existing index, false = a full index run (the seed design's default).",
    ),
    debug_errors: bool(
      false,
      'Error replies also carry `trace`: the stack frames of the failure (never its message or settings), for debugging a server you run yourself.',
    ),
    // Workspaces (docs/workspaces.md): other projects served beside this one, each under /w/{name}/.
    workspaces: strMap(
      {},
      'Other projects this serve hosts, name: root (relative to this project); each is served under /w/{name}/ with its own token GRAPHRAG_SERVER_TOKEN_<NAME>. Read from the serve root only.',
    ),
  },
  'HTTP API (graphrag only): `graphrag serve`.',
)
