/**
 * The contract between the pipeline runner and a workflow. A workflow reads tables, calls pure
 * operations with its own settings section, writes tables and returns a small summary.
 */
import type { Settings } from '../config/schema.js'
import { ConfigError } from '../errors.js'
import type { ChatModel, EmbeddingModel } from '../llm/types.js'
import type { Logger } from '../logger.js'
import type { PromptFile } from '../prompts/prompt-files.js'
import type { ChunkFigures, EstimatedUsage, GuessedGraph, ReportFigures } from './operations/estimate-usage.js'
import type { KeyValueStore } from '../storage/key-value-store.js'
import type { TableStore } from '../storage/table-store.js'
import type { DocumentChanges } from './operations/document-changes.js'

/** Hands out models configured in settings; usage is recorded against the running workflow. */
export interface ModelProvider {
  /**
   * The chat model `modelId` from completion_models. `keyPath` (e.g. `extract_graph.completion_model_id`)
   * names the setting in the error when the id is unknown; `cachePartition` is the model_instance_name.
   */
  chat(modelId: string, options: { keyPath: string; cachePartition: string }): ChatModel
  embedding(modelId: string, options: { keyPath: string; cachePartition: string }): EmbeddingModel
  /** True when `modelId` names a configured chat model (offline fallbacks check this). */
  hasChat(modelId: string | null): boolean
}

/** Counts items of a long step; renders as a spinner with done/total, rate and ETA. */
export interface ProgressTicker {
  tick(count?: number): void
  done(): void
}

/** Per-workflow counters and failures that end up in stats.json and the final summary. */
export interface WorkflowStats {
  /** Adds to a named counter (`parse_drops`, `chunks_failed`, ...). */
  count(name: string, amount?: number): void
  /** Records an item that failed for good (after retries) with the reason; it is listed in stats and the log. */
  failure(item: string, reason: string): void
  /** Records a warning that is also printed and logged (unreadable input file, ...). */
  warning(message: string): void
}

export interface Clock {
  now(): Date
}

/** The wall clock, for runs given no other. */
export const SYSTEM_CLOCK: Clock = { now: () => new Date() }

/**
 * The clock of a run's artifacts: the wall clock, or the time `SOURCE_DATE_EPOCH` names (whole seconds
 * since 1970-01-01 UTC, the reproducible-builds convention). The run date is written into the
 * communities' and reports' `period` column, so two runs on either side of midnight differ by that
 * column alone; pinning the epoch makes them byte-identical (CI jobs, shards and their final run).
 */
export function artifactClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = env.SOURCE_DATE_EPOCH?.trim()
  if (raw === undefined || raw === '') return SYSTEM_CLOCK
  if (!/^\d{1,12}$/.test(raw))
    throw new ConfigError(
      `SOURCE_DATE_EPOCH must be whole seconds since 1970-01-01 UTC (e.g. 1700000000), got "${raw.slice(0, 40)}"`,
      { keyPath: 'SOURCE_DATE_EPOCH' },
    )
  const fixed = Number(raw) * 1000
  return { now: () => new Date(fixed) }
}

export interface WorkflowContext {
  readonly settings: Settings
  /** The output tables (the index being built). */
  readonly tables: TableStore
  /** In update runs: the existing index being merged into; undefined otherwise. */
  readonly previousTables: TableStore | undefined
  /** In update runs: the documents the update adds, edits and deletes (planned once, run/update.ts). */
  readonly changes: DocumentChanges | undefined
  /** Root of the cache; workflows use `cache.child(model_instance_name)` for non-LLM caches. */
  readonly cache: KeyValueStore
  readonly models: ModelProvider
  readonly log: Logger
  readonly stats: WorkflowStats
  readonly clock: Clock
  readonly signal: AbortSignal
  /** Starts a progress counter for `total` items. */
  progress(label: string, total: number): ProgressTicker
}

export type { PromptFile }

/** The configured models a workflow calls: ids in completion_models and embedding_models. */
export interface ModelsUsed {
  readonly chat: readonly string[]
  readonly embedding: readonly string[]
}

export const NO_MODELS: ModelsUsed = Object.freeze({ chat: [], embedding: [] })

