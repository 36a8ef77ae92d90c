/**
 * Encodes a long text piece by piece with the tokens of whole-text encoding, so a huge document never
 * passes through the tokenizer at once (tiktoken's WebAssembly memory grows to several times the text
 * it is given and never shrinks: a 200 MB one-line text took 3.4 GB to chunk).
 *
 * Why a cut is exact: every tiktoken encoding (gpt2 … o200k) first splits the text with a regex that
 * has no look-behind, then encodes each match on its own. Matches are contiguous and each depends only
 * on the text from where it starts (plus one character of look-ahead). A position is therefore a safe
 * cut when the whole text's matching always ends a match there and that match's alternatives cannot
 * tell the next character from the end of the text. Two kinds of position are such cuts:
 * - a space (U+0020) after a character that is not whitespace: no alternative both starts before the
 *   space and takes it (runs of letters, digits and punctuation stop at whitespace; whitespace runs
 *   need whitespace before it), and the ones that look at it (`(?!\S)`, `[\r\n]*`) treat a space and
 *   the end of the text alike;
 * - "。" or "，" after a CJK ideograph (a letter since Unicode 1.1): letter runs stop at punctuation,
 *   and the optional punctuation prefix of a letter run only ever precedes letters.
 * JavaScript's `\s` includes every Unicode White_Space character (and U+FEFF), so `\S` below only
 * accepts characters that the encoders' regex also treats as non-whitespace.
 */
import type { Tokenizer } from '../../llm/tokenizer.js'

/** Characters per piece handed to the tokenizer (the piece ends at the next safe cut after this). */
const PIECE_LENGTH = 1 << 20

const SAFE_CUT = /\S(?= )|[\u4E00-\u9FFF](?=[\u3002\uFF0C])/g

/**
 * The first safe cut at or after `from` (the index of the character that starts the next piece), or
 * `text.length` when there is none.
 */
export function nextSafeCut(text: string, from: number): number {
  SAFE_CUT.lastIndex = Math.max(0, from - 1)
  const match = SAFE_CUT.exec(text)
  return match === null ? text.length : match.index + 1
}

/** The tokens of `text`, in pieces of about `pieceLength` characters; concatenated they equal `encode(text)`. */
export function* encodeInPieces(
  text: string,
  tokenizer: Tokenizer,
  pieceLength: number = PIECE_LENGTH,
): Generator<Uint32Array> {
  let start = 0
  while (start < text.length) {
    const end = text.length - start <= pieceLength ? text.length : nextSafeCut(text, start + pieceLength)
    yield tokenizer.encode(text.slice(start, end))
    start = end
  }
}

/**
 * Whether a safe cut of the first kind lies before token `i` of `tokens`: the token starts with a space
 * and the one before ends with an ASCII character that is not whitespace. ASCII bytes never sit inside
 * a multi-byte character, so the cut is also a character boundary of the tokens' decoded text.
 */
function safeCutBefore(tokens: Uint32Array, i: number, tokenizer: Tokenizer): boolean {
  if (tokenizer.tokenBytes(tokens[i]!)[0] !== 0x20) return false
  const before = tokenizer.tokenBytes(tokens[i - 1]!)
  const last = before[before.length - 1]!
  return last > 0x20 && last < 0x7f
}

/**
 * `tokenizer.count(prefix + tokenizer.decode(window))` for a window of a text's tokens (as encoding the
 * whole text gives them), without encoding the window's text again. Between its first and last safe
 * cut, the window's text encodes to the window's own tokens (the text's encoding cut at the same safe
 * cuts), so only the head (after the prefix) and the tail are encoded; a window without a safe cut is
 * encoded whole. Decoding the three parts apart gives the same text: the cuts are at ASCII bytes.
 */
export function countDecodedWindow(prefix: string, window: Uint32Array, tokenizer: Tokenizer): number {
  let first = 1
  while (first < window.length && !safeCutBefore(window, first, tokenizer)) first++
  if (first >= window.length) return tokenizer.count(prefix + tokenizer.decode(window))
  let last = window.length - 1
  // Stops at `first` at the latest, which is a cut.
  while (!safeCutBefore(window, last, tokenizer)) last--
  const head = tokenizer.count(prefix + tokenizer.decode(window.subarray(0, first)))
  return head + (last - first) + tokenizer.count(tokenizer.decode(window.subarray(last)))
}
