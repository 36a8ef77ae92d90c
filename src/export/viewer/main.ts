/**
 * The exported graph page's script (bundled with sigma.js and graphology by esbuild, inlined by
 * html.ts): mounts the viewer on the page's body with the embedded JSON.
 */
import { VIEWER_DATA_ID, type ViewerData } from '../viewer-data.js'
import { mountViewer } from './mount.js'

const data = JSON.parse(document.getElementById(VIEWER_DATA_ID)!.textContent!) as ViewerData
document.title = data.title
const viewer = mountViewer(document.body, data)
// A handle for scripts and tests: where a node is drawn on screen (page pixels), and selecting one.
Object.assign(window, { graphragViewer: viewer })
document.body.dataset.ready = 'true'
