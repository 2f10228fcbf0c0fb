/**
 * A stream of events the transport keeps open until the caller hangs up or `end` is called: Server-Sent Events over
 * HTTP (sse.ts), frames over /ws/api.
 */
export interface EventStream {
  send(name: string, json: string): void;
  comment(text: string): void;
  onClose(listener: () => void): void;
  end(): void;
}
