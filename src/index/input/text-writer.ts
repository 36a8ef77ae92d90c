/**
 * Builds plain text from a stream of words and structure: breaks are requested lazily and written
 * only before the next text, so nested blocks never stack blank lines and the text has no leading or
 * trailing break. Whitespace inside a line collapses to one space (except in preformatted text).
 */
export class TextWriter {
  private out = ''
  /** Newlines owed before the next text: 0, 1 (new line) or 2 (blank line). */
  private pendingBreak = 0
  private pendingSpace = false
  /** Written at the start of the next line (list markers with their indentation). */
  private prefix = ''

  /** Ends the current line (`1`) or paragraph (`2`); `prefix` starts the next line. */
  paragraph(strength: 1 | 2, prefix = ''): void {
    this.pendingBreak = Math.max(this.pendingBreak, strength)
    if (prefix !== '') this.prefix = prefix
  }

  /** A hard line break (<br>): two in a row make a blank line. */
  lineBreak(): void {
    this.pendingBreak = Math.min(2, this.pendingBreak + 1)
    if (this.out === '') this.pendingBreak = 0
  }

  write(text: string, preformatted: boolean): void {
    if (preformatted) {
      if (text === '') return
      this.flush()
      this.out += text
      return
    }
    if (/^\s/.test(text)) this.pendingSpace = true
    const words = text.trim()
    if (words === '') return
    this.flush()
    this.out += words.replace(/\s+/g, ' ')
    this.pendingSpace = /\s$/.test(text)
  }

  /** Text written as is (a table row with its tabs). */
  writeRaw(text: string): void {
    if (text.trim() === '') return
    this.flush()
    this.out += text
  }

  private flush(): void {
    if (this.out === '') {
      this.out = this.prefix
    } else if (this.pendingBreak > 0) {
      this.out = this.out.replace(/[ \t]+$/, '') + '\n'.repeat(this.pendingBreak) + this.prefix
    } else if (this.pendingSpace && !/\s$/.test(this.out)) {
      this.out += ' '
    }
    this.pendingBreak = 0
    this.pendingSpace = false
    this.prefix = ''
  }

  toString(): string {
    return this.out.replace(/\s+$/, '')
  }
}
