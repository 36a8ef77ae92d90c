#!/usr/bin/env node
import { watchStartupSignals } from '../dist/cli/startup-interrupt.js'

// Before the CLI's modules load: Ctrl-C during a slow start is recorded, not a silent kill.
watchStartupSignals(process.argv)
const { main } = await import('../dist/cli/main.js')

main(process.argv).then((code) => {
  process.exitCode = code
})
