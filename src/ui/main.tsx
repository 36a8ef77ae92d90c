/** The web UI's entry (bundled by esbuild into dist/ui/app.js, served by `graphrag serve` at /). */
import { render } from 'preact'
import { App } from './app.js'
import './style.css'

render(<App />, document.getElementById('app')!)
