// Part of `npm run build` (after tsc): writes the rank tables of the encodings current models use to
// dist/llm/bpe/tables/<encoding>.bin, so the tokenizer starts by reading one file instead of parsing
// tiktoken's rank data (src/llm/bpe/rank-table.ts has the layout). Other encodings are built in
// memory on first use.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildRankTable, rankTableFile, readEncoderJson, serializeRankTable } from '../dist/llm/bpe/rank-table.js'

for (const encoding of ['o200k_base', 'cl100k_base']) {
  const file = fileURLToPath(rankTableFile(encoding))
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, serializeRankTable(buildRankTable(readEncoderJson(encoding))))
}
