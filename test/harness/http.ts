export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One HTTP call on loopback; JSON answers come back parsed. */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const url = new URL(path, baseUrl);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, body: isJson && text ? JSON.parse(text) : text, text };
}
