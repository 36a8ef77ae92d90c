/** Settings of `graphrag eval` (ours, not in Microsoft GraphRAG): the judge model and the retrieval cut-off. */
import { int, optionalStr, section } from '../fields.js'

export const evalSettings = section(
  {
    judge_model_id: optionalStr(
      'Chat model id from completion_models that judges answers (correctness, completeness, pairwise win rates, assertions); null = retrieval, cost and latency metrics only.',
    ),
    top_k: int(10, 'Passages of each context that evidence recall@k counts (MRR reads them all).', {
      min: 1,
      max: 1_000_000,
    }),
  },
  'Answer evaluation (graphrag only): `graphrag eval`.',
)
