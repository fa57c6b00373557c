// Streamed request bodies over a real socket, against a server started as `npm start` starts it. The sanctions
// upload (the one route whose body is the request stream, not parsed data) once froze the process: the hostile-input
// check walked the stream object (socket, parser, server: a cyclic graph) for ever. Every upload format must be
// answered, and /health right after.
import { randomBytes } from 'node:crypto';
import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advancedXml, fileText, sdnCsv, zipArchive, type SdnParty } from '../../modules/sanctions/sdn-files.js';
import { childDatabaseEnv, signInOver, startServer, type ServerProcess } from '../../../test/helpers/server-process.js';

const checksummed = () => getAddress('0x' + randomBytes(20).toString('hex'));

describe('streamed bodies over a real socket', () => {
  let srv: ServerProcess;
  let auth: { authorization: string };
  beforeAll(async () => {
    srv = await startServer({ env: { ...(await childDatabaseEnv()), CREDENCE_SANCTIONS_SNAPSHOT: 'false' } });
    auth = await signInOver(srv.url, srv.admin);
  }, 300_000);
  afterAll(async () => {
    if (srv) expect(await srv.stop()).toBe(0);
  });

  const health = async () => {
    const res = await fetch(`${srv.url}/health`, { signal: AbortSignal.timeout(20_000) });
    return res.status;
  };
  const upload = async (body: string | Buffer, contentType: string, query = '') => {
    const res = await fetch(`${srv.url}/api/v1/compliance/sanctions/import?force=true${query}`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...auth },
      body,
      // a frozen server never answers: fail the test instead of hanging it
      signal: AbortSignal.timeout(60_000),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('CSV, XML, ZIP and sniffed uploads are answered 201/200, and /health answers right after each', async () => {
    const party = (n: number): SdnParty => ({
      id: 50_000 + n,
      name: `TEST PARTY ${randomBytes(3).toString('hex')}`,
      addresses: [{ ticker: 'ETH', address: checksummed() }],
    });
    const csv = fileText(sdnCsv([party(1)]));
    const xml = fileText(advancedXml(new Date('2024-10-01T00:00:00Z'), [party(2)]));
    const zip = zipArchive([
      { name: 'SDN_ADVANCED.XML', data: Buffer.from(fileText(advancedXml(new Date('2024-10-02T00:00:00Z'), [party(3)]))) },
    ]);
    const cases: [string, string | Buffer, string, string][] = [
      ['csv', csv, 'text/csv', '&fileName=sdn.csv&publishedAt=2024-09-30'],
      ['xml', xml, 'application/xml', '&fileName=sdn_advanced.xml'],
      ['zip', zip, 'application/zip', ''],
      ['octet-stream (sniffed CSV)', fileText(sdnCsv([party(4)])), 'application/octet-stream', '&publishedAt=2024-10-03'],
    ];
    for (const [name, body, type, query] of cases) {
      const res = await upload(body, type, query);
      expect([200, 201], `${name}: ${JSON.stringify(res.body)}`).toContain(res.status);
      expect(await health(), name).toBe(200);
    }
    // the list in force sent again is answered too (200 unchanged)
    const again = await upload(cases[3][1], 'application/octet-stream', cases[3][3]);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('unchanged');
  });

  it('a streamed body that is not an SDN file, or holds NUL bytes, is a 400, and the server keeps answering', async () => {
    const bad = await upload(Buffer.from('a,b\u0000,c\n1,2,3\n'), 'text/csv');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_failed');
    expect(await health()).toBe(200);
  });
});
