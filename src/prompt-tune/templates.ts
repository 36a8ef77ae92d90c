/**
 * The tuned prompts, made from our built-in ones by editing their sections, so they keep exactly the
 * record format and template variables the pipeline fills: the persona and domain are added, the
 * language replaces English, discovered entity types replace {entity_types}, the worked examples
 * are the ones generated from the corpus (as many as the token budget allows), and the community
 * report prompts get the generated analyst role and rating definition.
 */
import { InternalError } from '../errors.js'
import { loadPrompt } from '../prompts/prompt-template.js'
import type { WorkedExample } from './steps.js'

export interface TunedValues {
  domain: string
  language: string
  persona: string
  /** Discovered types written into the prompt; undefined keeps {entity_types} (filled from settings). */
  entityTypes: readonly string[] | undefined
  examples: readonly WorkedExample[]
  ratingDescription: string
  reportRole: string
}

export interface ExampleBudget {
  maxTokens: number
  minExamples: number
  countTokens(text: string): number
}

export interface TunedPrompts {
  extractGraph: string
  summarizeDescriptions: string
  communityReportGraph: string
  communityReportText: string
  /** How many worked examples the extraction prompt carries. */
  examplesUsed: number
}

interface Section {
  heading: string
  body: string
}

const builtin = (name: string) => loadPrompt(null, name, 'prompt-tune')

/** `{` and `}` doubled: generated text must not read as a template variable. */
function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (c) => c + c)
}

export function buildPrompts(v: TunedValues, budget: ExampleBudget): TunedPrompts {
  const safe = {
    ...v,
    domain: escapeBraces(v.domain),
    language: escapeBraces(v.language),
    persona: escapeBraces(v.persona),
  }
  const { text, examplesUsed } = extractGraphPrompt(safe, budget)
  return {
    extractGraph: text,
    summarizeDescriptions: summarizePrompt(safe),
    communityReportGraph: reportPrompt(builtin('community_report_graph.txt'), safe),
    communityReportText: reportPrompt(builtin('community_report_text.txt'), safe),
    examplesUsed,
  }
}

function extractGraphPrompt(v: TunedValues, budget: ExampleBudget): { text: string; examplesUsed: number } {
  const types = v.entityTypes === undefined ? '{entity_types}' : v.entityTypes.join(',')
  const sections = parseSections(
    inLanguage(builtin('extract_graph.txt'), v.language).split('{entity_types}').join(types),
  )
  const role = { heading: 'Role', body: `${v.persona}\nThe documents are about ${v.domain}.` }
  const kept = [role, ...sections.filter((s) => !/^Example \d+$/.test(s.heading))]
  const at = kept.findIndex((s) => s.heading === 'Real data')
  if (at < 0)
    throw new InternalError('prompts/extract_graph.txt has no "# Real data" section to put the examples before')
  const rendered = v.examples.map((e, i) => ({ heading: `Example ${i + 1}`, body: renderExample(e) }))
  let used = 0
  let tokens = budget.countTokens(joinSections(kept))
  for (const example of rendered) {
    const cost = budget.countTokens(`# ${example.heading}\n${example.body}\n`)
    if (used >= budget.minExamples && tokens + cost > budget.maxTokens) break
    tokens += cost
    used++
  }
  return {
    text: joinSections([...kept.slice(0, at), ...rendered.slice(0, used), ...kept.slice(at)]),
    examplesUsed: used,
  }
}

/** One worked example in the record format of the extraction prompt. */
export function renderExample(e: WorkedExample): string {
  const records = [
    ...e.entities.map((x) => `("entity"<|>${x.name}<|>${x.type}<|>${x.description})`),
    ...e.relationships.map((r) => `("relationship"<|>${r.source}<|>${r.target}<|>${r.description}<|>${r.strength})`),
  ]
  const output = escapeBraces(
    [...records.flatMap((r, i) => (i === 0 ? [r] : ['##', r])), '##', '<|COMPLETE|>'].join('\n'),
  )
  return `Entity types: ${e.types.join(',')}\nText:\n${escapeBraces(e.text.trim())}\nOutput:\n${output}\n`
}

function summarizePrompt(v: TunedValues): string {
  return `# Role\n${v.persona}\nThe documents are about ${v.domain}.\n\n# Task\n${inLanguage(builtin('summarize_descriptions.txt'), v.language)}`
}

function reportPrompt(template: string, v: TunedValues): string {
  const sections = parseSections(template)
  const role = sections.find((s) => s.heading === 'Role')
  const contents = sections.find((s) => s.heading === 'What the report contains')
  if (role === undefined || contents === undefined || !/^- rating:.*$/m.test(contents.body)) {
    throw new InternalError('a built-in community report prompt lacks its "# Role" section or its "- rating:" line')
  }
  role.body = `${escapeBraces(v.reportRole)}\n${role.body.replace(/^You are an analyst writing a briefing/, 'Your task is to write a briefing')}`
  contents.body = contents.body.replace(
    /^- rating:.*$/m,
    `- rating: a number from 0 to 10 (one decimal allowed). ${escapeBraces(v.ratingDescription)}`,
  )
  const language = {
    heading: 'Language',
    body: `Write the title, summary, rating_explanation and findings in ${v.language}. Keep the JSON keys and the data references exactly as specified.\n`,
  }
  const at = sections.findIndex((s) => s.heading === 'Output format')
  return joinSections([...sections.slice(0, at), language, ...sections.slice(at)])
}

/** The built-in prompts ask for English output; a tuned prompt asks for the corpus's language. */
function inLanguage(template: string, language: string): string {
  if (!template.includes('in English'))
    throw new InternalError('a built-in prompt no longer says which language to write in ("in English")')
  return template.split('in English').join(`in ${language}`)
}

/** Splits at lines starting with `# `; text before the first heading gets an empty heading. */
function parseSections(text: string): Section[] {
  const sections: Section[] = []
  for (const part of text.split(/^(?=# )/m)) {
    const newline = part.indexOf('\n')
    if (part.startsWith('# '))
      sections.push({
        heading: part.slice(2, newline < 0 ? undefined : newline).trim(),
        body: newline < 0 ? '' : part.slice(newline + 1),
      })
    else if (part !== '') sections.push({ heading: '', body: part })
  }
  return sections
}

function joinSections(sections: readonly Section[]): string {
  const last = sections.length - 1
  return sections
    .map((s, i) => (s.heading === '' ? s.body : `# ${s.heading}\n${i === last ? s.body : ensureBlankLine(s.body)}`))
    .join('')
}

function ensureBlankLine(body: string): string {
  const trimmed = body.replace(/\n+$/, '')
  return `${trimmed}\n\n`
}
