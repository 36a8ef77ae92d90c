/** The search box: matches entity titles as you type (prefix matches first); Enter opens the first. */
import { element } from './dom.js'

const MAX_MATCHES = 8

export function attachSearch(parent: HTMLElement, titles: readonly string[], select: (node: string) => void): void {
  const input = element('input', { id: 'search', type: 'search', placeholder: 'Search entities…', autocomplete: 'off' })
  const list = element('ul', { id: 'matches' })
  parent.append(input, list)
  const lower = titles.map((t) => t.toLowerCase())
  let matches: string[] = []
  const choose = (title: string): void => {
    input.value = title
    list.replaceChildren()
    select(title)
  }
  input.addEventListener('input', () => {
    const query = input.value.trim().toLowerCase()
    matches = query === '' ? [] : rank(titles, lower, query)
    list.replaceChildren(
      ...matches.map((title, i) => {
        const item = element('li', { textContent: title, className: i === 0 ? 'active' : '' })
        item.addEventListener('click', () => choose(title))
        return item
      }),
    )
  })
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && matches.length > 0) choose(matches[0]!)
  })
}

function rank(titles: readonly string[], lower: readonly string[], query: string): string[] {
  const exact: string[] = []
  const prefix: string[] = []
  const inside: string[] = []
  lower.forEach((title, i) => {
    if (title === query) exact.push(titles[i]!)
    else if (title.startsWith(query)) prefix.push(titles[i]!)
    else if (title.includes(query)) inside.push(titles[i]!)
  })
  return [...exact, ...prefix, ...inside].slice(0, MAX_MATCHES)
}
