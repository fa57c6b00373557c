// A fake IPFS node speaking the Kubo HTTP RPC subset the service uses (POST /api/v0/add): it stores what it is
// given and answers the CID Kubo gives for a single-chunk file added with cid-version=1 and raw leaves.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';

export interface FakeIpfs {
  url: string;
  pinned: Map<string, Uint8Array>;
  requests: { path: string; query: URLSearchParams; authorization: string | undefined }[];
  /** Status to answer with instead of success (simulates an outage). */
  failWith: number | null;
  close(): Promise<void>;
}

export async function startFakeIpfs(): Promise<FakeIpfs> {
  const fake: FakeIpfs = { url: '', pinned: new Map(), requests: [], failWith: null, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ path: u.pathname, query: u.searchParams, authorization: req.headers.authorization });
    if (req.method !== 'POST' || u.pathname !== '/api/v0/add') {
      res.writeHead(404).end('404 page not found');
      return;
    }
    if (fake.failWith) {
      res
        .writeHead(fake.failWith, { 'content-type': 'application/json' })
        .end(JSON.stringify({ Message: 'unavailable', Code: 0, Type: 'error' }));
      return;
    }
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': String(req.headers['content-type']) },
      body: Buffer.concat(chunks),
    }).formData();
    const file = form.get('file');
    if (!(file instanceof Blob)) {
      res.writeHead(400).end(JSON.stringify({ Message: 'file argument required', Code: 1, Type: 'error' }));
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const cid = CID.create(1, raw.code, await sha256.digest(bytes)).toString();
    fake.pinned.set(cid, bytes);
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ Name: (file as File).name ?? cid, Hash: cid, Size: String(bytes.length) }) + '\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((r) => server.close(() => r()));
  return fake;
}
