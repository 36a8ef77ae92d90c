/** Numbers names 0, 1, 2, … in order of first appearance: `idOf` gives a name's number, `names` the names by number. */
export function nameNumbering(): { readonly names: string[]; idOf(name: string): number } {
  const ids = new Map<string, number>()
  const names: string[] = []
  return {
    names,
    idOf(name: string): number {
      let id = ids.get(name)
      if (id === undefined) {
        id = names.length
        ids.set(name, id)
        names.push(name)
      }
      return id
    },
  }
}
