/** Workflow load_input_documents: reads the input files into the interim documents table (§5.1). */
import { INPUT_DOCUMENTS } from '../../model/documents.js'
import { inputFilesFingerprint } from '../input/input-fingerprint.js'
import { loadDocuments } from '../input/load-documents.js'
import { defineWorkflow } from '../workflow.js'

export const loadInputDocuments = defineWorkflow({
  name: 'load_input_documents',
  reads: [],
  writes: [INPUT_DOCUMENTS.name],
  fingerprint: (settings) => ({ input: settings.input, base_dir: settings.input_storage.base_dir }),
  external: (settings) => inputFilesFingerprint(settings.input_storage.base_dir),
  countsDocuments: true,
  async run(ctx) {
    let progress: ReturnType<typeof ctx.progress> | undefined
    const result = await loadDocuments(
      { ...ctx.settings.input, baseDir: ctx.settings.input_storage.base_dir },
      {
        onWarning: (message) => {
          ctx.stats.warning(message)
          ctx.stats.count('input_warnings')
        },
        onNotice: (message) => ctx.stats.warning(message),
        onListed: (count) => {
          progress = ctx.progress('loading input files', count)
        },
        onFile: () => progress?.tick(),
      },
    )
    progress?.done()
    if (result.filesSkipped > 0) ctx.stats.count('input_files_skipped', result.filesSkipped)
    ctx.log.info(`loaded ${result.documents.length} document(s) from ${result.filesRead} file(s)`)
    await ctx.tables.write(INPUT_DOCUMENTS, result.documents)
    return {
      rows: { [INPUT_DOCUMENTS.name]: result.documents.length },
      summary: { files: result.filesRead, skipped_files: result.filesSkipped },
    }
  },
})
