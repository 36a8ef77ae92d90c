/**
 * Checks a tuned prompt before it is written: its template variables are those the pipeline fills
 * (the required ones present, no unknown ones), and for the extraction prompt, a sample reply in
 * the prompt's own record format (each worked example's output, and one record per entity type)
 * comes back from the reply reader `graphrag index` uses (readGraphReply, with the tuned prompt as
 * the template and the example's text as the text unit) with every record intact.
 */
import { InternalError } from '../errors.js'
import { readGraphReply } from '../index/operations/extract-graph/read-reply.js'
import { formatPrompt } from '../prompts/prompt-template.js'
import { renderExample, type TunedPrompts } from './templates.js'
import type { WorkedExample } from './steps.js'

interface VariableRule {
  file: string
  required: readonly string[]
  allowed: readonly string[]
}

const RULES: Record<Exclude<keyof TunedPrompts, 'examplesUsed'>, VariableRule> = {
  extractGraph: { file: 'extract_graph.txt', required: ['input_text'], allowed: ['input_text', 'entity_types'] },
  summarizeDescriptions: {
    file: 'summarize_descriptions.txt',
    required: ['entity_name', 'description_list'],
    allowed: ['entity_name', 'description_list', 'max_length'],
  },
  communityReportGraph: {
    file: 'community_report_graph.txt',
    required: ['input_text'],
    allowed: ['input_text', 'max_report_length'],
  },
  communityReportText: {
    file: 'community_report_text.txt',
    required: ['input_text'],
    allowed: ['input_text', 'max_report_length'],
  },
}

/** The `{name}` variables of a template (`{{`/`}}` are literal braces). */
export function templateVariables(template: string): string[] {
  const found = new Set<string>()
  for (const m of template.matchAll(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) if (m[1] !== undefined) found.add(m[1])
  return [...found].sort()
}

export function validatePrompts(
  prompts: TunedPrompts,
  examples: readonly WorkedExample[],
  entityTypes: readonly string[],
): void {
  for (const [key, rule] of Object.entries(RULES) as Array<[keyof typeof RULES, VariableRule]>) {
    const variables = templateVariables(prompts[key])
    const missing = rule.required.filter((v) => !variables.includes(v))
    const unknown = variables.filter((v) => !rule.allowed.includes(v))
    if (missing.length > 0 || unknown.length > 0) {
      throw new InternalError(
        `tuned ${rule.file}: ${[...missing.map((v) => `{${v}} missing`), ...unknown.map((v) => `{${v}} is not filled by the pipeline`)].join(', ')}`,
      )
    }
  }
  const filled = formatPrompt(prompts.extractGraph, { input_text: 'SAMPLE INPUT', entity_types: entityTypes.join(',') })
  if (!filled.includes('("entity"<|>') || !filled.includes('("relationship"<|>') || !filled.includes('SAMPLE INPUT')) {
    throw new InternalError('tuned extract_graph.txt: the filled prompt lacks the record format or the input text')
  }
  for (const example of [...examples.slice(0, prompts.examplesUsed), typeSample(entityTypes)])
    checkRoundTrip(example, prompts.extractGraph)
}

/** A reply with one entity of each type and a relationship between the first two. */
function typeSample(types: readonly string[]): WorkedExample {
  const entities = types.map((type, i) => ({
    name: `SAMPLE ENTITY ${i + 1}`,
    type: type.toUpperCase(),
    description: `A sample entity of type ${type}`,
  }))
  const relationships =
    entities.length < 2
      ? []
      : [{ source: entities[0]!.name, target: entities[1]!.name, description: 'A sample relationship', strength: 7 }]
  return { text: '', types: [...types], entities, relationships }
}

function checkRoundTrip(example: WorkedExample, template: string): void {
  const rendered = formatPrompt(renderExample(example), {})
  const reply = rendered.slice(rendered.indexOf('Output:\n') + 'Output:\n'.length)
  const read = readGraphReply(reply, { template, inputText: example.text })
  const entities = read.entities.map((e) => `${e.title}|${e.type}`)
  const relationships = read.relationships.map((r) => `${r.source}|${r.target}|${r.weight}`)
  const expectedEntities = example.entities.map((e) => `${e.name}|${e.type}`)
  const expectedRelationships = example.relationships.map((r) => `${r.source}|${r.target}|${r.strength}`)
  if (
    read.unusable !== undefined ||
    read.dropped.length > 0 ||
    String(entities) !== String(expectedEntities) ||
    String(relationships) !== String(expectedRelationships)
  ) {
    const why = read.unusable ?? read.dropped.map((d) => `${d.text}: ${d.reason}`).join('; ')
    throw new InternalError(
      `tuned extract_graph.txt: a reply in its record format does not parse back (expected ${expectedEntities.length} entities and ` +
        `${expectedRelationships.length} relationships, got ${entities.length} and ${relationships.length}, ${read.dropped.length} dropped${why === '' ? '' : `: ${why}`})`,
    )
  }
}
