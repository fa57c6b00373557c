// `credence webhooks listen` (as `stripe listen`): a temporary webhook whose signed deliveries arrive over a
// stream (POST /api/v1/webhooks/listen, server-sent events) and are forwarded, body and signature headers
// unchanged, to a local URL; each is acknowledged with the local status and printed on one line. The temporary
// webhook is removed on exit. `credence trigger score.updated`: a sandbox score change sent to a test key's
// webhooks and listeners.
import { unwrap } from './sdk.js';
import { CliError, keyClient } from './session.js';
import { suggest } from './args.js';
import { EVENTS } from './specs.js';

interface Delivery {
  deliveryId: string;
  headers: Record<string, string>;
  body: string;
}

/** Server-sent events from a byte stream: yields {event, data} per message. */
async function* sse(stream: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      if (data.length) yield { event, data: data.join('\n') };
    }
  }
}

/** POSTs the delivery to the local receiver exactly as the service would: same body, same signature headers. */
async function forward(url: string, d: Delivery): Promise<{ statusCode: number | null; error?: string }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: d.headers,
      body: d.body,
      signal: AbortSignal.timeout(9_000),
      redirect: 'manual',
    });
    await res.body?.cancel();
    return { statusCode: res.status };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    return { statusCode: null, error: (err.cause?.code ?? err.message).slice(0, 500) };
  }
}

export async function runListen(flags: Record<string, unknown>) {
  const target = flags['forward-to'] as string | undefined;
  if (target !== undefined) {
    try {
      const u = new URL(target);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
    } catch {
      throw new CliError(`--forward-to: "${target}" is not an http(s) URL`, 2);
    }
  }
  const { client } = keyClient(flags);
  const stop = new AbortController();
  // the stream stays open: no time-out, no retry of the POST that opens it
  const opened = await client.with({ timeoutMs: 0, maxRetries: 0 }).POST('/api/v1/webhooks/listen', {
    body: typeof flags.address === 'string' ? { walletAddress: flags.address } : {},
    params: { header: { accept: 'text/event-stream' } },
    parseAs: 'stream',
    signal: stop.signal,
  });
  if (!opened.response.ok || !opened.data) {
    const { errorFromResponse } = await import('./sdk.js');
    throw errorFromResponse(opened.response, await opened.response.json().catch(() => null));
  }
  let webhookId: string | null = null;
  let exiting = false;
  const quit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    stop.abort();
    // the service also deletes it when the stream closes; this makes sure before exiting, and says so
    if (webhookId) {
      const r = await client
        .with({ timeoutMs: 5_000, maxRetries: 1 })
        .DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhookId } } })
        .catch((e: Error) => ({ response: null, error: e }));
      const status = r.response?.status;
      if (status === 204 || status === 200 || status === 404) console.log(`stopped: the temporary webhook ${webhookId} was removed`);
      else
        console.error(
          `stopped, but the temporary webhook ${webhookId} could not be removed (${status ? `HTTP ${status}` : (r as { error?: Error }).error?.message}): the service removes it when it sees the stream closed; credence webhooks listen again, or DELETE /api/v1/webhooks/${webhookId}`,
        );
    } else console.log('stopped before the temporary webhook was ready: nothing to remove');
    process.exit(code);
  };
  process.on('SIGINT', () => void quit(0));
  process.on('SIGTERM', () => void quit(0));
  try {
    for await (const m of sse(opened.data as unknown as ReadableStream<Uint8Array>)) {
      if (m.event === 'ready') {
        const r = JSON.parse(m.data) as { webhookId: string; secret: string; environment: string };
        webhookId = r.webhookId;
        console.log(
          `Ready! ${r.environment} events ${target ? `are forwarded to ${target}` : 'are printed (no --forward-to)'}. Webhook signing secret: ${r.secret} (webhook ${r.webhookId}; Ctrl-C to quit)`,
        );
      } else if (m.event === 'delivery' && webhookId) {
        const d = JSON.parse(m.data) as Delivery;
        const id = webhookId;
        void (async () => {
          const r = target ? await forward(target, d) : { statusCode: 200 };
          let what = 'event';
          try {
            const b = JSON.parse(d.body) as {
              event?: string;
              data?: { walletAddress?: string; category?: string; oldScore?: number | null; newScore?: number };
            };
            what = `${b.event ?? 'event'}${b.data?.walletAddress ? ` ${b.data.walletAddress}` : ''}${b.data?.category ? ` ${b.data.category}` : ''}${b.data?.newScore !== undefined ? ` ${b.data.oldScore ?? '-'} -> ${b.data.newScore}` : ''}`;
          } catch {
            /* not JSON: printed as an event */
          }
          const status = r.statusCode === null ? `error (${r.error})` : `[${r.statusCode}]`;
          console.log(
            `${new Date().toISOString()}  ${what}  -> ${status} ${target ? `POST ${target}` : 'not forwarded'}  (delivery ${d.deliveryId})`,
          );
          if (flags['print-json']) console.log(d.body);
          await client
            .POST('/api/v1/webhooks/listen/{id}/acks', {
              params: { path: { id } },
              body: { deliveryId: d.deliveryId, statusCode: r.statusCode, ...(r.error ? { error: r.error } : {}) },
            })
            .catch((e) => console.error(`acknowledgement not sent: ${(e as Error).message}`));
        })();
      }
    }
  } catch (e) {
    if (exiting) return;
    throw e;
  }
  if (!exiting) {
    console.error('the service closed the stream (restart or shutdown); the temporary webhook is gone: run credence webhooks listen again');
    await quit(1);
  }
}

export async function runTrigger(flags: Record<string, unknown>, positionals: string[]) {
  const event = positionals[0];
  if (!EVENTS.includes(event)) {
    const s = suggest(event, EVENTS);
    throw new CliError(`unknown event "${event}"${s.length ? `; did you mean ${s.join(' or ')}?` : ''} (events: ${EVENTS.join(', ')})`, 2);
  }
  const { client } = keyClient(flags);
  const body = {
    event: 'score.updated' as const,
    ...(typeof flags.address === 'string' ? { address: flags.address } : {}),
    ...(typeof flags.category === 'string' ? { category: flags.category.toUpperCase() as 'OVERALL' } : {}),
  };
  const r = await unwrap(client.POST('/api/v1/webhooks/trigger', { body }));
  if (flags.json) return console.log(JSON.stringify(r, null, 2));
  const n = r.deliveryIds.length;
  console.log(
    `triggered ${r.event}: ${r.address} ${r.category} ${r.oldScore} -> ${r.newScore}; queued for ${n} ${n === 1 ? 'webhook or listener' : 'webhooks or listeners'}`,
  );
  if (!r.deliveryIds.length) console.log('nothing receives it: start credence webhooks listen --forward-to <url> with this test key first');
}
