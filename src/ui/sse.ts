/**
 * Reads a text/event-stream response into {event, data} messages as they arrive. The web UI reads its
 * streams with it (EventSource cannot send the token), and so do the server tests.
 */

export interface SseMessage {
  event: string
  data: string
}

export async function* readSse(response: Response): AsyncGenerator<SseMessage> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += value.replace(/\r\n/g, '\n')
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const lines = buffer.slice(0, end).split('\n')
      buffer = buffer.slice(end + 2)
      const event =
        lines
          .find((l) => l.startsWith('event:'))
          ?.slice(6)
          .trim() ?? 'message'
      const data = lines
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n')
      yield { event, data }
    }
  }
}
