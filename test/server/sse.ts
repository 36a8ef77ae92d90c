/** The web UI's SSE reader serves the server tests too: they read the streams as the page does. */
export { readSse, type SseMessage } from '../../src/ui/sse.js'
