// Every validation error lists every offending field, whatever hook would answer first: the ENS
// pre-handler (a name-like address), the hostile-input check (NUL characters) and the schema all report together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp } from '../../../test/helpers/app.js';
import type { App } from './types.js';

describe('validation errors name every offending field', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((e) => e.field).sort();

  it('a debt claim with nine invalid fields names all nine (a name-like debtorAddress included)', async () => {
    for (const debtorAddress of ['nobody-here.eth', 'not an address']) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/debt-claims',
        payload: {
          creditorAddress: '0x123',
          debtorAddress,
          claimType: 'Nope',
          amount: -5,
          currency: 'usd',
          description: 'short',
          evidenceTransactionHash: '0xzz',
          chainId: 5,
          protocolName: '',
        },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(fieldsOf(res.json()), res.body).toEqual(
        // a well-formed name is not itself invalid: it is resolved once the rest of the request is valid
        [
          'amount',
          'chainId',
          'claimType',
          'creditorAddress',
          'currency',
          'debtorAddress',
          'description',
          'evidenceTransactionHash',
          'protocolName',
        ].filter((f) => f !== 'debtorAddress' || debtorAddress === 'not an address'),
      );
    }
  });
  it('a NUL character in one field does not hide the schema errors of the others', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/debt-claims',
      payload: {
        creditorAddress: '0x123',
        debtorAddress: 'not an address',
        claimType: 'Nope',
        amount: -5,
        currency: 'usd',
        description: 'a loan\u0000 of mine',
        evidenceTransactionHash: '0xzz',
        chainId: 5,
        protocolName: '',
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(fieldsOf(body), res.body).toEqual([
      'amount',
      'chainId',
      'claimType',
      'creditorAddress',
      'currency',
      'debtorAddress',
      'description',
      'evidenceTransactionHash',
      'protocolName',
    ]);
    // the NUL is named as such, not as a schema error of the same field
    expect(body.fields.filter((f: { field: string }) => f.field === 'description')).toEqual([
      { field: 'description', message: 'must not contain NUL characters or unpaired UTF-16 surrogates' },
    ]);
  });

  it('a NUL in the query string is reported with the query parameters the schema refuses', async () => {
    const key = await createKey(app);
    const res = await app.inject({ method: 'GET', url: '/api/v1/reputation/changes?after=abc&limit=%00', headers: key.headers });
    expect(res.statusCode, res.body).toBe(400);
    expect(fieldsOf(res.json()), res.body).toEqual(['after', 'limit']);
  });
});
