/**
 * What is wrong with an answer to hostile or edge-case input, or null: a 5xx, or a refusal outside the spec's error
 * envelope (no JSON, no `error.code`, no `error.request_id`). Shared by the fuzz tests.
 */
export function answerProblem(res: { statusCode: number; body: string }): string | null {
  if (res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode < 400) return null;
  let error: { code?: unknown; request_id?: unknown } | undefined;
  try {
    error = (JSON.parse(res.body) as { error?: typeof error }).error;
  } catch {
    return `${res.statusCode} answered outside the envelope: ${res.body.slice(0, 200)}`;
  }
  if (typeof error?.code !== 'string') return `${res.statusCode} no error.code in ${res.body.slice(0, 200)}`;
  if (typeof error.request_id !== 'string') return `${res.statusCode} no request_id`;
  return null;
}
