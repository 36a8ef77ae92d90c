/** Interim: chat/embedding models over the openai client, until src/llm/index.ts lands. */
import OpenAI from 'openai'
import { getTokenizer } from '../../../src/llm/tokenizer.js'
import type { ChatModel, EmbeddingModel } from '../../../src/llm/types.js'

export function interimModels(baseUrl: string): { chat: ChatModel; embedder: EmbeddingModel } {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'test-key', maxRetries: 0 })
  const tok = getTokenizer('o200k_base')
  const chat: ChatModel = {
    id: 'default_completion_model',
    model: 'gpt-4.1-mini',
    async complete(req) {
      const r = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(req.responseFormat?.type === 'json_object' ? { response_format: { type: 'json_object' as const } } : {}),
        ...(req.callArgs ?? {}),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      const content = r.choices[0]?.message.content ?? ''
      let json: unknown
      try {
        json = req.responseFormat ? JSON.parse(content) : undefined
      } catch {
        json = undefined
      }
      return { content, json, usage: { promptTokens: r.usage?.prompt_tokens ?? 0, completionTokens: r.usage?.completion_tokens ?? 0 }, cached: false }
    },
    async *stream(req) {
      const s = await client.chat.completions.create({
        model: 'gpt-4.1-mini',
        stream: true,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        ...(req.callArgs ?? {}),
      } as OpenAI.ChatCompletionCreateParamsStreaming)
      for await (const c of s) {
        const d = c.choices[0]?.delta.content
        if (d) yield d
      }
    },
    countTokens: (t) => tok.count(t),
  }
  const embedder: EmbeddingModel = {
    id: 'default_embedding_model',
    model: 'text-embedding-3-small',
    async embed(texts) {
      const r = await client.embeddings.create({ model: 'text-embedding-3-small', input: [...texts], encoding_format: 'float' })
      return r.data.map((d) => d.embedding)
    },
    countTokens: (t) => tok.count(t),
  }
  return { chat, embedder }
}
