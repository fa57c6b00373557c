// The ASP.NET Core SignalR JSON hub protocol, version 1: every message is a JSON text followed by the record
// separator 0x1e; the connection opens with a handshake ({"protocol":"json","version":1} -> {}).
export const RS = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export interface HubMessage {
  type: number;
  invocationId?: string;
  target?: string;
  arguments?: unknown[];
  [k: string]: unknown;
}

export const frame = (msg: object) => JSON.stringify(msg) + RS;

export const PING_FRAME = frame({ type: MessageType.Ping });

/**
 * Splits incoming text into complete records; the remainder (a record not yet terminated) is returned so the
 * caller can prepend it to the next frame.
 */
export function splitRecords(buffered: string): { records: string[]; rest: string } {
  const parts = buffered.split(RS);
  const rest = parts.pop() ?? '';
  return { records: parts, rest };
}

export function parseMessage(record: string): HubMessage | null {
  try {
    const m = JSON.parse(record) as unknown;
    if (!m || typeof m !== 'object' || typeof (m as HubMessage).type !== 'number') return null;
    return m as HubMessage;
  } catch {
    return null;
  }
}

export const completion = (invocationId: string, outcome: { result?: unknown; error?: string }) =>
  frame({ type: MessageType.Completion, invocationId, ...outcome });

export const invocation = (target: string, args: unknown[]) => frame({ type: MessageType.Invocation, target, arguments: args });

export const closeFrame = (error?: string, allowReconnect?: boolean) =>
  frame({ type: MessageType.Close, ...(error ? { error } : {}), ...(allowReconnect ? { allowReconnect } : {}) });
