/** How graph search shows a source reached through the chunk graph, in the offline context and after an answer. */

/** `↳ related: "requires the auth setup" (depends_on), from Source 3`; a reversed edge says so. */
export function formatRelated(
  link: string | number,
  relation: string | number,
  direction: string | number,
  from: string | number,
): string {
  return `↳ related: "${link}" (${relation}${direction === 'incoming' ? ', reversed' : ''}), from Source ${from}`
}
