/**
 * @module remote/ai-client
 * An OpenAI-compatible chat-completions client (`REMOTE_AI_URL`, key `AI_API_KEY`):
 * `POST {endpoint}/v1/chat/completions` with `{model, messages}` → `choices[0].message.content`.
 */

export const AI_TIMEOUT_MS = 30_000;
const MAX_ANSWER = 20_000;

export class AiServiceError extends Error {}

export interface AiClient {
  complete(system: string, prompt: string): Promise<string>;
}

export function aiClient(endpoint: string, apiKey: string | undefined, model = 'gpt-4o-mini', fetchImpl: typeof fetch = fetch): AiClient {
  return {
    async complete(system, prompt) {
      let res: Response;
      try {
        res = await fetchImpl(`${endpoint}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify({ model, messages: [{ role: 'system', content: system }, { role: 'user', content: prompt }] }),
          signal: AbortSignal.timeout(AI_TIMEOUT_MS),
        });
      } catch (e) {
        throw new AiServiceError(`The AI service could not be reached: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!res.ok) throw new AiServiceError(`The AI service answered ${res.status}.`);
      const body = (await res.json().catch(() => undefined)) as { choices?: { message?: { content?: unknown } }[] } | undefined;
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '') throw new AiServiceError('The AI service answered without text.');
      return content.trim().slice(0, MAX_ANSWER);
    },
  };
}
