/** `commander`, the CLI's argument parser; `npm run build` makes this one file (src/vendor/README.md). */
export { Command, CommanderError, InvalidArgumentError } from 'commander'
