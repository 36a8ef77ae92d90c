/** Inputs, storage, chunking, cache, reporting, tables and vector store. */
import { freeMap, int, mapOf, oneOf, optionalStr, section, str, strList } from '../fields.js'

export const INPUT_TYPES = ['text', 'csv', 'json', 'jsonl', 'parquet', 'markitdown'] as const

export const input = section({
  type: oneOf(INPUT_TYPES, 'text', 'Input file type.'),
  encoding: optionalStr('Text encoding of input files (null = utf-8).'),
  file_pattern: optionalStr('Regular expression selecting input files (null = by type, e.g. .*\\.txt$).'),
  id_column: optionalStr('Column holding document ids (null = SHA-512 of the text). Dot paths reach nested fields.'),
  title_column: optionalStr('Column holding document titles (null = file path).'),
  text_column: optionalStr('Column holding the text (null = "text").'),
})

const storageShape = {
  type: oneOf(['file', 'memory'], 'file', 'Storage kind.'),
  base_dir: str('', 'Folder, relative to the project root.'),
  encoding: optionalStr('Text encoding (null = utf-8).', { hidden: true }),
  connection_string: optionalStr('Accepted for compatibility (blob/cosmos storage are not supported).', { hidden: true }),
  container_name: optionalStr('Accepted for compatibility.', { hidden: true }),
  account_url: optionalStr('Accepted for compatibility.', { hidden: true }),
  database_name: optionalStr('Accepted for compatibility.', { hidden: true }),
}

function storage(baseDir: string, description: string) {
  const s = section(storageShape, description)
  return { ...s, default: { ...s.default, base_dir: baseDir }, parse: withDefaultBaseDir(s.parse, baseDir) }
}

function withDefaultBaseDir<T extends { base_dir: string }>(parse: (raw: unknown, path: string, issues: { errors: string[]; warnings: string[] }) => T, baseDir: string) {
  return (raw: unknown, path: string, issues: { errors: string[]; warnings: string[] }): T => {
    const parsed = parse(raw, path, issues)
    return parsed.base_dir === '' ? { ...parsed, base_dir: baseDir } : parsed
  }
}

export const inputStorage = storage('input', 'Where input documents are read from.')
export const outputStorage = storage('output', 'Where the index tables are written.')
export const updateOutputStorage = storage('update_output', 'Where `graphrag update` keeps the previous index and the delta.')

export const chunking = section({
  type: oneOf(['tokens', 'sentence'], 'tokens', 'tokens: fixed token windows; sentence: one chunk per sentence.'),
  encoding_model: str('o200k_base', 'tiktoken encoding used for chunk sizes and n_tokens.'),
  size: int(1200, 'Tokens per chunk.', { min: 1 }),
  overlap: int(100, 'Tokens shared by consecutive chunks.', { min: 0 }),
  prepend_metadata: strList(null, 'Document fields written as "key: value." lines before each chunk (e.g. [title]).'),
})

export const tableProvider = section({
  type: oneOf(['parquet'], 'parquet', 'Table format (Parquet, Microsoft GraphRAG v3 schema).'),
  container_name: optionalStr('Accepted for compatibility.', { hidden: true }),
  legacy_container: optionalStr('Accepted for compatibility.', { hidden: true }),
  batch_size: int(50, 'Accepted for compatibility.', { min: 1, hidden: true }),
})

export const cache = section({
  type: oneOf(['json', 'memory', 'none'], 'json', 'json: files under storage.base_dir; memory: this run only; none: no cache.'),
  storage: storage('cache', 'Where cache entries are stored.'),
})

export const reporting = section({
  type: oneOf(['file'], 'file', 'Log destination.'),
  base_dir: str('logs', 'Folder for indexing-engine.log, relative to the project root.'),
  connection_string: optionalStr('Accepted for compatibility.', { hidden: true }),
  container_name: optionalStr('Accepted for compatibility.', { hidden: true }),
  account_url: optionalStr('Accepted for compatibility.', { hidden: true }),
})

const indexSchemaShape = {
  index_name: optionalStr('Table name in the vector store (null = the embedding name).'),
  id_field: str('id', 'Id column.'),
  vector_field: str('vector', 'Vector column.'),
  vector_size: int(0, 'Vector dimension (0 = vector_store.vector_size).', { min: 0 }),
  fields: freeMap('Extra fields.', { hidden: true }),
}

export const vectorStore = section({
  type: oneOf(['lancedb'], 'lancedb', 'Vector store kind.'),
  db_uri: str('output/lancedb', 'LanceDB folder, relative to the project root.'),
  vector_size: int(3072, 'Embedding dimension; a mismatch with the model fails fast.', { min: 1 }),
  index_schema: mapOf(indexSchemaShape, 'Per-embedding table settings (entity_description, community_full_content, text_unit_text).'),
  url: optionalStr('Accepted for compatibility.', { hidden: true }),
  api_key: optionalStr('Accepted for compatibility.', { hidden: true }),
  audience: optionalStr('Accepted for compatibility.', { hidden: true }),
  connection_string: optionalStr('Accepted for compatibility.', { hidden: true }),
  database_name: optionalStr('Accepted for compatibility.', { hidden: true }),
})
