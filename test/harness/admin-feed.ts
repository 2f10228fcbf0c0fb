/** The admin feed's events as read with the admin token (EventSource cannot send headers; fetch can). */
export interface AdminFeed {
  events: Array<{ name: string; data: any }>;
  /** Bytes received so far, to show the feed stays small. */
  bytes(): number;
  close(): void;
}

export async function readAdminFeed(baseUrl: string, adminToken: string): Promise<AdminFeed> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/admin/events`, {
    headers: { authorization: `Bearer ${adminToken}` },
    signal: abort.signal,
  });
  const events: AdminFeed['events'] = [];
  let bytes = 0;
  let buffer = '';
  const reader = response.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        bytes += value.byteLength;
        buffer += new TextDecoder().decode(value);
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ name, data: JSON.parse(data) });
        }
      }
    } catch {
      // closed
    }
  })();
  return { events, bytes: () => bytes, close: () => abort.abort() };
}
