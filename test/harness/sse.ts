export interface StreamedEvent {
  name: string;
  data: any;
}

/** A Server-Sent Events reader over fetch: collects named events, counts keepalive comments. */
export class EventStream {
  readonly events: StreamedEvent[] = [];
  comments = 0;
  status = 0;
  headers: Headers | undefined;
  private readonly abort = new AbortController();
  private buffer = '';
  readonly ready: Promise<void>;
  readonly ended: Promise<void>;
  private endedResolve!: () => void;

  /** `apiKey` goes out as x-api-key; without one the URL carries the credential (an overlay's `?link=`). */
  constructor(url: string, apiKey?: string) {
    this.ended = new Promise((resolve) => (this.endedResolve = resolve));
    this.ready = fetch(url, {
      headers: { ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }), accept: 'text/event-stream' },
      signal: this.abort.signal,
    }).then(async (response) => {
      this.status = response.status;
      this.headers = response.headers;
      if (!response.ok || !response.body) {
        this.events.push({ name: 'http-error', data: await response.text() });
        this.endedResolve();
        return;
      }
      void this.read(response.body.getReader());
      await this.next('connected');
    });
  }

  private async read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.buffer += decoder.decode(value, { stream: true });
        this.parse();
      }
    } catch {
      // aborted by close()
    }
    this.endedResolve();
  }

  private parse(): void {
    let end = this.buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      end = this.buffer.indexOf('\n\n');
      if (block.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      let name = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        if (line.startsWith('data: ')) data += line.slice(6);
      }
      this.events.push({ name, data: data ? JSON.parse(data) : undefined });
    }
  }

  /** Waits for the first event with this name after `skip` earlier ones, and returns it. */
  async next(
    name: string,
    options: { timeoutMs?: number; where?: (data: any) => boolean } = {},
  ): Promise<StreamedEvent> {
    const deadline = Date.now() + (options.timeoutMs ?? 3000);
    for (;;) {
      const found = this.events.find((event) => event.name === name && (!options.where || options.where(event.data)));
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no '${name}' event; got ${JSON.stringify(this.events.map((event) => event.name))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  named(name: string): StreamedEvent[] {
    return this.events.filter((event) => event.name === name);
  }

  close(): void {
    this.abort.abort();
  }
}
