/**
 * The end-of-sequence suffix of the Evolution RAG design (EMBEDDING_APPEND_EOS / EMBEDDING_EOS_TOKEN):
 * keys of an embedding_models entry. Chat models accept and ignore them (they share the model shape).
 */
import { bool, str } from '../fields.js'

export const embeddingEos = {
  append_eos: bool(
    false,
    'Embedding models only: append eos_token to every text before it is embedded (index and query alike), for backends that expect an explicit end token. Changes the vectors, so cached and reused vectors are not shared with runs without it.',
  ),
  eos_token: str('', 'The token append_eos appends (blank = a newline); it must exist in the model vocabulary.'),
}
