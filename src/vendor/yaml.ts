/** `yaml`, the settings parser; `npm run build` makes this one file (src/vendor/README.md says why). */
export { parseDocument, stringify } from 'yaml'
