/** Inputs, storage, chunking, cache, reporting, tables and vector store. */
import { freeMap, ignored, int, mapOf, oneOf, optionalStr, section, str, strList } from '../fields.js'
import { TIKTOKEN_ENCODINGS } from '../../llm/encodings.js'

const INPUT_TYPES = [
  'text',
  'csv',
  'json',
  'jsonl',
  'parquet',
  'markitdown',
  'pdf',
  'docx',
  'xlsx',
  'html',
  'auto',
] as const

export const input = section({
  type: oneOf(
    INPUT_TYPES,
    'text',
    'Input file type (text, csv, json, jsonl, parquet, markitdown, pdf, docx, xlsx, html, or auto: each file read by its extension).',
  ),
  encoding: optionalStr('Text encoding of input files (null = utf-8).'),
  file_pattern: optionalStr('Regular expression selecting input files (null = by type, e.g. .*\\.txt$).'),
  id_column: optionalStr('Column holding document ids (null = SHA-512 of the text). Dot paths reach nested fields.'),
  title_column: optionalStr('Column holding document titles (null = file path).'),
  text_column: optionalStr(
    'Column holding the text (null = "text"; xlsx: null = one document per workbook, set = one per row).',
  ),
  max_unzipped_mb: int(
    256,
    'What one .docx or .xlsx file may expand to when unzipped, in MB; a larger one (a zip bomb) is skipped with a warning (graphrag only).',
    { min: 1, max: 1_048_576 },
  ),
})

const NOT_FILE_STORAGE = 'only cosmosdb storage uses it; graphrag stores files, blobs and S3 objects'

/** Where a storage setting's files live: a folder, an Azure Blob container or an S3 bucket (see docs/storage.md). */
const remoteShape = {
  connection_string: optionalStr(
    'Blob storage: Azure Storage connection string (account key or SAS; Azurite works too). Or use account_url.',
  ),
  container_name: optionalStr('Blob storage: the container holding the files.'),
  account_url: optionalStr(
    'Blob storage: account URL (https://<account>.blob.core.windows.net), signed in with the Azure credential chain.',
  ),
  bucket: optionalStr('S3 storage: the bucket holding the files.'),
  region: optionalStr('S3 storage: the bucket region (null = AWS_REGION, else us-east-1).'),
  endpoint_url: optionalStr('S3 storage: endpoint of an S3-compatible server (MinIO, R2, Ceph); null = AWS S3.'),
}

const storageShape = {
  type: oneOf(
    ['file', 'blob', 's3'],
    'file',
    'Storage kind: file (a folder), blob (Azure Blob Storage) or s3 (AWS S3 or an S3-compatible server).',
    { unsupported: ['memory', 'cosmosdb'] },
  ),
  base_dir: str(
    '',
    'Folder relative to the project root; for blob and s3, the key prefix inside the container or bucket.',
  ),
  encoding: ignored(
    optionalStr(
      'Text encoding of stored files. Not used: graphrag writes UTF-8 (input.encoding sets how input documents are read).',
    ),
    'stored files are UTF-8; input.encoding sets how input documents are read',
  ),
  ...remoteShape,
  database_name: ignored(
    optionalStr('Cosmos DB database. Not used (cosmosdb storage is not supported).'),
    NOT_FILE_STORAGE,
  ),
}

function storage(baseDir: string, description: string) {
  const s = section(storageShape, description)
  return { ...s, default: { ...s.default, base_dir: baseDir }, parse: withDefaultBaseDir(s.parse, baseDir) }
}

function withDefaultBaseDir<T extends { base_dir: string }>(
  parse: (raw: unknown, path: string, issues: { errors: string[]; warnings: string[] }) => T,
  baseDir: string,
) {
  return (raw: unknown, path: string, issues: { errors: string[]; warnings: string[] }): T => {
    const parsed = parse(raw, path, issues)
    return parsed.base_dir === '' ? { ...parsed, base_dir: baseDir } : parsed
  }
}

export const inputStorage = storage('input', 'Where input documents are read from.')
export const outputStorage = storage('output', 'Where the index tables are written.')
export const updateOutputStorage = storage(
  'update_output',
  'Where `graphrag update` keeps the previous index and the delta.',
)

