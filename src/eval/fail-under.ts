/**
 * `--fail-under metric=value` and `--fail-under system.metric=value`: quality gates for CI. A score
 * below its bound fails (for latency and cost, a value above it); so does a gated metric that was
 * not measured, since a gate that silently passes protects nothing.
 */
import { InputError } from '../errors.js'
import { LOWER_IS_BETTER, METRIC_KEYS, type MetricKey, type SystemSummary } from './summary.js'

/** The exit code of a run whose scores failed a gate (1 stays "the command failed"). */
export const EXIT_BELOW_THRESHOLD = 3

export interface Gate {
  /** A system (`hybrid`, `idx/hybrid`) or method name; undefined = every system. */
  system?: string
  metric: MetricKey
  bound: number
}

export function parseGate(spec: string): Gate {
  const at = spec.lastIndexOf('=')
  const bound = at < 0 ? Number.NaN : Number(spec.slice(at + 1))
  if (at < 0 || spec.slice(at + 1).trim() === '' || !Number.isFinite(bound))
    throw new InputError(`--fail-under ${spec}: expected metric=number or method.metric=number`)
  const left = spec.slice(0, at).trim()
  const dot = left.lastIndexOf('.')
  const metric = left.slice(dot + 1)
  if (!(METRIC_KEYS as readonly string[]).includes(metric))
    throw new InputError(`--fail-under ${spec}: unknown metric "${metric}" (metrics: ${METRIC_KEYS.join(', ')})`)
  return { ...(dot < 0 ? {} : { system: left.slice(0, dot) }), metric: metric as MetricKey, bound }
}

export interface GateFailure {
  system: string
  metric: MetricKey
  bound: number
  /** undefined when the metric was not measured for the system. */
  value: number | undefined
}

/** The gates each system fails; a gate naming no system of the run is an error. */
export function checkGates(gates: readonly Gate[], systems: readonly SystemSummary[]): GateFailure[] {
  const failures: GateFailure[] = []
  for (const gate of gates) {
    const matched = systems.filter(
      (s) => gate.system === undefined || s.system === gate.system || s.method === gate.system,
    )
    if (matched.length === 0)
      throw new InputError(
        `--fail-under ${gate.system}.${gate.metric}: no system "${gate.system}" in this run (${systems.map((s) => s.system).join(', ')})`,
      )
    for (const s of matched) {
      const value = s.metrics[gate.metric]
      const fails = value === undefined || (LOWER_IS_BETTER.has(gate.metric) ? value > gate.bound : value < gate.bound)
      if (fails) failures.push({ system: s.system, metric: gate.metric, bound: gate.bound, value })
    }
  }
  return failures
}

export function describeFailure(f: GateFailure): string {
  if (f.value === undefined) return `${f.system}.${f.metric} was not measured (gate ${f.bound})`
  const relation = LOWER_IS_BETTER.has(f.metric) ? 'above' : 'below'
  return `${f.system}.${f.metric} = ${round(f.value)} is ${relation} ${f.bound}`
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4)
}
