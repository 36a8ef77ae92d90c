/**
 * `input.type: markitdown` without MarkItDown: Markdown and plain-text files are read as they are
 * (they are already Markdown); the title is the first `# ` heading, else the basename. PDF, Word,
 * Excel and HTML files go to their own readers (read-file.ts); other formats must be converted
 * first, and the loader says so per file.
 */
import { posix } from 'node:path'
import { UnreadableTextError } from './decode-text.js'
import { sha512, type FileDocuments } from './rows.js'

const READABLE = /\.(md|markdown|mdown|mkd|txt|text)$/i

/** Files of other extensions get a warning instead of a document. */
export function assertMarkdownReadable(path: string): void {
  if (!READABLE.test(path)) {
    throw new UnreadableTextError(
      'input.type markitdown reads Markdown, plain-text, PDF, .docx, .xlsx and HTML files; convert other formats to one of these first',
    )
  }
}

function markdownTitle(text: string): string | undefined {
  const heading = /^\uFEFF?# +(.+?)[ \t]*#*[ \t]*$/m.exec(text)
  const title = heading?.[1]?.trim()
  return title === undefined || title === '' ? undefined : title
}

export function readMarkdown(text: string, path: string, creationDate: string): FileDocuments {
  if (text.trim() === '') throw new UnreadableTextError('empty file')
  return {
    documents: [
      {
        id: sha512(text),
        text,
        title: markdownTitle(text) ?? posix.basename(path),
        creation_date: creationDate,
        raw_data: null,
      },
    ],
    warnings: [],
  }
}
