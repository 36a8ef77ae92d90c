/** `jsonrepair`, for model replies; `npm run build` makes this one file (src/vendor/README.md). */
export { jsonrepair } from 'jsonrepair'
