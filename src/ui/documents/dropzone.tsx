/** Drop files on the zone or click it to choose them. */
import { useState } from 'preact/hooks'

/** What the indexer reads (input.type auto and the per-type readers); the server checks each file's content. */
const ACCEPT = '.txt,.md,.markdown,.csv,.json,.jsonl,.parquet,.pdf,.docx,.xlsx,.html,.htm,.xhtml'

export function Dropzone({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[]) => void }) {
  const [dragging, setDragging] = useState(false)
  return (
    <label
      class={`dropzone${dragging ? ' dragging' : ''}`}
      id="dropzone"
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault()
        setDragging(false)
        if (e.dataTransfer !== null) onFiles([...e.dataTransfer.files])
      }}
    >
      <strong>Drop documents here</strong> or click to choose files
      <span class="meta">text, Markdown, CSV, JSON/JSONL, Parquet, PDF, Word, Excel, HTML</span>
      <input
        type="file"
        id="file-input"
        multiple
        accept={ACCEPT}
        disabled={disabled}
        onChange={(e) => {
          const files = e.currentTarget.files
          if (files !== null) onFiles([...files])
          e.currentTarget.value = ''
        }}
      />
    </label>
  )
}
