/** Text that XML 1.0 can carry: the writers escape markup, but control characters have no escape at all. */

// Tab, newline and carriage return are the only characters below U+0020 that XML 1.0 allows;
// U+FFFE/U+FFFF and unpaired surrogates are not characters at all.
const NOT_XML_CHAR =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** The text with characters XML cannot represent replaced by U+FFFD, so one odd byte in a description never breaks the file. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '\ufffd')
}
