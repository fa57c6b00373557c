// My DID (register it if I have none), my credentials (list, revoke) and my KYC status (start a session).
import { call, client, ApiError } from '../api.ts';
import { Section, Status, useAction, useLoad, when, short } from '../ui/kit.tsx';

function Credentials({ did }: { did: string }) {
  const l = useLoad(() => call(client.GET('/api/v1/identity/{did}/credentials', { params: { path: { did } } })), [did]);
  const a = useAction();
  return (
    <div>
      <h3>Credentials</h3>
      <Status error={l.error} testid="credentials" />
      <Status error={a.error} ok={a.ok} testid="credential-action" />
      {l.data && l.data.length === 0 && <p>No credentials issued to this DID.</p>}
      {l.data && l.data.length > 0 && (
        <div class="scroll" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Issued</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {l.data.map((c) => (
              <tr key={c.id}>
                <td>{c.credentialType}</td>
                <td>{when(c.issuanceDate)}</td>
                <td>{when(c.expirationDate)}</td>
                <td>{c.revoked ? 'revoked' : 'active'}</td>
                <td>
                  {!c.revoked && (
                    <button
                      type="button"
                      class="danger"
                      disabled={a.busy}
                      onClick={() =>
                        void a.run(async () => {
                          await call(client.POST('/api/v1/identity/{did}/credentials/{id}/revoke', { params: { path: { did, id: c.id } } }));
                          l.reload();
                          return `Credential ${c.credentialType} revoked.`;
                        })
                      }
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </div>
  );
}

function Kyc({ did }: { did: string }) {
  const l = useLoad(async () => {
    try {
      return await call(client.GET('/api/v1/compliance/kyc/{did}/status', { params: { path: { did } } }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null; // no session yet
      throw e;
    }
  }, [did]);
  const a = useAction();
  return (
    <div>
      <h3>KYC</h3>
      <Status error={l.error} testid="kyc" />
      {!l.loading && !l.error && (
        <p data-testid="kyc-status">{l.data ? `Status: ${l.data.status}, level ${l.data.kycLevel}${l.data.reason ? ` (${l.data.reason})` : ''}.` : 'Not started.'}</p>
      )}
      {(!l.data || l.data.status === 'rejected') && (
        <button
          type="button"
          disabled={a.busy}
          onClick={() =>
            void a.run(async () => {
              const s = await call(client.POST('/api/v1/compliance/kyc/initiate', { body: { did } }));
              location.assign(s.redirectUrl);
            })
          }
        >
          Start identity verification
        </button>
      )}
      <Status error={a.error} testid="kyc-start" />
    </div>
  );
}

export function Identity({ address, did, onDid }: { address: string; did: string | null; onDid: (did: string) => void }) {
  const a = useAction();
  return (
    <Section id="identity" title="My identity">
      {did ? (
        <p>
          DID: <code data-testid="did">{did}</code>
        </p>
      ) : (
        <p>
          No DID yet.{' '}
          <button
            type="button"
            disabled={a.busy}
            onClick={() =>
              void a.run(async () => {
                const r = await call(client.POST('/api/v1/identity/register', { body: { walletAddress: address } }));
                onDid(r.did);
                return `Registered ${short(r.did, 24)}.`;
              })
            }
          >
            Register my DID
          </button>
        </p>
      )}
      <Status error={a.error} ok={a.ok} testid="did" />
      {did && <Credentials did={did} />}
      {did && <Kyc did={did} />}
    </Section>
  );
}
