/**
 * Workflow update_communities: the merged graph was re-clustered by create_communities (unlike the
 * reference, which appends the delta's communities); this records how many communities kept
 * exactly the same members, which is what lets their reports be reused.
 */
import { COMMUNITIES } from '../../model/communities.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { NO_MODELS, type Workflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

export const updateCommunities: Workflow = {
  name: 'update_communities',
  reads: [COMMUNITIES.name],
  writes: [],
  fingerprint: () => ({}),
  models: () => NO_MODELS,
  prompts: () => [],
  async run(ctx) {
    const members = (c: { level: number; entity_ids: readonly string[] | null }) =>
      `${c.level}\u0000${[...(c.entity_ids ?? [])].sort().join(',')}`
    return {
      summary: diffSummary(
        'communities',
        diffKeyed(await previousRows(ctx, COMMUNITIES), await currentRows(ctx, COMMUNITIES), members, members),
      ),
    }
  },
}
