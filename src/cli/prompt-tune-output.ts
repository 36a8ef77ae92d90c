/** What `graphrag prompt-tune` prints: the plan of a dry run, or what was written and learnt. */
import { relative } from 'node:path'
import type { PromptTunePlan, PromptTuneResult } from '../prompt-tune/run.js'
import { modelCost, usageText } from './console-reporter.js'
import { formatCount, formatSeconds, formatUsd } from './format.js'

interface Out {
  write(text: string): unknown
}

export function printPromptTunePlan(plan: PromptTunePlan & { warnings: string[] }, out: Out): void {
  const { settings, options, corpus, sample } = plan
  for (const warning of plan.warnings) out.write(`warning: ${warning}\n`)
  out.write(`Settings: ${settings.configFile ?? '(defaults)'} (valid)\n`)
  out.write(
    `Inputs: ${formatCount(corpus.documents)} documents, ${formatCount(corpus.chunks.length)} chunks of up to ${options.chunkSize} tokens\n`,
  )
  const what = plan.sampleIsFinal
    ? `${sample.length} sample chunks`
    : `${sample.length} chunks to embed; the ${Math.min(options.k, sample.length)} nearest the k-means centres become the sample`
  out.write(`Selection: ${options.selectionMethod}, ${what}:\n`)
  for (const c of sample) {
    out.write(
      `  #${String(c.index + 1).padEnd(5)} ${clip(c.documentTitle, 30).padEnd(30)} ${String(c.nTokens).padStart(5)} tokens  ${clip(c.text, 60)}\n`,
    )
  }
  out.write('Estimated model usage (heuristic):\n')
  const cost = (c: number | null) => (c === null ? 'price unknown' : formatUsd(c))
  const sum = (pick: (e: (typeof plan.estimate)[number]) => number) => plan.estimate.reduce((n, e) => n + pick(e), 0)
  const unknown = plan.estimate.some((e) => e.costUsd === null && e.calls > 0)
  const total = {
    step: 'total',
    calls: sum((e) => e.calls),
    promptTokens: sum((e) => e.promptTokens),
    completionTokens: sum((e) => e.completionTokens),
    costUsd: unknown ? null : sum((e) => e.costUsd ?? 0),
  }
  for (const e of [...plan.estimate, total]) {
    const tokens = `${formatCount(e.promptTokens).padStart(9)} prompt ${formatCount(e.completionTokens).padStart(8)} completion`
    out.write(`  ${e.step.padEnd(22)} ${formatCount(e.calls).padStart(5)} calls ${tokens}  ${cost(e.costUsd)}\n`)
  }
  out.write(`Prompts would go to ${plan.outputDir}\n`)
  out.write('Dry run: nothing was called or written.\n')
}

export function printPromptTuneResult(r: PromptTuneResult, out: Out): void {
  out.write(`\nPrompt tuning complete in ${formatSeconds(r.seconds)}: ${r.outputDir}\n`)
  for (const w of r.written) out.write(`  ${w.file.padEnd(28)} ${describe(w, r.outputDir)}\n`)
  out.write(`Domain: ${r.domain}\n`)
  out.write(`Language: ${r.language}\n`)
  out.write(
    `Entity types (${r.typesDiscovered ? 'discovered' : 'from extract_graph.entity_types'}): ${r.entityTypes.join(', ')}\n`,
  )
  out.write(
    `Worked examples: ${r.examplesUsed} in extract_graph.txt (${r.examplesGenerated} usable of ${r.sampleSize} sample chunks)\n`,
  )
  if (r.unusable.length > 0)
    out.write(`Unusable model answers: ${r.unusable.length} (skipped; listed in the warnings above)\n`)
  if (r.applied !== undefined) {
    if (r.applied.backupDir !== undefined)
      out.write(`Backed up the prompts and settings they replace in ${relative(r.root, r.applied.backupDir)}\n`)
    if (r.applied.settingsUpdated.length > 0)
      out.write(
        `Updated ${relative(r.root, r.applied.settingsFile!)}: ${r.applied.settingsUpdated.join(', ')} now point at the tuned prompts\n`,
      )
    out.write('The tuned prompts are in use: run graphrag index to rebuild with them.\n')
  }
  const beside = r.written.filter((x) => x.outcome === 'beside')
  if (beside.length > 0)
    out.write(
      `Not in use yet: ${beside.length} tuned prompt(s) were written beside existing ones as *.tuned.txt. Run again with --apply to back up the current prompts and use the tuned ones (or --force to replace them without a backup).\n`,
    )
  const unused = r.written.filter((x) => !x.settingPointsHere && x.outcome !== 'beside')
  if (unused.length > 0) {
    out.write(
      'Note: graphrag index uses these prompts only once the settings point at them; set in the settings file:\n',
    )
    for (const w of unused) out.write(`  ${w.setting}: ${relative(r.root, w.path)}\n`)
  }
  const calls = r.usage.reduce((n, m) => n + m.usage.calls + m.usage.cacheHits, 0)
  if (calls > 0)
    for (const m of r.usage) out.write(`Model usage: ${m.id} (${m.model}): ${usageText(m.usage)}, ${modelCost(m)}\n`)
}

function describe(w: PromptTuneResult['written'][number], dir: string): string {
  switch (w.outcome) {
    case 'written':
      return 'written'
    case 'replaced':
      return 'replaced (--force)'
    case 'applied':
      return 'replaced (--apply; the previous one is in the backup folder)'
    case 'unchanged':
      return 'unchanged (same text)'
    case 'beside':
      return `exists, so the tuned prompt is in ${relative(dir, w.path)} (--force replaces the original)`
  }
}

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`
}
