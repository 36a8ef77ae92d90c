// `npm run bench:tokenizer`: the tokenizer (src/llm/bpe, TypeScript BPE over a prebuilt rank table)
// against tiktoken's wasm encoder, which it replaced, measured the same way in the same run:
//   start-up: creating the encoder, from a fresh process (what every command pays once)
//   encode:   10 MB of text in one call and in 4 KB pieces (MB/s), and `'a'.repeat(50_000)`
//   decode:   the 10 MB of tokens back to text (MB/s)
// Each (library, encoding) runs in a process of its own; both must give the same tokens (checked by a
// hash of the token array). The text: ../shared/corpora and fixtures/ (lines shuffled per copy, seeded)
// up to 10 MB. `node bench/tokenizer.mjs [MB]` after `npm run build`.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const [, , first, encoding] = process.argv

if (first === '--child') {
  const lib = process.argv[4]
  const megabytes = Number(process.argv[5])
  const text = corpus(megabytes * 1e6)
  const started = performance.now()
  let encode
  let decode
  if (lib === 'tiktoken') {
    const { get_encoding } = await import('tiktoken')
    const enc = get_encoding(encoding)
    const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
    encode = (t) => enc.encode_ordinary(t)
    decode = (tokens) => utf8.decode(enc.decode(tokens))
  } else {
    const { getTokenizer } = await import(join(root, 'dist', 'llm', 'tokenizer.js'))
    const tokenizer = getTokenizer(encoding)
    encode = (t) => tokenizer.encode(t)
    decode = (tokens) => tokenizer.decode(tokens)
  }
  encode('warm')
  const startup = performance.now() - started
  const bytes = Buffer.byteLength(text) / 1e6
  let t = performance.now()
  const tokens = encode(text)
  const whole = bytes / ((performance.now() - t) / 1000)
  t = performance.now()
  let pieces = 0
  for (let i = 0; i < text.length; i += 4096) pieces += encode(text.slice(i, i + 4096)).length
  const piecewise = bytes / ((performance.now() - t) / 1000)
  t = performance.now()
  const back = decode(tokens)
  const decoding = bytes / ((performance.now() - t) / 1000)
  if (back !== text) throw new Error(`${lib} ${encoding}: decode(encode(text)) is not the text`)
  t = performance.now()
  encode('a'.repeat(50_000))
  const run = performance.now() - t
  const hash = createHash('sha256').update(new Uint32Array(tokens)).digest('hex').slice(0, 12)
  console.log(JSON.stringify({ startup, whole, piecewise, decoding, run, tokens: tokens.length, pieces, hash }))
  process.exit(0)
}

/** Seeded shuffle of the corpus lines, repeated up to `size` characters. */
function corpus(size) {
  const files = []
  const shared = resolve(root, '..', 'shared', 'corpora')
  if (existsSync(shared)) for (const name of readdirSync(shared)) files.push(join(shared, name))
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(txt|md)$/.test(name)) files.push(path)
    }
  }
  walk(join(root, 'fixtures'))
  const lines = files.flatMap((file) => readFileSync(file, 'utf8').split('\n'))
  let seed = 7
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  let text = ''
  while (text.length < size) {
    const copy = [...lines]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j], copy[i]]
    }
    text += `${copy.join('\n')}\n`
  }
  return text.slice(0, size)
}

const megabytes = Number(first ?? 10)
console.log(`tokenizer: ${megabytes} MB of text, each library and encoding in a fresh process`)
console.log(
  `${'encoding'.padEnd(12)} ${'library'.padEnd(9)} ${'start-up'.padStart(9)} ${'1 call'.padStart(11)} ${'4 KB'.padStart(11)} ${'decode'.padStart(11)} ${'a×50k'.padStart(9)}  tokens`,
)
let failed = false
for (const enc of ['o200k_base', 'cl100k_base']) {
  const results = {}
  for (const lib of ['tiktoken', 'ours']) {
    const child = spawnSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', enc, lib, String(megabytes)],
      {
        encoding: 'utf8',
        maxBuffer: 1e6,
      },
    )
    if (child.status !== 0) throw new Error(child.stderr)
    const r = JSON.parse(child.stdout)
    results[lib] = r
    const mbs = (v) => `${v.toFixed(2)} MB/s`.padStart(11)
    console.log(
      `${enc.padEnd(12)} ${lib.padEnd(9)} ${`${r.startup.toFixed(0)} ms`.padStart(9)} ${mbs(r.whole)} ${mbs(r.piecewise)} ${mbs(r.decoding)} ${`${r.run.toFixed(0)} ms`.padStart(9)}  ${r.tokens} (${r.hash})`,
    )
  }
  const { tiktoken, ours } = results
  if (tiktoken.hash !== ours.hash || tiktoken.pieces !== ours.pieces) {
    console.log(`${enc}: the tokens DIFFER`)
    failed = true
  }
  console.log(
    `${enc.padEnd(12)} ours/tiktoken: start-up ${(ours.startup / tiktoken.startup).toFixed(2)}×, encode ${(ours.whole / tiktoken.whole).toFixed(2)}× (1 call) ${(ours.piecewise / tiktoken.piecewise).toFixed(2)}× (4 KB), decode ${(ours.decoding / tiktoken.decoding).toFixed(2)}×`,
  )
}
if (failed) process.exitCode = 1
