/** The logging interface every layer may use; the runner provides a file-backed one. */

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

export const SILENT_LOGGER: Logger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
})
