/** `graphrag index --dry-run`: settings and inputs checked, workflows listed, cost estimated; nothing called or written. */
import { type BatchPricing, batchPricing } from '../index/plan/estimate-batch.js'
import { chunkFiguresFromInputs, estimateWorkflows } from '../index/plan/estimate-run.js'
import type { CostEstimate } from '../index/plan/estimate-cost.js'
import { modelsUsedBy } from '../index/plan/workflow-models.js'
import { rejectMissingModels } from '../index/plan/missing-models.js'
import { rejectPlaceholderKeys } from '../index/run/placeholder-keys.js'
import { planIndex, type RunIndexOptions } from '../index/run/runner.js'
import { formatCount, formatUsd } from './format.js'
import { modelEndpointReport } from './model-endpoints.js'
import { ConfigError } from '../errors.js'

export async function printDryRun(options: RunIndexOptions, out: { write(text: string): unknown }): Promise<void> {
  const plan = await planIndex(options)
  const { settings, warnings, apiKeyOrigins } = plan.loaded
  // The run would stop here before its first call, so the dry run does too rather than call the settings valid.
  const used = modelsUsedBy(
    plan.workflows.slice(plan.resumeFrom).map((w) => w.name),
    settings,
  )
  rejectMissingModels(settings, used)
  rejectPlaceholderKeys(settings, used, apiKeyOrigins)
  for (const warning of warnings) out.write(`warning: ${warning}\n`)
  const noted =
    warnings.length === 0
      ? 'valid'
      : `valid, ${warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`} above`
  out.write(`Settings: ${settings.configFile ?? '(defaults)'} (${noted})\n`)
  const endpoints = await modelEndpointReport(settings, used, options.skipValidation !== true)
  out.write(endpoints.text)
  const figures = await chunkFiguresFromInputs(settings, (message) => out.write(`warning: ${message}\n`))
  out.write(`Inputs: ${formatCount(figures.chunks)} chunks, ${formatCount(figures.chunkTokens)} tokens\n`)
  out.write(`Method: ${plan.method}\n`)
  out.write('Workflows:\n')
  plan.workflows.forEach((w, i) => {
    const note =
      i < plan.resumeFrom
        ? '  (finished before, inputs unchanged)'
        : i === plan.resumeFrom && plan.rerun !== undefined
          ? `  (${plan.rerun.reason})`
          : ''
    out.write(`  ${i < plan.resumeFrom ? 'skip' : 'run '}  ${w.name}${note}\n`)
  })
  const toRun = plan.workflows.slice(plan.resumeFrom).map((w) => w.name)
  const estimate = estimateWorkflows(
    settings,
    toRun,
    figures,
    plan.workflows.map((w) => w.name),
  )
  if (estimate.workflows.length > 0) {
    out.write('Estimated model usage (heuristic; stats.json puts it next to the actual figures after a run):\n')
    writeEstimateRows(estimate, out)
    const a = estimate.assumed
    out.write(
      `  assuming ~${formatCount(a.entities)} entities, ~${formatCount(a.relationships)} relationships, ~${formatCount(a.communities)} communities\n`,
    )
    writeBatchPricing(batchPricing(settings, estimate, options.batch?.all === true), out)
  }
  out.write('Dry run: nothing was called or written.\n')
  refuseSilentModels(endpoints.silent)
}

/** A model the run needs that answers at none of its endpoints: the run would stop at its first check, so the dry run fails too. */
function refuseSilentModels(silent: readonly string[]): void {
  if (silent.length === 0) return
  const which = silent.length === 1 ? `${silent[0]} answers` : `${silent.join(', ')} answer`
  throw new ConfigError(
    `the run would fail: ${which} at none of ${silent.length === 1 ? 'its endpoints' : 'their endpoints'} (see "does NOT answer" above); start the model server or fix api_base`,
    { keyPath: `${silent[0]}.api_base` },
  )
}

/** Batch and synchronous prices of the run, and the models that would run synchronously. */
function writeBatchPricing(pricing: BatchPricing, out: { write(text: string): unknown }): void {
  const saves = pricing.batchUsd < pricing.syncUsd
  const part = pricing.partial ? ' for the workflows with a known price' : ''
  if (pricing.batchRun && saves)
    out.write(
      `Batch: ${formatUsd(pricing.batchUsd)} at batch prices instead of ${formatUsd(pricing.syncUsd)} synchronously${part} (saves ${formatUsd(pricing.syncUsd - pricing.batchUsd)}; answers within 24 h)\n`,
    )
  else if (pricing.batchRun) out.write('Batch: no model of this run has a batch API; every call is synchronous\n')
  else if (saves)
    out.write(
      `With --batch: ${formatUsd(pricing.batchUsd)} instead of ${formatUsd(pricing.syncUsd)}${part} (batch APIs charge about half; answers within 24 h, see docs/batch.md)\n`,
    )
  for (const m of pricing.synchronous) out.write(`  ${m.model} (${m.reason}): its calls run synchronously\n`)
}

/** One row per workflow that calls a model, then the total: calls, tokens and cost. */
export function writeEstimateRows(estimate: CostEstimate, out: { write(text: string): unknown }): void {
  const cost = (c: number | null) => (c === null ? 'price unknown' : formatUsd(c))
  for (const w of [...estimate.workflows, { workflow: 'total', ...estimate.total }]) {
    out.write(
      `  ${w.workflow.padEnd(30)} ${formatCount(w.calls).padStart(7)} calls ${formatCount(w.promptTokens).padStart(11)} prompt ${formatCount(w.completionTokens).padStart(10)} completion  ${cost(w.costUsd)}\n`,
    )
  }
}