/** What a dry-run estimate knows before any call: settings, chunk figures, the guessed graph and prompt sizes. */
export interface EstimateContext extends ChunkFigures {
  readonly settings: Settings
  readonly graph: GuessedGraph
  /** An update's reports, measured on the previous index (absent for a full index: one per guessed community). */
  readonly reports?: ReportFigures
  /** Tokens (chat tokenizer) of one of the workflow's own prompts, formatted with `values`. */
  promptTokens(file: PromptFile, values: Readonly<Record<string, string>>): number
}

type SummaryValue = number | string | boolean

export interface WorkflowResult {
  /** Rows written per table, shown in the final summary. */
  readonly rows?: Readonly<Record<string, number>>
  readonly summary?: Readonly<Record<string, SummaryValue>>
  /** Ends the pipeline after this workflow (an update with no new documents). */
  readonly stop?: boolean
}

/**
 * One of N deterministic slices of a run's model work (`graphrag index --shard I/N`): item k of a
 * list (a text unit, a batch of them) belongs to slice `index` when k mod `count` = `index` − 1.
 */
export interface ShardSlice {
  /** 1-based, as `--shard 2/3` names it. */
  readonly index: number
  readonly count: number
  /** The items of this slice, in list order. */
  select<T>(items: readonly T[]): T[]
}

export interface Workflow {
  readonly name: string
  /** Table names this workflow reads from `ctx.tables` (part of the resume fingerprint). */
  readonly reads: readonly string[]
  /** Table names it writes; a resumed run checks they still exist unchanged. */
  readonly writes: readonly string[]
  /** The settings that change this workflow's output (part of the resume fingerprint). */
  fingerprint(settings: Settings): unknown
  /**
   * The configured models it calls with these settings. Preflight checks them, their settings join
   * the resume fingerprint and the dry-run estimate prices with them; a model called but not
   * declared here would escape all three (test/index/workflow-declarations.test.ts catches it).
   */
  models(settings: Settings): ModelsUsed
  /**
   * The prompts it reads with these settings ([] when none). Their text joins the resume
   * fingerprint, and a file that cannot be read stops the run before the first workflow.
   */
  prompts(settings: Settings): readonly PromptFile[]
  /** Fingerprint of what it reads from outside the index (the input folder), joined to the resume fingerprint. */
  external?(settings: Settings): Promise<string>
  /** What it adds to the graph size the dry-run estimate assumes (entities, relationships, claims). */
  guessGraph?(settings: Settings, figures: ChunkFigures): Partial<GuessedGraph>
  /** Expected model usage for the dry run and stats.json's estimate; absent when it calls no model. */
  estimate?(ctx: EstimateContext): EstimatedUsage
  /** Its `documents` row count is stats.json's num_documents (kept from last time when it is skipped). */
  readonly countsDocuments?: boolean
  /** It writes the vector store (settings.vector_store.db_uri), named in the end-of-run summary. */
  readonly writesVectorStore?: boolean
  /**
   * Tables it rewrites keeping every row and column they had (create_final_documents adds
   * text_unit_ids): a resumed run may read them, as they are now, in their earlier shape.
   */
  readonly extendsTables?: readonly string[]
  /** It reads the vector store (the chunk graph's cross-document edges): ordered after its writers like a table. */
  readonly readsVectorStore?: boolean
  run(ctx: WorkflowContext): Promise<WorkflowResult>
  /**
   * The model work of one shard, done ahead of the full run (`graphrag index --shard I/N`): the
   * calls `run` would make for the slice's items, so their replies land in the shared cache and
   * the full run answers them from it. Writes no table. Absent: nothing to split by text unit.
   */
  prefetch?(ctx: WorkflowContext, shard: ShardSlice): Promise<WorkflowResult>
}

/** What a workflow may leave out: no settings of its own, no model, no prompt. */
type Defaulted = 'fingerprint' | 'models' | 'prompts'

/** A workflow as declared: only what it has (see defineWorkflow). */
export type WorkflowSpec = Omit<Workflow, Defaulted> & Partial<Pick<Workflow, Defaulted>>

/**
 * The workflow with the members it leaves out filled in: a fingerprint of no settings, no models and
 * no prompts (the update_* merge steps, the loaders, the pure table steps).
 */
export function defineWorkflow(spec: WorkflowSpec): Workflow {
  return { fingerprint: () => ({}), models: () => NO_MODELS, prompts: () => [], ...spec }
}