export const chunking = section({
  type: oneOf(
    ['tokens', 'sentence'],
    'tokens',
    'How documents are split: tokens (fixed token windows) or sentence (one chunk per sentence).',
  ),
  encoding_model: oneOf(
    TIKTOKEN_ENCODINGS,
    'o200k_base',
    `tiktoken encoding used for chunk sizes and n_tokens (${TIKTOKEN_ENCODINGS.join(', ')}).`,
  ),
  size: int(1200, 'Tokens per chunk.', { min: 1, max: 10_000_000 }),
  overlap: int(100, 'Tokens shared by consecutive chunks.', { min: 0, max: 10_000_000 }),
  prepend_metadata: strList(null, 'Document fields written as "key: value." lines before each chunk (e.g. [title]).'),
})

export const tableProvider = section({
  type: oneOf(
    ['parquet'],
    'parquet',
    'Table format: parquet, Microsoft GraphRAG v3 schema (csv and cosmosdb are not supported).',
    { unsupported: ['csv', 'cosmosdb'] },
  ),
  container_name: ignored(
    optionalStr('Cosmos DB container. Not used (Parquet files only).'),
    'only the cosmosdb table provider uses it',
  ),
  legacy_container: ignored(
    optionalStr('Cosmos DB legacy container. Not used (Parquet files only).'),
    'only the cosmosdb table provider uses it',
  ),
  batch_size: ignored(
    int(50, 'Rows per write batch. Not used: each table is written in one piece.', { min: 1, max: 1_000_000 }),
    'each table is written in one piece',
  ),
})

export const cache = section({
  type: oneOf(
    ['json', 'memory', 'none'],
    'json',
    'Cache kind: json (files under storage.base_dir), memory (this run only) or none.',
  ),
  storage: storage('cache', 'Where cache entries are stored.'),
})

export const reporting = section({
  type: oneOf(
    ['file', 'blob', 's3'],
    'file',
    'Log destination: file (a folder), blob (Azure Blob Storage) or s3; the log is uploaded when a run ends.',
  ),
  base_dir: str('logs', 'Folder for indexing-engine.log, relative to the project root (blob, s3: key prefix).'),
  ...remoteShape,
})

const LANCEDB_COLUMNS = 'LanceDB tables always use the columns id and vector'

const indexSchemaShape = {
  index_name: optionalStr('Table name in the vector store (null = the embedding name).'),
  id_field: ignored(str('id', 'Id column. Only the default is supported: tables always use id.'), LANCEDB_COLUMNS),
  vector_field: ignored(
    str('vector', 'Vector column. Only the default is supported: tables always use vector.'),
    LANCEDB_COLUMNS,
  ),
  vector_size: int(0, 'Vector dimension (0 = vector_store.vector_size).', { min: 0, max: 100_000 }),
  fields: ignored(
    freeMap('Extra columns. Not used: tables hold id, vector and the creation date.'),
    'extra columns are not supported',
  ),
}

const NOT_LANCEDB = 'only azure_ai_search and cosmosdb vector stores use it; graphrag uses LanceDB'

export const vectorStore = section({
  type: oneOf(['lancedb'], 'lancedb', 'Vector store kind: lancedb (azure_ai_search and cosmosdb are not supported).', {
    unsupported: ['azure_ai_search', 'cosmosdb'],
  }),
  db_uri: str(
    'output/lancedb',
    'LanceDB folder, relative to the project root, or az://container/path or s3://bucket/path (credentials from output_storage). The default means lancedb/ inside output_storage.base_dir, wherever that is (a store too).',
  ),
  vector_size: int(3072, 'Embedding dimension; a mismatch with the model fails fast.', { min: 1, max: 100_000 }),
  index_schema: mapOf(
    indexSchemaShape,
    'Per-embedding table settings (entity_description, community_full_content, text_unit_text).',
    {
      example: { entity_description: { index_name: 'entity_description' } },
    },
  ),
  url: ignored(optionalStr('Azure AI Search URL. Not used (LanceDB only).'), NOT_LANCEDB),
  api_key: ignored(optionalStr('Azure AI Search key. Not used (LanceDB only).'), NOT_LANCEDB),
  audience: ignored(optionalStr('Azure AI Search audience. Not used (LanceDB only).'), NOT_LANCEDB),
  connection_string: ignored(optionalStr('Cosmos DB connection. Not used (LanceDB only).'), NOT_LANCEDB),
  database_name: ignored(optionalStr('Cosmos DB database. Not used (LanceDB only).'), NOT_LANCEDB),
})
