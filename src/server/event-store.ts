import type { EventId, EventStore, JSONRPCMessage, StreamId } from "@modelcontextprotocol/server";

/**
 * The recent SSE events of one MCP session, so a client whose stream dropped reconnects
 * with Last-Event-ID and receives what it missed. Bounded: the oldest events go first, and
 * the store goes with its session.
 */
export class SessionEventStore implements EventStore {
  private readonly events: Array<{ id: EventId; stream: StreamId; message: JSONRPCMessage; size: number }> =
    [];
  private next = 0;
  private size = 0;

  /** At most `capacity` events and `maxChars` characters of JSON (a state resource can be large). */
  constructor(
    private readonly capacity = 200,
    private readonly maxChars = 4 * 1024 * 1024,
  ) {}

  async storeEvent(stream: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${stream}:${++this.next}`;
    const size = JSON.stringify(message).length;
    this.events.push({ id, stream, message, size });
    this.size += size;
    while (this.events.length > 1 && (this.events.length > this.capacity || this.size > this.maxChars)) {
      this.size -= this.events.shift()?.size ?? 0;
    }
    return id;
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    return this.events.find((event) => event.id === id)?.stream;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (id: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const index = this.events.findIndex((event) => event.id === lastEventId);
    const stream = this.events[index]?.stream;
    if (stream === undefined) return "";
    for (const event of this.events.slice(index + 1)) {
      // priming events carry no message: they only mark where a stream starts
      if (event.stream === stream && Object.keys(event.message).length > 0)
        await send(event.id, event.message);
    }
    return stream;
  }
}
