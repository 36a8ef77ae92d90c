/**
 * The entity panel's corrections (docs/entity-resolution.md): rename, set the type, merge into another
 * entity or delete, each sent to the curation routes, which write a curation.yaml rule (audit log:
 * "http"). A rule is applied by the next update; "Apply now" starts one.
 */
import { element } from '../export/viewer/dom.js'
import type { ViewerNode } from '../export/viewer-data.js'
import { apiJson, postJson } from './api.js'

interface RuleReply {
  rules: Array<Record<string, unknown>>
}

type Edit = { label: string; placeholder: string; send: (title: string, value: string) => Promise<RuleReply> }

const entityPath = (title: string) => `/graph/entities/${encodeURIComponent(title)}`
const withBody = (method: string, body: unknown): RequestInit => ({ ...postJson(body), method })

const EDITS: Record<string, Edit> = {
  rename: {
    label: 'Rename',
    placeholder: 'new title',
    send: (title, to) => apiJson(entityPath(title), withBody('PATCH', { title: to })),
  },
  type: {
    label: 'Set type',
    placeholder: 'type (PERSON, …)',
    send: (title, type) => apiJson(entityPath(title), withBody('PATCH', { type })),
  },
  merge: {
    label: 'Merge into',
    placeholder: 'the entity that stays',
    send: (title, into) => apiJson('/graph/entities/merge', postJson({ from: title, into })),
  },
}

/** One row: a text box and its button; an empty box sends nothing. */
function editRow(id: string, edit: Edit, title: string, report: (p: Promise<RuleReply>) => void): HTMLElement {
  const input = element('input', { id: `curate-${id}`, placeholder: edit.placeholder })
  const button = element('button', { type: 'button', id: `curate-${id}-go`, textContent: edit.label })
  button.addEventListener('click', () => {
    const value = input.value.trim()
    if (value !== '') report(edit.send(title, value))
  })
  return element('div', { className: 'curate-row' }, [input, button])
}

function deleteButton(title: string, report: (p: Promise<RuleReply>) => void): HTMLElement {
  const button = element('button', { type: 'button', id: 'curate-delete', className: 'danger', textContent: 'Delete…' })
  button.addEventListener('click', () => {
    if (confirm(`Delete ${title} and its relationships from the graph (as a rule every update applies)?`))
      report(apiJson(entityPath(title), { method: 'DELETE' }))
  })
  return button
}

/** "Apply now": an update job, whose progress the job bar shows like any other. */
function applyButton(status: HTMLElement): HTMLElement {
  const button = element('button', { type: 'button', id: 'curate-apply', textContent: 'Apply now (update)' })
  button.addEventListener('click', () => {
    apiJson<{ job?: { id: string }; stream?: string }>('/index', postJson({ mode: 'update' })).then(
      () => (status.textContent = 'Update started: the graph shows the change when it ends.'),
      (error: Error) => (status.textContent = error.message),
    )
  })
  return button
}

/** Appends the corrections section to an entity's details panel. */
export function addCuration(node: ViewerNode, panel: HTMLElement): void {
  const status = element('p', { id: 'curate-status', className: 'meta' })
  const apply = applyButton(status)
  apply.hidden = true
  const report = (reply: Promise<RuleReply>) =>
    reply.then(
      (r) => {
        status.textContent = `Rule added to curation.yaml: ${r.rules.map((rule) => Object.values(rule).join(' ')).join('; ')}. The next update applies it.`
        apply.hidden = false
      },
      (error: Error) => (status.textContent = error.message),
    )
  const rows = Object.entries(EDITS).map(([id, edit]) => editRow(id, edit, node.key, report))
  panel.append(
    element('details', { className: 'curate' }, [
      element('summary', { textContent: 'Correct this entity' }),
      ...rows,
      deleteButton(node.key, report),
      status,
      apply,
    ]),
  )
}
