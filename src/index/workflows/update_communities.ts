/**
 * Workflow update_communities: the merged graph was re-clustered by create_communities, starting from
 * the previous communities (unlike the reference, which appends the delta's communities); this records
 * how many communities kept exactly the same members (communities_unchanged: same members, same
 * number), which is what lets their reports be reused; communities_changed counts those that kept
 * their members under another number (none, as create_communities keeps their numbers).
 */
import { COMMUNITIES } from '../../model/communities.js'
import { pickColumns } from '../../model/schema.js'
import { membersKey } from '../operations/community-continuity.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

/** Only the columns compared. */
const MEMBERSHIP = pickColumns(COMMUNITIES, ['community', 'level', 'entity_ids'])

export const updateCommunities = defineWorkflow({
  name: 'update_communities',
  reads: [COMMUNITIES.name],
  writes: [],
  async run(ctx) {
    const members = (c: { level: number; entity_ids: readonly string[] | null }) =>
      membersKey(c.level, c.entity_ids ?? [])
    const number = (c: { community: number }) => String(c.community)
    return {
      summary: diffSummary(
        'communities',
        diffKeyed(await previousRows(ctx, MEMBERSHIP), await currentRows(ctx, MEMBERSHIP), members, number),
      ),
    }
  },
})
