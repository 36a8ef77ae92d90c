/**
 * Which documents an update adds, edits and deletes: documents are matched by title, and an id (the
 * content hash) that differs under the same title is an edit. Computed once per update (run/update.ts)
 * and handed to the workflows that report it.
 */

export interface DocumentChanges {
  added: string[]
  edited: string[]
  deleted: string[]
  unchanged: number
}

type Document = { readonly title: string; readonly id: string }

/** The titles added, edited and deleted (each sorted) between `previous` and `current`. */
export function documentChanges(previous: readonly Document[], current: readonly Document[]): DocumentChanges {
  const before = new Map(previous.map((d) => [d.title, d.id]))
  const changes: DocumentChanges = { added: [], edited: [], deleted: [], unchanged: 0 }
  const titles = new Set<string>()
  for (const doc of current) {
    titles.add(doc.title)
    const id = before.get(doc.title)
    if (id === doc.id) changes.unchanged++
    else (id === undefined ? changes.added : changes.edited).push(doc.title)
  }
  changes.deleted = [...before.keys()].filter((t) => !titles.has(t)).sort()
  changes.added.sort()
  changes.edited.sort()
  return changes
}

export function hasChanges(changes: DocumentChanges): boolean {
  return changes.added.length + changes.edited.length + changes.deleted.length > 0
}
