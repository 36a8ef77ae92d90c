/**
 * An answer as the search methods write it: Markdown headings, bullet and numbered lists, **bold**,
 * and citations drawn as buttons. Everything is rendered as text nodes (never parsed as HTML), so a
 * model's reply cannot inject markup into the page.
 */
import type { ComponentChildren } from 'preact'
import { splitCitations, type Citation } from './citations.js'

export function Answer({ text, onCite }: { text: string; onCite: (citation: Citation) => void }) {
  const blocks = text.split(/\n{2,}/)
  return (
    <>
      {blocks.map((block, i) => (
        <Block key={i} text={block} onCite={onCite} />
      ))}
    </>
  )
}

function Block({ text, onCite }: { text: string; onCite: (citation: Citation) => void }) {
  const heading = /^(#{1,6})\s+(.*)$/s.exec(text.trim())
  if (heading !== null) {
    const Tag = heading[1]!.length <= 2 ? 'h4' : 'h5'
    return <Tag>{inline(heading[2]!, onCite)}</Tag>
  }
  const lines = text.split('\n')
  if (lines.every((l) => /^\s*([-*]|\d+\.)\s+/.test(l) || l.trim() === '')) {
    const items = lines.filter((l) => l.trim() !== '').map((l) => l.replace(/^\s*([-*]|\d+\.)\s+/, ''))
    const List = /^\s*\d+\./.test(lines[0]!) ? 'ol' : 'ul'
    return (
      <List>
        {items.map((item, i) => (
          <li key={i}>{inline(item, onCite)}</li>
        ))}
      </List>
    )
  }
  return <p>{inline(text, onCite)}</p>
}

/** **bold** and _emphasis_ runs, with citations inside any of them. */
function inline(text: string, onCite: (citation: Citation) => void): ComponentChildren[] {
  return text.split(/(\*\*[^*]+\*\*|\b_[^_\n]+_\b)/).map((run, i) => {
    if (/^\*\*[^*]+\*\*$/.test(run)) return <strong key={i}>{cited(run.slice(2, -2), onCite)}</strong>
    if (/^_[^_]+_$/.test(run)) return <em key={i}>{cited(run.slice(1, -1), onCite)}</em>
    return cited(run, onCite)
  })
}

function cited(text: string, onCite: (citation: Citation) => void): ComponentChildren[] {
  return splitCitations(text).map((part, i) =>
    typeof part === 'string' ? (
      part
    ) : (
      <button type="button" class="citation" key={i} onClick={() => onCite(part)}>
        {part.label}
      </button>
    ),
  )
}
